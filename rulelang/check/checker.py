"""Checks on a merged ruleset that need no running: settings, duplicates, names, kinds, choices.

Each check is a small generator of diagnostics registered in CHECKS; ``check`` runs them.
The checks of declarations are here; the names are checked in names.py, and the kinds and
choices of single nodes in node_checks.py (with the kinds that kinds.py infers: only where
the text makes them plain, so they never warn about a correct ruleset).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from rulelang import ast
from rulelang.check.declared import did_you_mean
from rulelang.check.names import check_names
from rulelang.check.node_checks import check_nodes
from rulelang.check.option_labels import check_option_label_names, check_option_labels_repeat
from rulelang.check.presentation import check_presentation
from rulelang.check.quiet_blocks import check_quiet_decisions, check_quiet_exits, check_quiet_turns
from rulelang.check.settings import read_settings
from rulelang.check.signatures import SIGNATURES
from rulelang.check.tree import bound_names, walk
from rulelang.diagnostics import Diagnostic, Span
from rulelang.syntax.placeholders import PLACEHOLDER

# ---------------------------------------------------------------- settings, names, phases

def check_settings(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> list[Diagnostic]:
    """E202: a setting the engine does not know, or a value it cannot use."""
    return read_settings(decls, path)[1]


def check_duplicates(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E102: two declarations with one name."""
    seen: dict[str, ast.Decl] = {}
    for d in decls:
        if isinstance(d, (ast.GameDecl, ast.Extends, ast.SetupDecl, ast.InvariantDecl, ast.ScoreDecl,
                          ast.TiebreakDecl)):
            continue
        if isinstance(d, ast.FunctionDecl) and d.name in SIGNATURES:
            yield Diagnostic("E102", f"'{d.name}' is a builtin function: give this function another name",
                             d.name_span or d.span)
        if d.name in seen:
            yield Diagnostic("E102", f"'{d.name}' is declared twice (first at line {seen[d.name].span.line})",
                             d.name_span or d.span)
        else:
            seen[d.name] = d


def check_shown_as(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E103: a placeholder of a component's 'shown as' text that names none of its fields."""
    for d in decls:
        if not isinstance(d, ast.ComponentDecl) or d.shown_as is None:
            continue
        fields = {f.name for f in d.fields}
        for placeholder in PLACEHOLDER.findall(d.shown_as):
            if placeholder not in fields:
                yield Diagnostic("E103", f"'shown as' names '{{{placeholder}}}', which is not a field of "
                                         f"component '{d.name}'", d.span,
                                 hint=did_you_mean(placeholder, fields) or f"its fields: {', '.join(sorted(fields))}")


TYPE_NAMES = frozenset({"int", "bool", "string", "player", "zone", "space", "list", "map", "supply", "die",
                        "board", "component"})
"""The type names the language knows, besides the ruleset's enums and components."""


def check_type_names(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E205: a type that names nothing (``var x: nmber``), or a map whose keys are not players."""
    known = TYPE_NAMES | {d.name for d in decls if isinstance(d, (ast.EnumDecl, ast.ComponentDecl))}
    for d in decls:
        if isinstance(d, (ast.EnumDecl, ast.ComponentDecl)) and d.name in TYPE_NAMES:   # (one name, one meaning)
            what = "an enum" if isinstance(d, ast.EnumDecl) else "a component type"
            yield Diagnostic("E205", f"'{d.name}' is a type of the language: it cannot name {what}",
                             d.name_span or d.span, hint=f"give {what} another name")
        for node in walk(d):
            if isinstance(node, ast.TypeRef) and node.name not in known:
                yield Diagnostic("E205", f"unknown type '{node.name}'", node.span,
                                 hint=did_you_mean(node.name, known) or
                                 "a type is int, bool, string, player, zone, space, list[T], map[player, T], "
                                 "an enum, a component type or component (of any type)")
            elif isinstance(node, ast.TypeRef) and node.name == "map":
                yield from _map_keys(node)


def _map_keys(typ: ast.TypeRef) -> Iterator[Diagnostic]:
    """E205: a map type whose keys are not players (the only maps are those of simultaneous
    choices, from each player to their pick)."""
    if typ.key is not None and (typ.key.name != "player" or typ.key.optional):
        yield Diagnostic("E205", f"the keys of a map are players, not '{typ.key}'", typ.key.span,
                         hint="a simultaneous choice makes a map from each player to their pick: "
                              f"map[player, {typ.item}]")


_LETS = (ast.Let, ast.CallLet, ast.Roll, ast.RandomPick)


def check_shadowing(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """W108: a 'let' of a name that an enclosing block (or a parameter) already binds: it
    makes a new variable until its block ends, and the outer one keeps its value."""
    for d in decls:
        if isinstance(d, (ast.SetupDecl, ast.PhaseDecl, ast.ProcedureDecl)) and d.body is not None:
            params = {p.name: p.span for p in d.params} if isinstance(d, ast.ProcedureDecl) else {}
            yield from _shadows(d.body, [params], {})


def _shadows(block: ast.Block | None, outer: list[dict[str, Span]], here: dict[str, Span]) -> Iterator[Diagnostic]:
    if block is None:
        return
    for stmt in block.statements:
        if isinstance(stmt, _LETS) and stmt.name not in here:
            earlier = next((scope[stmt.name] for scope in reversed(outer) if stmt.name in scope), None)
            if earlier is not None:
                yield Diagnostic("W108", f"this 'let {stmt.name}' makes a new variable until the end of its block; "
                                         f"the '{stmt.name}' of line {earlier.line} keeps its value", stmt.span,
                                 hint=f"write '{stmt.name} = ...' to change the one of line {earlier.line}, "
                                      "or use another name")
        if not isinstance(stmt, ast.For):   # a loop variable belongs to its loop
            for name in bound_names(stmt):
                here.setdefault(name, stmt.span)
        inner = [*outer, here]
        for child in _blocks_of(stmt):
            loop_var = {stmt.var: stmt.span} if isinstance(stmt, ast.For) else {}
            yield from _shadows(child, inner, loop_var)


def _blocks_of(stmt: ast.Stmt) -> list[ast.Block | None]:
    if isinstance(stmt, ast.If):
        return [body for _, body in stmt.branches] + [stmt.otherwise]
    if isinstance(stmt, (ast.For, ast.While, ast.Repeat)):
        return [stmt.body]
    if isinstance(stmt, ast.Choose):
        return [stmt.otherwise]
    if isinstance(stmt, ast.Menu):
        return [o.body for o in stmt.options]
    return []


def check_phases(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E304: nothing to run."""
    if not any(isinstance(d, ast.PhaseDecl) for d in decls):
        yield Diagnostic("E304", "the ruleset declares no phase, so nothing can run", Span.point(path, 1, 1),
                         hint="add 'phase NAME { ... }'")


Check = Callable[[Sequence[ast.Decl], str, Path], Iterable[Diagnostic]]

# Every check, and whether loading a ruleset runs it too (True), or only the linter (False):
# the language lets a wrong value fail where it is used, so loading refuses only what
# cannot be built at all.
CHECKS: dict[Check, bool] = {check_settings: True, check_duplicates: True, check_phases: True,
                             check_names: True, check_shown_as: True, check_type_names: True,
                             check_shadowing: False, check_nodes: False, check_option_label_names: True,
                             check_option_labels_repeat: False, check_quiet_exits: True,
                             check_quiet_decisions: False, check_quiet_turns: False, check_presentation: True}


def check(decls: Sequence[ast.Decl], path: str, base_dir: Path | None = None, *,
          lint: bool = False) -> list[Diagnostic]:
    """Every diagnostic the static checks find: those that loading runs, or (``lint``) all.

    ``base_dir`` is the folder that the ruleset's data files (boards) are read from; by
    default the folder of ``path``, or the current folder for a text without a file."""
    if base_dir is None:
        base_dir = Path(path).parent if path and not path.startswith("<") else Path.cwd()
    found: list[Diagnostic] = []
    for check_fn, on_load in CHECKS.items():
        if lint or on_load:
            found.extend(check_fn(decls, path, base_dir))
    return found
