"""Name resolution: every name, attribute, function, phase and procedure a ruleset uses
is declared where it is used, and called with what it takes.

The scopes are those of the runtime, which reads a procedure top to bottom: a local
(``let``, ``for``, ``choose``, ``simultaneous``, ``roll``, ``random``, ``let x = call``, a
parameter) is known from the statement that binds it to the end of its procedure, a
comprehension's variables only inside it; ``me`` inside the initial value of a per-player,
per-space or per-component variable and inside a per-player deck; the player variable of
``score`` and ``tiebreak``. The data a declaration is built from (a board, a supply's
total, a die's faces, a deck) sees only what loading has built before it.

Codes: E101 unknown name, E103 unknown attribute or field, E104 unknown phase, E105
unknown procedure, E201 arity, E202 generator outside an aggregate, E203 bad assignment
target, E204 misplaced statement, E205 malformed declaration, E401 unreadable board file.
Every problem is reported, not only the first. What is declared is in declared.py, the
boards' attributes in board_files.py, the scopes and the walk of the code in scopes.py;
this module runs them over a ruleset.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from rulelang import ast
from rulelang.check.board_files import board_attributes
from rulelang.check.declared import (
    LOAD_ORDER,
    Declared,
    allowed_visibilities,
    constants_of,
    declared,
    did_you_mean,
)
from rulelang.check.scopes import ExprTask, Resolver, Task, block_tasks
from rulelang.check.settings import read_settings
from rulelang.diagnostics import Diagnostic

# ---------------------------------------------------------------- declarations

def declaration_problems(decls: Sequence[ast.Decl], names: Declared) -> Iterator[Diagnostic]:
    """E205 for a visibility or an owner a declaration cannot have; E101 and E205 for a deck
    whose zone does not exist or is not owned as the deck is."""
    for decl in decls:
        if isinstance(decl, (ast.VarDecl, ast.SupplyDecl, ast.ZoneDecl)):
            yield from _visibility(decl, decl.visibility, allowed_visibilities(decl))
        if isinstance(decl, ast.ZoneDecl) and decl.owner not in (None, "player"):
            yield Diagnostic("E205", "zones are shared or per player", decl.span)
        elif isinstance(decl, ast.DeckDecl):
            yield from _deck_zone(decl, names)


def _visibility(decl: ast.Decl, visibility: str | None, allowed: frozenset[str]) -> Iterator[Diagnostic]:
    if visibility is not None and visibility not in allowed:
        yield Diagnostic("E205", f"'{visibility}' is not a visibility here; use one of {', '.join(sorted(allowed))}",
                         decl.span, hint=_ONLY_PER_PLAYER_ZONES if visibility == "others" else None)


_ONLY_PER_PLAYER_ZONES = ("'visible others' (everyone but the owner) is for a per-player zone: "
                          "declare 'player zone NAME: TYPE visible others'")


def _deck_zone(deck: ast.DeckDecl, names: Declared) -> Iterator[Diagnostic]:
    zone = names.zones.get(deck.zone)
    if zone is None:
        yield Diagnostic("E101", f"deck '{deck.name}' starts in unknown zone '{deck.zone}'", deck.span,
                         hint=did_you_mean(deck.zone, names.zones))
    elif (deck.owner == "player") != (zone.owner == "player"):
        owned = "per-player" if deck.owner else "shared"
        yield Diagnostic("E205", f"a {owned} deck must start in a {owned} zone", deck.span)


# ---------------------------------------------------------------- the checks

def load_time_problems(decls: Sequence[ast.Decl], names: Declared) -> Iterator[Diagnostic]:
    """The names in the data of boards, supplies, dice and decks, each seeing only the
    names that loading has built before it (and ``me`` in a per-player deck)."""
    staged = sorted((LOAD_ORDER.index(type(d)), i) for i, d in enumerate(decls) if type(d) in LOAD_ORDER)
    built: set[str] = set()
    for _, i in staged:
        decl = decls[i]
        data = _data_of(decl)
        if data is not None:
            scope = {"me"} if isinstance(decl, ast.DeckDecl) and decl.owner == "player" else set()
            yield from Resolver(names, frozenset(built), scope).run([ExprTask(data)])
        built.update(constants_of(decl))


def _data_of(decl: ast.Decl) -> ast.Expr | None:
    if isinstance(decl, ast.BoardDecl):
        return decl.source
    if isinstance(decl, ast.SupplyDecl):
        return decl.total
    if isinstance(decl, ast.DieDecl):
        return decl.faces
    if isinstance(decl, ast.DeckDecl):
        return decl.contents
    return None


def code_problems(decls: Sequence[ast.Decl], names: Declared) -> Iterator[Diagnostic]:
    """The names in procedures, phases, setup, variables' initial values, invariants and
    the (last) score and tiebreak."""
    for scope, tasks in _code(decls):
        yield from Resolver(names, names.constants, scope).run(tasks)


def _code(decls: Sequence[ast.Decl]) -> Iterator[tuple[set[str], list[Task]]]:
    """(the names bound on entry, what to check) for each piece of code the runtime runs."""
    for decl in decls:
        if isinstance(decl, (ast.SetupDecl, ast.PhaseDecl)):
            yield set(), block_tasks(decl.body, False)
        elif isinstance(decl, ast.ProcedureDecl):
            yield {p.name for p in decl.params}, block_tasks(decl.body, False)
        elif isinstance(decl, ast.FunctionDecl) and decl.body is not None:
            yield {p.name for p in decl.params}, [ExprTask(decl.body)]
        elif isinstance(decl, ast.VarDecl) and decl.initial is not None:
            yield ({"me"} if decl.owner is not None else set()), [ExprTask(decl.initial)]
        elif isinstance(decl, ast.InvariantDecl) and decl.condition is not None:
            yield set(), [ExprTask(decl.condition)]
    scores = [d for d in decls if isinstance(d, ast.ScoreDecl)]
    tiebreaks = [d for d in decls if isinstance(d, ast.TiebreakDecl)]
    last_of_each: list[ast.ScoreDecl | ast.TiebreakDecl] = [*scores[-1:], *tiebreaks[-1:]]
    for last in last_of_each:   # the runtime uses only the last of each
        if last.value is not None:
            yield {last.name}, [ExprTask(last.value)]


def start_problem(decls: Sequence[ast.Decl], names: Declared, path: str) -> Iterator[Diagnostic]:
    """E104: a 'start' setting that names no phase."""
    settings, _ = read_settings(decls, path)
    if settings.start is not None and settings.start not in names.phases:
        yield Diagnostic("E104", f"the 'start' setting names no phase: '{settings.start}'",
                         settings.span_of("start", path), hint=did_you_mean(settings.start, names.phases))


def check_names(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """Every name problem of a merged ruleset whose data files lie in ``base_dir``."""
    space_attributes, problems = board_attributes(decls, base_dir)
    yield from problems
    names = declared(decls, space_attributes)
    yield from declaration_problems(decls, names)
    yield from load_time_problems(decls, names)
    yield from code_problems(decls, names)
    yield from start_problem(decls, names, path)
