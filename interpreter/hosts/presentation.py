"""A ruleset's presentation (``present { ... }``, ``rulelang.present_ast``) as the hosts read it.

What the declarations say about looks, kept out of the engine: display names, colours and
symbols of enum values and component kinds, card faces, the labels of board spaces and the
colours of their values, where a component is drawn, display names of variables and which
variables players are shown. A
ruleset without a presentation gets an empty one, under which everything looks as it did:
no display names, every visible variable shown, no faces, labels or placements.

``Presentation`` holds the declarations, read once per game; the seat's view
(``seat_view``) renders them against an observation (``present_data``).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

from rulelang import ast
from rulelang.present_ast import PresentDecl, PresentLook
from rulelang.syntax.placeholders import PLACEHOLDER

LOOK_KEYS = ("name", "colour", "symbol")
"""The properties that say how a named thing looks (an enum value, a component kind)."""
FACE_KEYS = ("title", "corner", "body")
"""The parts of a card face, each a text with ``{field}`` placeholders."""
FACE_SEPARATOR = " | "
"""Between the parts of a card face written as one line."""
SPACE_KEYS = ("label", "corner")
"""The texts drawn on a board's spaces, each with ``{attribute}`` placeholders."""
VALUE_KEYS = ("colour", "name")
"""How the spaces whose colouring attribute has one value look: their colour, the legend's name."""


@dataclass(frozen=True)
class Placement:
    """Where a component kind is drawn: on the space its field (or variable) ``on`` names,
    while it lies in zone ``within`` (any zone the seat sees when None)."""

    on: str
    within: str | None


@dataclass(frozen=True)
class SpaceColours:
    """How a board's spaces are coloured: by the values of their attribute ``attribute``,
    each value's ``colour`` and display ``name`` (the legend's) in ``values``."""

    attribute: str
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def data(self) -> dict[str, object]:
        """As JSON data: ``{"attribute": ..., "values": {value: {colour, name}}}``."""
        return {"attribute": self.attribute, "values": {v: dict(look) for v, look in self.values.items()}}


@dataclass(frozen=True)
class Presentation:
    """The presentation of one game, by what it presents."""

    declared: bool = False
    enums: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    kinds: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    colour_fields: Mapping[str, str] = field(default_factory=dict)   # kind -> field whose enum value colours it
    faces: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    placements: Mapping[str, Placement] = field(default_factory=dict)
    spaces: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    shown: frozenset[str] | None = None
    space_colours: Mapping[str, SpaceColours] = field(default_factory=dict)   # by board

    @staticmethod
    def of(declarations: Sequence[ast.Decl]) -> Presentation:
        """The presentation of a game's declarations (its ``present`` block), or the empty one."""
        decls = [d for d in declarations if isinstance(d, PresentDecl)]
        boards = {d.name for d in declarations if isinstance(d, ast.BoardDecl)}
        return Presentation.read(decls[-1], boards) if decls else Presentation()

    @staticmethod
    def read(decl: PresentDecl, boards: Set[str]) -> Presentation:
        """The presentation a ``present`` block declares (``boards``: the names of the boards)."""
        enums: dict[str, dict[str, Mapping[str, str]]] = {}
        kinds: dict[str, Mapping[str, str]] = {}
        colour_fields: dict[str, str] = {}
        faces: dict[str, Mapping[str, str]] = {}
        placements: dict[str, Placement] = {}
        spaces: dict[str, Mapping[str, str]] = {}
        names: dict[str, str] = {}
        for look in decl.looks:
            texts = _texts(look)
            if look.target in boards:   # its spaces' texts; their colours: space_colours
                if look.member is None:
                    spaces[look.target] = {**spaces.get(look.target, {}), **_keys(texts, SPACE_KEYS)}
                continue
            if look.member is not None:   # (two entries of one thing: both, the later's where both say)
                values = enums.setdefault(look.target, {})
                values[look.member] = {**values.get(look.member, {}), **_keys(texts, LOOK_KEYS)}
                continue
            if _keys(texts, FACE_KEYS):
                faces[look.target] = {**faces.get(look.target, {}), **_keys(texts, FACE_KEYS)}
            kinds[look.target] = {**kinds.get(look.target, {}), **_keys(texts, LOOK_KEYS)}
            names.update({look.target: texts["name"]} if "name" in texts else {})
            colour_field = look.name_value("colour")
            if colour_field is not None:
                colour_fields[look.target] = colour_field
            on = look.name_value("on")
            if on is not None:
                placements[look.target] = Placement(on, look.name_value("within"))
        shown = decl.shown_variables
        return Presentation(True, enums, kinds, colour_fields, faces, placements,
                            {board: texts for board, texts in spaces.items() if texts}, names,
                            None if shown is None else frozenset(shown), space_colours(decl, boards))

    def is_shown(self, variable: str) -> bool:
        """Whether players are shown ``variable`` (every visible one, without ``show``)."""
        return self.shown is None or variable in self.shown

    def enum_look(self, enum: str, value: str) -> Mapping[str, str]:
        """How an enum value looks (empty when nothing is declared)."""
        return self.enums.get(enum, {}).get(value, {})

    def display_name(self, name: str) -> str:
        """The display name of a variable, supply or component kind (``name`` itself by default)."""
        return self.names.get(name, name)

    def data(self) -> dict[str, object]:
        """The static part as JSON data (docs/web.md, "The presentation")."""
        return {"declared": self.declared,
                "enums": {e: {v: dict(look) for v, look in values.items()} for e, values in self.enums.items()},
                "kinds": {k: dict(look) for k, look in self.kinds.items() if look},
                "faces": {k: dict(face) for k, face in self.faces.items()},
                "names": dict(self.names),
                "shown": None if self.shown is None else sorted(self.shown),
                "boards": {board: colours.data() for board, colours in self.space_colours.items()}}


def space_colours(decl: PresentDecl, boards: Set[str]) -> dict[str, SpaceColours]:
    """How a ``present`` block colours each board's spaces: ``BOARD { colour ATTRIBUTE }``
    and ``BOARD.VALUE { colour "..."  name "..." }`` (only the boards with an attribute: the
    checker refuses values without one, E801)."""
    attributes = decl.colouring_attributes(boards)
    values: dict[str, dict[str, Mapping[str, str]]] = {}
    for look in decl.looks:
        if look.member is not None and look.target in attributes:
            looks = values.setdefault(look.target, {})
            looks[look.member] = {**looks.get(look.member, {}), **_keys(_texts(look), VALUE_KEYS)}
    return {board: SpaceColours(attribute, values.get(board, {})) for board, attribute in attributes.items()}


def _texts(look: PresentLook) -> dict[str, str]:
    """The quoted properties of an entry, by name (the last one written wins)."""
    return {p.name: p.value for p in look.properties if p.quoted}


def _keys(texts: Mapping[str, str], keys: tuple[str, ...]) -> dict[str, str]:
    return {k: texts[k] for k in keys if k in texts}


def fill(template: str, values: Mapping[str, str]) -> str | None:
    """``template`` with each ``{name}`` replaced by its text in ``values``; None when one of
    them has no value (a space without that attribute: nothing is drawn)."""
    missing = [name for name in PLACEHOLDER.findall(template) if name.strip() not in values]
    if missing:
        return None
    return PLACEHOLDER.sub(lambda m: values[m.group(1).strip()], template)
