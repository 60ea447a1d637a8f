"""The catalog: everything static about one game (a ruleset and a player count).

Declarations become tables: players, enumerations, components with ids, zone slots,
variables, supplies, dice, boards and the action-id encoding (how ``x.name`` reads them:
attributes.py). The state refers to this catalog for everything that never changes; the
compiler (interpreter/compiler/) compiles the rules against it. The expressions of
declarations (a deck's contents, a supply's total) are evaluated while the tables are
built, by the ``Evaluate`` the catalog is given.
"""
from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TypeAlias, TypeVar

from rulelang import ast, boards
from rulelang.check.settings import Settings
from rulelang.check.tree import walk
from rulelang.check.zone_types import declared_holds, wrong_zone
from rulelang.diagnostics import Span

from ..model.problems import CompileError, unchecked
from ..model.program import Env
from ..model.values import (
    Component,
    ComponentSpec,
    EnumType,
    EnumValue,
    Player,
    Ref,
    RuleError,
    Value,
    ZoneRef,
    display,
    kind_of,
)
from ..model.visibility import full_viewers
from .builtins import BUILTINS, LOAD_TIME
from .dealing import whole_runs

VISIBILITIES = {"all", "owner", "none", "count"}   # of every zone; a per-player zone may be 'others' too
MAX_COMPONENTS = 20_000  # more would make every state copy slow; no table game comes near

D = TypeVar("D", bound=ast.Decl)
Evaluate: TypeAlias = Callable[["Catalog", ast.Expr, Env], Value]
"""How the catalog evaluates an expression of a declaration while it is built:
``evaluate(catalog, expr, env)`` with the names of ``env`` bound (the compiler layer gives
one: interpreter/compiler/driver.py); it raises what running the expression raises."""



def interned_ids(options: tuple[Value, ...], code_of: dict[object, int]) -> tuple[int, ...]:
    """The ids of ``options`` by ``code_of`` (KeyError or TypeError where one is not an
    interned value): one call of an ``itemgetter`` of them, which gives the tuple itself,
    where there are two or more (a ``map`` of ``code_of.__getitem__`` calls the method again
    for each option, about a hundred instructions more an option, and makes a bound method)."""
    if len(options) > 1:
        ids: tuple[int, ...] = itemgetter(*options)(code_of)
        return ids
    return (code_of[options[0]],) if options else ()


class Catalog:
    """Static tables of one game, built from a merged list of declarations.

    The problems of its data (E401, E402, a value a declaration cannot have) are not raised:
    they are collected in ``problems``. Any other problem of the rules is the front end's to
    report (``unchecked`` here). The expressions of declarations are evaluated by
    ``evaluate`` (see ``Evaluate``).
    """

    def __init__(self, declarations: Sequence[ast.Decl], num_players: int, base_dir: Path, settings: Settings,
                 evaluate: Evaluate):
        self.decls = list(declarations)
        self.evaluate = evaluate
        self.base_dir = base_dir
        self.problems: list[CompileError] = []
        # Seats: the players, then any dummy seats (played by the rules, never choosing).
        self.players = tuple(Player(i) for i in range(num_players + settings.dummies))
        self.real_players = self.players[:num_players]
        self.holder_base = 1 + len(self.players)  # token holders: 0 the bank, 1.. the seats, then the components
        self.max_steps = settings.max_steps   # (a host may lower a game's, never raise it)
        self.constants: dict[str, Value] = {}
        self.enums: dict[str, EnumType] = {}
        self.component_types: dict[str, ast.ComponentDecl] = {}
        self.global_vars: dict[str, ast.VarDecl] = {}
        self.player_vars: dict[str, ast.VarDecl] = {}
        self.space_vars: dict[str, ast.VarDecl] = {}
        self.component_vars: dict[str, ast.VarDecl] = {}
        self.zones: dict[str, ast.ZoneDecl] = {}
        self.zone_slot: dict[str, int] = {}
        self.zone_refs: list[ZoneRef] = []
        self.zone_seers: list[int] = []   # by zone slot: the bitmask of the players who see it in full
        # By zone slot: the component type the zone holds (its declared type, where that names
        # a component type of the ruleset: a component of another type never enters it), or
        # None (a zone of another declared type holds components of any type).
        self.zone_holds: list[str | None] = []
        self.supply_decls: dict[str, ast.SupplyDecl] = {}
        self.supplies: dict[str, int] = {}   # the total of each supply
        self.dice: dict[str, tuple[Value, ...]] = {}
        self.boards: dict[str, boards.Board] = {}
        self.space_offset: dict[str, int] = {}
        self.spaces: list[boards.Space] = []
        self.components: list[Component] = []
        self.decks_built = False   # every component made: the list above is the game's whole
        self.initial_zone: list[int] = []
        self.deck_first: list[int] = []   # by component id: the id of its deck's first component
        # By zone slot: the ids (first, stop) of every component the zone can hold, where they
        # are one run (``dealing.whole_runs``), else (0, -1).
        self.whole_run: list[tuple[int, int]] = []
        self.phases: dict[str, ast.PhaseDecl] = {}
        self.procedures: dict[str, ast.ProcedureDecl] = {}
        self.functions: dict[str, ast.FunctionDecl] = {}
        self.labels: list[str] = []
        self.label_index: dict[str, int] = {}
        # The action-id encoding: blocks of ids, in this order (see ``encode``).
        self.component_base = self.player_base = self.enum_base = self.label_base = 0
        self.constant_base = self.int_base = 0
        self.enum_index: dict[int, int] = {}
        self.code_of: dict[object, int] = {}
        self.first_phase: str | None = None   # the phase that starts the game
        # The board constructors a `board` declaration may call, one method each.
        self.load_time_functions: dict[str, Callable[..., Value]] = {
            "square_grid": self._square_grid, "hex_grid": self._hex_grid, "load_board": self._load_board}
        assert set(self.load_time_functions) == LOAD_TIME
        self._current_board = ""
        self._build_data()
        self._find_first_phase(settings)

    # ---- building ----
    def _build_data(self) -> None:
        self._collect_names()
        self._each(ast.EnumDecl, self._build_enum)
        self._each(ast.BoardDecl, self._build_board)
        if self.problems:   # a board not built leaves the names of its data unknown: what reads them cannot be
            return
        self._each(ast.ZoneDecl, self._build_zone)
        self._each(ast.SupplyDecl, self._build_supply)
        self._each(ast.DieDecl, self._build_die)
        self._each(ast.DeckDecl, self._build_deck)
        self.decks_built = True
        self.whole_run = whole_runs(self.zone_holds, self.components)
        self._collect_labels()
        self._build_encoding()

    def declared(self, cls: type[D]) -> list[D]:
        """The declarations of class ``cls``, in order."""
        return [d for d in self.decls if isinstance(d, cls)]

    def _each(self, cls: type[D], build: Callable[[D], None]) -> None:
        """``build`` each declaration of class ``cls``, recording the problems found."""
        for decl in self.declared(cls):
            self._recording_problems(build, decl)

    def _recording_problems(self, build: Callable[[D], None], decl: D) -> None:
        try:
            build(decl)
        except CompileError as error:
            self.problems.append(error)

    def _collect_names(self) -> None:
        for c in self.declared(ast.ComponentDecl):
            self.component_types[c.name] = c
        self._each(ast.VarDecl, self._collect_variable)
        for phase in self.declared(ast.PhaseDecl):
            self.phases[phase.name] = phase
        for procedure in self.declared(ast.ProcedureDecl):
            self.procedures[procedure.name] = procedure
        for function in self.declared(ast.FunctionDecl):
            self.functions[function.name] = function

    def _collect_variable(self, d: ast.VarDecl) -> None:
        self._check_visibility(d, d.visibility, {"all", "owner", "none"} if d.owner == "player" else {"all", "none"})
        tables = {None: self.global_vars, "player": self.player_vars, "space": self.space_vars,
                  "component": self.component_vars}
        tables[d.owner][d.name] = d

    @staticmethod
    def _check_visibility(decl: ast.Decl, visibility: str | None, allowed: set[str]) -> None:
        if visibility is not None and visibility not in allowed:
            raise unchecked(f"'{visibility}' is not a visibility here; use one of {', '.join(sorted(allowed))}",
                            decl.span)

    def _build_enum(self, d: ast.EnumDecl) -> None:
        values = tuple(EnumValue(d.name, v, i) for i, v in enumerate(d.values))
        self.enums[d.name] = EnumType(d.name, values)
        self.constants[d.name] = self.enums[d.name]
        for v in values:
            self.constants.setdefault(v.name, v)

    def _evaluate(self, expr: ast.Expr | None, span: Span, env: Env | None = None, *,
                  board: str | None = None) -> Value:
        """The value of an expression of a declaration, computed while loading (E402 if it
        cannot be: it fails, or it reads the state of a game; E401 if the data of ``board``,
        the board being built, is wrong)."""
        if expr is None:
            raise unchecked("this declaration needs a value", span)
        try:
            return self.evaluate(self, expr, dict(env or {}))
        except boards.BoardError as error:
            if board is not None:
                raise _board_error(error, board, expr.span) from None
            raise CompileError(error.message, expr.span, "E402") from None
        except RuleError as error:
            raise CompileError(error.message, expr.span, "E402") from None
        except (TypeError, AttributeError) as error:
            raise CompileError(f"cannot evaluate this while loading: {error}", expr.span, "E402") from None

    def _build_board(self, d: ast.BoardDecl) -> None:
        self._current_board = d.name
        board = self._evaluate(d.source, d.span, board=d.name)
        if not isinstance(board, boards.Board):
            raise CompileError(f"board '{d.name}' must be built by square_grid(...) or load_board(...)",
                               d.source.span if d.source is not None else d.span, "E401")
        self.boards[d.name] = board
        self.space_offset[d.name] = len(self.spaces)
        self.spaces.extend(board.spaces)
        self.constants[d.name] = Ref("board", d.name, board)

    def _square_grid(self, width: int, height: int, diagonal: bool = False) -> boards.Board:
        return boards.square_grid(self._current_board, width, height, diagonal=diagonal)

    def _hex_grid(self, *args: Value, **kwargs: Value) -> boards.Board:
        raise RuleError("hex boards are loaded from data files: use load_board(\"file.yaml\")")

    def _load_board(self, path: str) -> boards.Board:
        return boards.load_board_file(self._current_board, self.base_dir / path)

    def _build_zone(self, d: ast.ZoneDecl) -> None:
        self._check_visibility(d, d.visibility, VISIBILITIES | ({"others"} if d.owner == "player" else set()))
        if d.owner not in (None, "player"):
            raise unchecked("zones are shared or per player", d.span)
        self.zones[d.name] = d
        self.zone_slot[d.name] = base = len(self.zone_refs)
        if d.owner == "player":
            self.zone_refs.extend(ZoneRef(d.name, p, base + p.index) for p in self.players)
        else:
            self.zone_refs.append(ZoneRef(d.name, None, base))
            self.constants[d.name] = self.zone_refs[-1]
        self.zone_seers.extend(full_viewers(d, ref.owner.index if ref.owner else None, len(self.real_players))
                               for ref in self.zone_refs[base:])
        holds = declared_holds(d.type, self.component_types)
        holds = sys.intern(holds) if holds is not None else None
        self.zone_holds.extend(holds for _ in self.zone_refs[base:])

    def _build_supply(self, d: ast.SupplyDecl) -> None:
        self._check_visibility(d, d.visibility, {"all", "owner", "none"})
        total = self._evaluate(d.total, d.span)
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise CompileError("a supply's total must be a whole number", d.total.span if d.total else d.span, "E205")
        self.supply_decls[d.name] = d
        self.supplies[d.name] = total
        self.constants[d.name] = Ref("supply", d.name)

    def _build_die(self, d: ast.DieDecl) -> None:
        faces = self._evaluate(d.faces, d.span)
        if not isinstance(faces, tuple) or not faces:
            raise CompileError("a die needs a non-empty list of faces", d.faces.span if d.faces else d.span, "E205")
        self.dice[d.name] = faces
        self.constants[d.name] = Ref("die", d.name, faces)

    def _build_deck(self, d: ast.DeckDecl) -> None:
        zone = self.zones.get(d.zone)
        if zone is None:
            raise unchecked(f"deck '{d.name}' starts in unknown zone '{d.zone}'", d.span)
        if (d.owner == "player") != (zone.owner == "player"):
            kind = "per-player" if d.owner else "shared"
            raise unchecked(f"a {kind} deck must start in a {kind} zone", d.span)
        owners: tuple[Player | None, ...] = self.players if d.owner == "player" else (None,)
        made: list[Component] = []
        for owner in owners:
            specs = self._evaluate(d.contents, d.span, {"me": owner} if owner is not None else {})
            slot = self.zone_slot[d.zone] + (owner.index if owner is not None else 0)
            made.extend(self._instantiate(d, specs, slot))
        self.constants[d.name] = tuple(made)

    def _instantiate(self, deck: ast.DeckDecl, specs: Value, slot: int) -> list[Component]:
        span = deck.contents.span if deck.contents is not None else deck.span
        if not isinstance(specs, tuple):
            raise CompileError(f"deck '{deck.name}' must be a list of components", span, "E402")
        if deck.size is not None and len(specs) != deck.size:
            per = " per player" if deck.owner == "player" else ""
            raise CompileError(f"deck '{deck.name}' declares size {deck.size}{per} but its list makes {len(specs)}",
                               span, "E402", hint="fix the list or the declared size")
        if len(self.components) + len(specs) > MAX_COMPONENTS:
            raise CompileError(f"the decks hold more than {MAX_COMPONENTS} components", span, "E402")
        made, first = [], len(self.components)
        for spec in specs:
            if not isinstance(spec, ComponentSpec):
                raise CompileError(f"deck '{deck.name}' holds a {kind_of(spec)}, not a component", span, "E402")
            if deck.type is not None and spec.type != deck.type.name:
                raise CompileError(f"deck '{deck.name}' is of {deck.type.name} but holds a {spec.type}", span, "E402")
            holds = self.zone_holds[slot]
            if holds is not None and spec.type != holds:
                raise CompileError(f"deck '{deck.name}': {wrong_zone(deck.zone, holds, spec.type)}", deck.span, "E208",
                                   hint=f"declare the zone ': {spec.type}', or start the deck in one so declared")
            component = Component(len(self.components), sys.intern(spec.type), dict(spec.fields), self._label(spec))
            self.components.append(component)
            self.initial_zone.append(slot)
            self.deck_first.append(first)
            made.append(component)
        return made

    def _label(self, spec: ComponentSpec) -> str:
        decl = self.component_types[spec.type]
        if decl.shown_as:
            text = decl.shown_as
            for key, value in spec.fields.items():
                text = text.replace("{" + key + "}", display(value))
            return text
        return " ".join(display(v) for v in spec.fields.values())

    def _collect_labels(self) -> None:
        """Menu labels first, then every string written in the ruleset, so that a choice or a
        chance event over strings ("random ["heads", "tails"]") has stable ids too."""
        nodes = [node for d in self.decls for node in walk(d)]
        options = [node.label for node in nodes if isinstance(node, ast.Option)]
        strings = [node.value for node in nodes if isinstance(node, ast.Literal) and isinstance(node.value, str)]
        self.labels = list(dict.fromkeys(options + strings))
        self.label_index = {label: i for i, label in enumerate(self.labels)}

    def label_id(self, label: str) -> int:
        """The action id of a menu label."""
        return self.label_base + self.label_index[label]

    def _build_encoding(self) -> None:
        enum_values = [v for e in self.enums.values() for v in e.values]
        self.component_base = len(self.spaces)
        self.player_base = self.component_base + len(self.components)
        self.enum_base = self.player_base + len(self.players)
        self.enum_index = {id(v): i for i, v in enumerate(enum_values)}
        self.label_base = self.enum_base + len(enum_values)
        self.constant_base = self.label_base + len(self.labels)   # false, true, none
        self.int_base = self.constant_base + 3
        interned: list[object] = [*self.spaces, *self.components, *self.players, *enum_values]
        # Keyed by the values themselves: they are equal only to themselves, so a lookup
        # finds them and nothing else (an int, another string or a true never matches);
        # a label, a string written in the ruleset, only to the same string, of the same id.
        self.code_of = {v: i for i, v in enumerate(interned)}
        self.code_of.update({label: self.label_base + i for i, label in enumerate(self.labels)})

    def option_ids(self, options: tuple[Value, ...]) -> tuple[tuple[int, ...], bool]:
        """``action_ids`` of ``options``, and whether every option is an interned value (equal
        only to itself, so a list equal to this one holds the very same values)."""
        if options and type(options[0]) is int:   # (a number is none of them: no failed lookup)
            return tuple(map(self.encode, options)), False
        try:
            return interned_ids(options, self.code_of), True
        except (KeyError, TypeError):   # a number, a string, a constant, an unhashable value
            return tuple(map(self.encode, options)), False

    def action_ids(self, options: tuple[Value, ...]) -> tuple[int, ...]:
        """``encode`` of each option, in one lookup each when they are all interned values."""
        try:
            return interned_ids(options, self.code_of)
        except (KeyError, TypeError):   # a number, a string, a constant, an unhashable value
            return tuple(map(self.encode, options))

    def encode(self, value: Value) -> int:
        """The stable action id of a value that a player can choose."""
        try:
            code = self.code_of.get(value)
        except TypeError:   # a value that cannot be hashed is none of the interned ones
            code = None
        if code is not None:
            return code
        if type(value) is int and value >= 0:   # (a number, not a boolean: the test below in place)
            return self.int_base + value
        if isinstance(value, Component):
            return self.component_base + value.id
        if isinstance(value, Player):
            return self.player_base + value.index
        if isinstance(value, EnumValue):
            return self.enum_base + self.enum_index[id(value)]
        if value is False or value is True or value is None:
            return self.constant_base + (2 if value is None else int(value))
        if isinstance(value, int):
            if value < 0:
                raise RuleError(f"a negative number ({value}) cannot be an option of a choice")
            return self.int_base + value
        if isinstance(value, boards.Space):
            return self.space_offset[value.board] + value.index
        if isinstance(value, str):
            if value in self.label_index:
                return self.label_base + self.label_index[value]
            raise RuleError(f"the string {value!r} cannot be an option of a choice: only strings written "
                            f"in the ruleset can")
        raise RuleError(f"a {kind_of(value)} cannot be an option of a choice")

    def _find_first_phase(self, settings: Settings) -> None:
        """The phase that starts the game: the 'start' setting, or the first declared."""
        self.first_phase = settings.start or next(iter(self.phases), None)
        if self.first_phase is not None and self.first_phase not in self.phases:
            raise unchecked(f"the 'start' setting names no phase: '{self.first_phase}'",
                            settings.span_of("start", "<rules>"))

    def procedure_decl(self, name: str, span: Span) -> ast.ProcedureDecl:
        """The declaration of procedure ``name`` (there is one: the checker says E105)."""
        if name not in self.procedures:
            raise unchecked(f"unknown procedure '{name}'", span)
        return self.procedures[name]

    def procedure_called(self, node: ast.CallStmt | ast.CallLet) -> ast.ProcedureDecl:
        """The declaration of the procedure a call names, called with as many arguments as
        it takes (the checker reports any other call, E105 and E201)."""
        proc = self.procedure_decl(node.procedure, node.span)
        if len(proc.params) != len(node.args):
            raise unchecked(f"procedure '{proc.name}' takes {len(proc.params)} arguments, got {len(node.args)}",
                            node.span)
        return proc

    # ---- tokens ----
    def holder_slot(self, value: Value) -> int:
        """The supply-holder index of a player or a component (``holder_base``: where the
        components' start); tested by its exact type first, the usual case."""
        if type(value) is Player:
            return value.index + 1
        if type(value) is Component:
            return self.holder_base + value.id
        if isinstance(value, Player):
            return value.index + 1
        if isinstance(value, Component):
            return self.holder_base + value.id
        raise RuleError(f"tokens are held by players or components, not by a {kind_of(value)}")

    def suggest(self, name: str, candidates: Iterable[str] | None = None) -> str | None:
        """"did you mean 'x'?" for the closest candidate (by default every global name)."""
        pool = list(candidates) if candidates is not None else (
            list(self.constants) + list(self.global_vars) + list(BUILTINS) + ["players"])
        close = difflib.get_close_matches(name, pool, n=1, cutoff=0.7)
        return f"did you mean '{close[0]}'?" if close else None


def _board_error(error: boards.BoardError, board: str, source_span: Span) -> CompileError:
    """E401 for a board that cannot be built, pointing into its data file when it can."""
    if error.file and error.line:   # point into the data file, where the fix belongs
        column = error.column or 1
        where = Span(error.file, error.line, column, error.line, column + 1)
        return CompileError(error.message, where, "E401", hint=f"the data of board '{board}', loaded at {source_span}")
    return CompileError(str(error), source_span, "E401")
