"""The checks of a ruleset's presentation (``present { ... }``, docs/language.md,
"Presentation"): every name it gives a look to exists, every property fits what it presents,
every colour is a colour, and every placeholder of a face or a space label names a field or an
attribute that is there.

- E801: an enum value, component, board, variable, field or zone that does not exist, or a
  board's colouring attribute or value that none of its spaces has;
- E802: a property that the thing presented cannot have, or a value of the wrong form;
- E803: a colour that is not ``#rgb``, ``#rrggbb`` or a colour name of ``COLOUR_NAMES``;
- E804: a card face or a space label whose ``{placeholder}`` names a field or an attribute
  that the component or the board lacks.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulelang import ast
from rulelang.check.board_files import board_attributes, board_text_values
from rulelang.check.declared import ALWAYS_ATTRIBUTES, did_you_mean
from rulelang.diagnostics import Diagnostic
from rulelang.present_ast import PresentDecl, PresentLook, PresentProperty, PresentShow
from rulelang.syntax.placeholders import PLACEHOLDER

TEXT, NAME, TEXT_OR_NAME = "a text", "a name", "a text or a name"
ENUM_VALUE_PROPERTIES = {"name": TEXT, "colour": TEXT, "symbol": TEXT}
COMPONENT_PROPERTIES = {"name": TEXT, "colour": TEXT_OR_NAME, "symbol": TEXT, "title": TEXT, "corner": TEXT,
                        "body": TEXT, "on": NAME, "within": NAME}
BOARD_PROPERTIES = {"label": TEXT, "corner": TEXT, "colour": NAME}
BOARD_VALUE_PROPERTIES = {"name": TEXT, "colour": TEXT}
VARIABLE_PROPERTIES = {"name": TEXT}
TEMPLATES = frozenset({"title", "corner", "body", "label"})
MAX_SYMBOL = 3
"""A symbol is at most this many characters: a mark, not a name."""

COLOUR_NAMES = frozenset({
    "black", "white", "grey", "gray", "silver", "red", "maroon", "orange", "gold", "yellow", "olive", "lime",
    "green", "teal", "cyan", "aqua", "blue", "navy", "purple", "violet", "magenta", "fuchsia", "pink", "brown",
    "tan", "beige", "ivory", "crimson", "indigo", "turquoise", "coral", "salmon", "khaki", "orchid", "plum",
    "chocolate", "sienna", "darkgreen", "darkblue", "darkred", "lightblue", "lightgreen", "lightgrey",
    "darkgrey", "skyblue", "steelblue", "forestgreen", "seagreen", "goldenrod", "firebrick", "slategrey"})
"""The colour names a presentation may use (CSS colour names, the common ones), besides hex."""
_HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass(frozen=True)
class Declared:
    """The names a presentation may refer to, from the declarations."""

    enums: Mapping[str, tuple[str, ...]]
    components: Mapping[str, ast.ComponentDecl]
    boards: Mapping[str, ast.BoardDecl]
    variables: Mapping[str, ast.VarDecl]
    zones: frozenset[str]
    supplies: frozenset[str]
    colouring: Mapping[str, str] = field(default_factory=dict)
    """Each board's colouring attribute, as the presentation checked declares it."""

    @staticmethod
    def of(decls: Sequence[ast.Decl]) -> Declared:
        return Declared({d.name: d.values for d in decls if isinstance(d, ast.EnumDecl)},
                        {d.name: d for d in decls if isinstance(d, ast.ComponentDecl)},
                        {d.name: d for d in decls if isinstance(d, ast.BoardDecl)},
                        {d.name: d for d in decls if isinstance(d, ast.VarDecl)},
                        frozenset(d.name for d in decls if isinstance(d, ast.ZoneDecl)),
                        frozenset(d.name for d in decls if isinstance(d, ast.SupplyDecl)))

    def owned_variables(self, owner: str) -> dict[str, ast.VarDecl]:
        return {name: d for name, d in self.variables.items() if d.owner == owner}


def check_presentation(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E801-E804 in every ``present`` block."""
    declared = Declared.of(decls)
    for decl in decls:
        if isinstance(decl, PresentDecl):
            declared = replace(declared, colouring=decl.colouring_attributes(declared.boards))
            for look in decl.looks:
                yield from _look(look, declared, base_dir)
            for show in decl.shows:
                yield from _show(show, declared)


def _look(look: PresentLook, declared: Declared, base_dir: Path) -> Iterator[Diagnostic]:
    """The checks of one entry, by what its target is."""
    where = look.target_span or look.span
    if look.member is not None and look.target in declared.boards:
        yield from _board_value(look, declared.boards[look.target], declared, base_dir)
    elif look.member is not None:
        yield from _enum_value(look, declared)
    elif look.target in declared.components:
        yield from _properties(look, COMPONENT_PROPERTIES, "a component kind")
        yield from _component(look, declared.components[look.target], declared)
    elif look.target in declared.boards:
        yield from _properties(look, BOARD_PROPERTIES, "a board")
        yield from _board(look, declared.boards[look.target], declared, base_dir)
    elif look.target in declared.variables or look.target in declared.supplies or look.target in declared.zones:
        yield from _properties(look, VARIABLE_PROPERTIES, "a variable, supply or zone")
    else:
        known = [*declared.components, *declared.boards, *declared.variables, *declared.supplies, *declared.zones]
        yield Diagnostic("E801", f"'{look.target}' is no component, board, variable, supply or zone: there is "
                                 "nothing to present", where,
                         hint=did_you_mean(look.target, known) or "an enum value is written 'enum.value'")


def _enum_value(look: PresentLook, declared: Declared) -> Iterator[Diagnostic]:
    where = look.target_span or look.span
    values = declared.enums.get(look.target)
    if values is None:
        yield Diagnostic("E801", f"'{look.target}' is no enum or board ('{look.title}' names an enum value or "
                                 "the value of a board's colouring attribute)", where,
                         hint=did_you_mean(look.target, [*declared.enums, *declared.boards]))
    elif look.member not in values:
        yield Diagnostic("E801", f"enum '{look.target}' has no value '{look.member}'", where,
                         hint=did_you_mean(str(look.member), values) or f"its values: {', '.join(values)}")
    else:
        yield from _properties(look, ENUM_VALUE_PROPERTIES, "an enum value")


def _properties(look: PresentLook, allowed: Mapping[str, str], what: str) -> Iterator[Diagnostic]:
    """E802 for a property ``what`` cannot have or a value of the wrong form; E803 for a
    colour that is not one."""
    for prop in look.properties:
        form = allowed.get(prop.name)
        if form is None:
            yield Diagnostic("E802", f"'{look.title}' is {what}: it has no property '{prop.name}'", prop.span,
                             hint=f"{what} takes: {', '.join(allowed)}")
        elif (form == TEXT and not prop.quoted) or (form == NAME and prop.quoted):
            named = "ATTRIBUTE" if what == "a board" else "FIELD"
            yield Diagnostic("E802", f"the value of '{prop.name}' is {form}", prop.value_span or prop.span,
                             hint=f'write {prop.name} "{prop.value}"' if form == TEXT else f"write {prop.name} {named}")
        else:
            yield from _value(prop)


def _value(prop: PresentProperty) -> Iterator[Diagnostic]:
    """E802/E803: a text that cannot be what its property says."""
    where = prop.value_span or prop.span
    if prop.name == "colour" and prop.quoted and not is_colour(prop.value):
        yield Diagnostic("E803", f"'{prop.value}' is not a colour", where,
                         hint="a colour is #rgb, #rrggbb or a colour name (red, navy, gold...)")
    elif prop.name == "symbol" and not 0 < len(prop.value) <= MAX_SYMBOL:
        yield Diagnostic("E802", f"a symbol is 1 to {MAX_SYMBOL} characters, not {len(prop.value)}", where,
                         hint="a longer text is a 'name'")
    elif prop.name == "name" and not prop.value.strip():
        yield Diagnostic("E802", "a display name cannot be empty", where)


def is_colour(text: str) -> bool:
    """Whether ``text`` is a colour a presentation may use."""
    return bool(_HEX_COLOUR.fullmatch(text)) or text.lower() in COLOUR_NAMES


def _component(look: PresentLook, component: ast.ComponentDecl, declared: Declared) -> Iterator[Diagnostic]:
    """A component kind's face names its fields; 'on' a space field, 'within' a zone, 'colour'
    an enum field."""
    fields = {f.name: f.type for f in component.fields}
    variables = declared.owned_variables("component")
    named = {**{n: f.name if f is not None else "" for n, f in fields.items()},
             **{n: d.type.name if d.type is not None else "" for n, d in variables.items()}}
    yield from _templates(look, set(named), f"component '{look.target}'", "field")
    for prop in (p for p in look.properties if not p.quoted):
        where = prop.value_span or prop.span
        if prop.name in ("on", "colour") and prop.value not in named:
            yield Diagnostic("E801", f"component '{look.target}' has no field '{prop.value}'", where,
                             hint=did_you_mean(prop.value, named) or f"its fields: {', '.join(fields)}")
        elif prop.name == "on" and named[prop.value] != "space":
            yield Diagnostic("E802", f"'on {prop.value}': the field is of type {named[prop.value]}, not a space", where)
        elif prop.name == "colour" and named[prop.value] not in declared.enums:
            yield Diagnostic("E802", f"'colour {prop.value}': the field is not an enum whose values have colours",
                             where)
        elif prop.name == "within" and prop.value not in declared.zones:
            yield Diagnostic("E801", f"'within {prop.value}': there is no zone '{prop.value}'", where,
                             hint=did_you_mean(prop.value, declared.zones))


def _board(look: PresentLook, board: ast.BoardDecl, declared: Declared, base_dir: Path) -> Iterator[Diagnostic]:
    """A board's labels name its spaces' attributes, space variables, 'name' or 'index'."""
    attributes, _ = board_attributes([board], base_dir)
    if attributes is None:   # a board only known by running
        return
    known = {*attributes, *ALWAYS_ATTRIBUTES, *declared.owned_variables("space")}
    yield from _templates(look, known, f"board '{look.target}'", "attribute")
    yield from _colouring_attribute(look, attributes)


def _colouring_attribute(look: PresentLook, attributes: frozenset[str]) -> Iterator[Diagnostic]:
    """E801: ``BOARD { colour ATTRIBUTE }`` names an attribute the board's spaces lack."""
    for prop in (p for p in look.properties if p.name == "colour" and not p.quoted and p.value not in attributes):
        known = ", ".join(sorted(attributes))
        yield Diagnostic("E801", f"'colour {prop.value}': the spaces of board '{look.target}' have no attribute "
                                 f"'{prop.value}'", prop.value_span or prop.span,
                         hint=did_you_mean(prop.value, attributes) or f"their attributes: {known}")


def _board_value(look: PresentLook, board: ast.BoardDecl, declared: Declared, base_dir: Path) -> Iterator[Diagnostic]:
    """``BOARD.VALUE { ... }``: the look of the spaces whose colouring attribute has that value."""
    where = look.target_span or look.span
    attribute = declared.colouring.get(look.target)
    values = board_text_values(board, base_dir)
    if attribute is None:
        yield Diagnostic("E801", f"'{look.title}' colours the spaces of board '{look.target}' by a value, but the "
                                 "board declares no colouring attribute", where,
                         hint=f"write {look.target} {{ colour ATTRIBUTE }}: the attribute whose values colour "
                              "its spaces")
    elif values is not None and attribute in values and look.member not in values[attribute]:
        known = sorted(values[attribute])
        yield Diagnostic("E801", f"no space of board '{look.target}' has {attribute} '{look.member}'", where,
                         hint=did_you_mean(str(look.member), known)
                         or (f"its values: {', '.join(known)}" if known else f"'{attribute}' takes no text values"))
    yield from _properties(look, BOARD_VALUE_PROPERTIES, "a board's colouring value")


def _templates(look: PresentLook, known: set[str], owner: str, what: str) -> Iterator[Diagnostic]:
    """E804: a placeholder of a face or a label that names nothing ``owner`` has."""
    for prop in look.properties:
        if prop.name not in TEMPLATES or not prop.quoted:
            continue
        for placeholder in (p.strip() for p in PLACEHOLDER.findall(prop.value)):
            if placeholder not in known:
                yield Diagnostic("E804", f"'{prop.name}' names '{{{placeholder}}}', but {owner} has no {what} "
                                         f"'{placeholder}'", prop.value_span or prop.span,
                                 hint=did_you_mean(placeholder, known) or f"it has: {', '.join(sorted(known))}")


def _show(show: PresentShow, declared: Declared) -> Iterable[Diagnostic]:
    """E801: 'show' names a variable or a supply that is not declared."""
    for name, span in zip(show.names, show.name_spans or (show.span,) * len(show.names), strict=False):
        if name not in declared.variables and name not in declared.supplies:
            yield Diagnostic("E801", f"'show {name}': there is no variable or supply '{name}'", span,
                             hint=did_you_mean(name, [*declared.variables, *declared.supplies]))
