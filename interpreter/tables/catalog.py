"""The catalog: everything static about one game (a ruleset and a player count).

Declarations become tables: players, enumerations, components with ids, zone slots,
variables, supplies, dice, boards, lowered procedures and the action-id encoding. The
state refers to this catalog for everything that never changes.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from rulelang import ast, boards
from rulelang.check.settings import Settings
from rulelang.check.tree import walk
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulesetError

from ..compiler.lower import CompileError, Compiler
from ..model.program import Code, Env, Expr
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
from .builtins import BUILTINS, LOAD_TIME, LoadTimeWork

if TYPE_CHECKING:
    from ..state.state import State

VISIBILITIES = {"all", "owner", "none", "count"}
MAX_COMPONENTS = 20_000  # more would make every state copy slow; no table game comes near
KNOWN_OPTIONS = 4096  # the most lists of options kept for ``known_ids``, per game (more would cost memory
# and the garbage collector's time in games whose options rarely come again)

D = TypeVar("D", bound=ast.Decl)
Reader = Callable[["State", Any], Value]
"""How an attribute reads on one kind of value: ``reader(state, owner)``; the owner's type
is checked before (the attribute tables are by type), so readers take it as it comes."""
Write = Callable[["State", Env, Value], None]
"""How an assignment writes: ``write(state, env, value)``."""


class PlayerRule(NamedTuple):
    """A rule computed per player, ``score p = ...`` or ``tiebreak p = ...``."""

    kind: str
    variable: str
    value: Expr
    span: Span


class Invariant(NamedTuple):
    """A declared invariant: its label and its compiled condition."""

    label: str
    condition: Expr
    span: Span


@dataclass
class InitialValues:
    """The compiled initial value of each variable, by owner (``me`` is the owner)."""

    global_values: dict[str, Expr] = field(default_factory=dict)
    player_values: dict[str, Expr] = field(default_factory=dict)
    space_values: dict[str, Expr] = field(default_factory=dict)
    component_values: dict[str, Expr] = field(default_factory=dict)




class Catalog:
    """Static tables of one game, built from a merged list of declarations.

    Problems are not raised: they are collected in ``problems`` (the lowering is skipped
    when the data tables have problems). ``lower=False`` builds the data tables only.
    """

    def __init__(self, declarations: Sequence[ast.Decl], num_players: int, base_dir: Path, settings: Settings,
                 *, lower: bool = True):
        self.decls = list(declarations)
        self.base_dir = base_dir
        self.problems: list[CompileError] = []
        # Seats: the players, then any dummy seats (played by the rules, never choosing).
        self.players = tuple(Player(i) for i in range(num_players + settings.dummies))
        self.real_players = self.players[:num_players]
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
        self.supply_decls: dict[str, ast.SupplyDecl] = {}
        self.supplies: dict[str, int] = {}   # the total of each supply
        self.dice: dict[str, tuple[Value, ...]] = {}
        self.boards: dict[str, boards.Board] = {}
        self.space_offset: dict[str, int] = {}
        self.spaces: list[boards.Space] = []
        self.components: list[Component] = []
        self.initial_zone: list[int] = []
        self.phases: dict[str, ast.PhaseDecl] = {}
        self.procedures: dict[str, ast.ProcedureDecl] = {}
        self.functions: dict[str, ast.FunctionDecl] = {}
        self.function_bodies: dict[str, Expr] = {}   # lowered on first use
        self.labels: list[str] = []
        self.label_index: dict[str, int] = {}
        # The action-id encoding: blocks of ids, in this order (see ``encode``).
        self.component_base = self.player_base = self.enum_base = self.label_base = 0
        self.constant_base = self.int_base = 0
        self.enum_index: dict[int, int] = {}
        self.code_of: dict[object, int] = {}
        # Lists of options offered before, with their action ids (``known_ids``).
        self.known_options: dict[tuple[Value, ...], tuple[int, ...]] = {}
        # The lowered program.
        self.code: dict[str, Code] = {}
        self.first_phase: str | None = None
        self.score: PlayerRule | None = None
        self.tiebreak: PlayerRule | None = None
        self.initial_values = InitialValues()
        self.invariants: list[Invariant] = []
        # The board constructors a `board` declaration may call, one method each.
        self.load_time_functions: dict[str, Callable[..., Value]] = {
            "square_grid": self._square_grid, "hex_grid": self._hex_grid, "load_board": self._load_board}
        assert set(self.load_time_functions) == LOAD_TIME
        self._current_board = ""
        self.compiler = Compiler(self)
        self._build_data()
        if lower and not self.problems:
            self._compile_code(settings)

    # ---- building ----
    def _build_data(self) -> None:
        self._collect_names()
        self._each(ast.EnumDecl, self._build_enum)
        self._each(ast.BoardDecl, self._build_board)
        self._each(ast.ZoneDecl, self._build_zone)
        self._each(ast.SupplyDecl, self._build_supply)
        self._each(ast.DieDecl, self._build_die)
        self._each(ast.DeckDecl, self._build_deck)
        self._collect_labels()
        self._build_encoding()

    def _decls(self, cls: type[D]) -> list[D]:
        return [d for d in self.decls if isinstance(d, cls)]

    def _each(self, cls: type[D], build: Callable[[D], None]) -> None:
        """``build`` each declaration of class ``cls``, recording the problems found."""
        for decl in self._decls(cls):
            self._recording_problems(build, decl)

    def _recording_problems(self, build: Callable[[D], None], decl: D) -> None:
        try:
            build(decl)
        except CompileError as error:
            self.problems.append(error)

    def _collect_names(self) -> None:
        for c in self._decls(ast.ComponentDecl):
            self.component_types[c.name] = c
        self._each(ast.VarDecl, self._collect_variable)
        for phase in self._decls(ast.PhaseDecl):
            self.phases[phase.name] = phase
        for procedure in self._decls(ast.ProcedureDecl):
            self.procedures[procedure.name] = procedure
        for function in self._decls(ast.FunctionDecl):
            self.functions[function.name] = function

    def _collect_variable(self, d: ast.VarDecl) -> None:
        self._check_visibility(d, d.visibility, {"all", "owner", "none"} if d.owner == "player" else {"all", "none"})
        tables = {None: self.global_vars, "player": self.player_vars, "space": self.space_vars,
                  "component": self.component_vars}
        tables[d.owner][d.name] = d

    @staticmethod
    def _check_visibility(decl: ast.Decl, visibility: str | None, allowed: set[str]) -> None:
        if visibility is not None and visibility not in allowed:
            raise CompileError(f"'{visibility}' is not a visibility here; use one of {', '.join(sorted(allowed))}",
                               decl.span, "E205")

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
            raise CompileError("this declaration needs a value", span, "E205")
        env = dict(env or {})
        self.compiler.scope = set(env)  # names bound while loading, like `me` in a per-player deck
        try:
            return self.compiler.expr(expr)(cast("State", LoadTimeWork()), env)
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
        self._check_visibility(d, d.visibility, VISIBILITIES)
        if d.owner not in (None, "player"):
            raise CompileError("zones are shared or per player", d.span, "E205")
        self.zones[d.name] = d
        self.zone_slot[d.name] = base = len(self.zone_refs)
        if d.owner == "player":
            self.zone_refs.extend(ZoneRef(d.name, p, base + p.index) for p in self.players)
        else:
            self.zone_refs.append(ZoneRef(d.name, None, base))
            self.constants[d.name] = self.zone_refs[-1]
        self.zone_seers.extend(full_viewers(d, ref.owner.index if ref.owner else None, len(self.real_players))
                               for ref in self.zone_refs[base:])

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
            raise CompileError(f"deck '{d.name}' starts in unknown zone '{d.zone}'", d.span, "E101",
                               hint=self.suggest(d.zone, self.zones))
        if (d.owner == "player") != (zone.owner == "player"):
            kind = "per-player" if d.owner else "shared"
            raise CompileError(f"a {kind} deck must start in a {kind} zone", d.span, "E205")
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
        made = []
        for spec in specs:
            if not isinstance(spec, ComponentSpec):
                raise CompileError(f"deck '{deck.name}' holds a {kind_of(spec)}, not a component", span, "E402")
            if deck.type is not None and spec.type != deck.type.name:
                raise CompileError(f"deck '{deck.name}' is of {deck.type.name} but holds a {spec.type}", span, "E402")
            component = Component(len(self.components), spec.type, dict(spec.fields), self._label(spec))
            self.components.append(component)
            self.initial_zone.append(slot)
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
        # finds them and nothing else (an int, a string or a true never matches).
        self.code_of = {v: i for i, v in enumerate(interned)}

    def known_ids(self, options: tuple[Value, ...]) -> tuple[int, ...] | None:
        """The action ids of ``options`` if this list of options was offered before (then
        it has no copies: see ``remember_ids``), else None: one lookup of the whole list."""
        try:
            return self.known_options.get(options)
        except TypeError:  # a value that cannot be hashed (a map)
            return None

    def remember_ids(self, options: tuple[Value, ...]) -> tuple[int, ...]:
        """``action_ids`` of ``options``, which has no two equal values; kept for
        ``known_ids`` when every option is an interned value (equal only to itself, so a
        list equal to this one holds the very same values), up to KNOWN_OPTIONS lists."""
        try:
            ids = tuple(map(self.code_of.__getitem__, options))
        except (KeyError, TypeError):   # a number, a string, a constant, an unhashable value
            return tuple(map(self.encode, options))
        if len(self.known_options) < KNOWN_OPTIONS:
            self.known_options[options] = ids
        return ids

    def action_ids(self, options: tuple[Value, ...]) -> tuple[int, ...]:
        """``encode`` of each option, in one lookup each when they are all interned values."""
        try:
            return tuple(map(self.code_of.__getitem__, options))
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

    # ---- lowering ----
    def _compile_code(self, settings: Settings) -> None:
        self._find_first_phase(settings)
        self.compiler.compile_never_pausing(self.procedures)
        for setup in self._decls(ast.SetupDecl):
            self.code["$setup"] = self._procedure("setup", (), setup.body, setup.span)
        for phase in self.phases.values():
            self.code[phase.name] = self._procedure(phase.name, (), phase.body, phase.span)
        for procedure in self.procedures.values():
            params = tuple(p.name for p in procedure.params)
            self.code[procedure.name] = self._procedure(procedure.name, params, procedure.body, procedure.span)
        self.score = self._player_rule(ast.ScoreDecl, "score")
        self.tiebreak = self._player_rule(ast.TiebreakDecl, "tiebreak")
        self._compile_initial_values()
        for d in self._decls(ast.InvariantDecl):
            condition = self._expression(d.condition, d.span, set())
            if condition is not None:
                self.invariants.append(Invariant(d.name, condition, d.span))
        self.problems.extend(self.compiler.errors)

    def _compile_initial_values(self) -> None:
        initial = self.initial_values
        owned: tuple[tuple[dict[str, ast.VarDecl], dict[str, Expr], set[str]], ...] = (
            (self.global_vars, initial.global_values, set()),
            (self.player_vars, initial.player_values, {"me"}),
            (self.space_vars, initial.space_values, {"me"}),
            (self.component_vars, initial.component_values, {"me"}))
        for variables, compiled, scope in owned:
            for name, var in variables.items():
                value = self._expression(var.initial, var.span, scope)
                if value is not None:
                    compiled[name] = value

    def _find_first_phase(self, settings: Settings) -> None:
        """The phase that starts the game: the 'start' setting, or the first declared."""
        self.first_phase = settings.start or next(iter(self.phases), None)
        if self.first_phase is not None and self.first_phase not in self.phases:
            self.problems.append(CompileError(f"the 'start' setting names no phase: '{self.first_phase}'",
                                              settings.span_of("start", "<rules>"), "E104",
                                              hint=self.suggest(self.first_phase, self.phases)))

    def _procedure(self, name: str, params: tuple[str, ...], body: ast.Block | None, span: Span) -> Code:
        return self.compiler.procedure(name, params, body or ast.Block(span, ()))

    def _expression(self, expr: ast.Expr | None, span: Span, scope: set[str]) -> Expr | None:
        """``expr`` compiled with the names of ``scope`` bound, or None (the problem recorded)."""
        self.compiler.scope = set(scope)
        try:
            if expr is None:
                raise CompileError("this declaration needs a value", span, "E205")
            return self.compiler.expr(expr)
        except CompileError as error:
            error.span = error.span or span
            self.problems.append(error)
            return None

    def compile_expression(self, expr: ast.Expr, scope: Iterable[str]) -> Expr:
        """``expr`` (checked with the ruleset) compiled with the local names of ``scope``
        bound, for a host that evaluates an expression of the rules; RulesetError if it
        cannot be compiled."""
        compiled = self._expression(expr, expr.span, set(scope))
        if compiled is None:
            raise RulesetError(diagnostics_of([self.problems.pop()]))
        return compiled

    def _player_rule(self, cls: type[ast.ScoreDecl] | type[ast.TiebreakDecl], kind: str) -> PlayerRule | None:
        found = self._decls(cls)
        if not found:
            return None
        decl = found[-1]
        value = self._expression(decl.value, decl.span, {decl.name})
        return None if value is None else PlayerRule(kind, decl.name, value, decl.span)

    def procedure_decl(self, name: str, span: Span) -> ast.ProcedureDecl:
        """The declaration of procedure ``name`` (E105 if there is none)."""
        if name not in self.procedures:
            raise CompileError(f"unknown procedure '{name}'", span, "E105", hint=self.suggest(name, self.procedures))
        return self.procedures[name]

    def procedure_called(self, node: ast.CallStmt | ast.CallLet) -> ast.ProcedureDecl:
        """The declaration of the procedure a call names (E105 if there is none), called with
        as many arguments as it takes (else E201)."""
        proc = self.procedure_decl(node.procedure, node.span)
        if len(proc.params) != len(node.args):
            raise CompileError(f"procedure '{proc.name}' takes {len(proc.params)} arguments, got {len(node.args)}",
                               node.span, "E201")
        return proc

    # ---- attributes ----
    def attribute_readers(self, name: str) -> dict[type, Reader]:
        """How ``x.name`` reads for each kind of ``x`` that has it (the compiler writes a
        ``VariableReader`` in place, and calls any other)."""
        table: dict[type, Reader] = {}
        player_reader = self._player_reader(name)
        if player_reader is not None:
            table[Player] = player_reader
        component_reader = self._component_reader(name)
        if component_reader is not None:
            table[Component] = component_reader
        space_reader = self._space_reader(name)
        if space_reader is not None:
            table[boards.Space] = space_reader
        return table

    def _player_reader(self, name: str) -> Reader | None:
        """How ``p.name`` reads on a player: a player variable, a player's zone, the tokens
        of a supply, or ``index`` (the seat, whatever else is so named)."""
        if name == "index":
            return lambda st, p: p.index
        if name in self.player_vars:
            return VariableReader("player_values", name, "index")
        if name in self.zones and self.zones[name].owner == "player":
            base, refs = self.zone_slot[name], self.zone_refs
            return lambda st, p: refs[base + p.index]
        if name in self.supplies:
            return lambda st, p: st.supply_counts[name][p.index + 1]
        return None

    def _component_reader(self, name: str) -> Reader | None:
        """How ``c.name`` reads on a component: a component variable, the tokens of a supply
        held on it, or one of its fields."""
        if name in self.component_vars:
            return VariableReader("component_values", name, "id")
        if name in self.supplies:
            base = self.holder_base
            return lambda st, c: st.supply_counts[name][base + c.id]
        if any(name in {f.name for f in c.fields} for c in self.component_types.values()):
            return _component_field(name)
        return None

    def _space_reader(self, name: str) -> Reader | None:
        """How ``s.name`` reads on a space: a space variable or an attribute from the board."""
        if name in self.space_vars and len(self.boards) == 1:
            return VariableReader("space_values", name, "index")
        if name in self.space_vars:
            offsets = self.space_offset

            return lambda st, s: st.space_values[name][offsets[s.board] + s.index]
        if any(name in s.attributes for s in self.spaces) or name in ("name", "index"):
            return _space_attribute(name)
        return None

    @property
    def holder_base(self) -> int:
        """Supply holders: 0 is the bank, 1.. the seats, then one per component."""
        return 1 + len(self.players)

    def holder_slot(self, value: Value) -> int:
        """The supply-holder index of a player or a component."""
        if isinstance(value, Player):
            return value.index + 1
        if isinstance(value, Component):
            return self.holder_base + value.id
        raise RuleError(f"tokens are held by players or components, not by a {kind_of(value)}")

    def owned_variable(self, name: str, span: Span) -> OwnedVariable:
        """The variable ``name`` of players, spaces or components, that ``x.name = ...``
        assigns (E203 if there is none)."""
        offsets = self.space_offset
        owned: tuple[tuple[str, dict[str, ast.VarDecl], Callable[[Value], int]], ...] = (
            ("player", self.player_vars, lambda v: _as_player(v, name).index),
            ("space", self.space_vars, lambda v: _space_index(v, name, offsets)),
            ("component", self.component_vars, lambda v: _as_component(v, name).id))
        for table, variables, index_of in owned:
            if name in variables:
                return OwnedVariable(table, name, index_of)
        hint = "supplies change only with 'gain' and 'pay'" if name in self.supplies else None
        raise CompileError(f"'{name}' is not a player, space or component variable that can be assigned", span,
                           "E203", hint=hint or self.suggest(name, self.attribute_names()))

    def attribute_setter(self, target: Expr, name: str, span: Span) -> tuple[Expr, Write]:
        """(read, write) closures for assigning ``target.name``."""
        variable = self.owned_variable(name, span)

        def read(st: State, env: Env) -> Value:
            return variable.read(st, target(st, env))

        def write(st: State, env: Env, value: Value) -> None:
            variable.write(st, target(st, env), value)
        return read, write

    def attribute_names(self) -> set[str]:
        """Every name that ``x.name`` can read on some value of this game."""
        names = set(self.player_vars) | set(self.space_vars) | set(self.component_vars) | set(self.supplies)
        names |= {n for n, z in self.zones.items() if z.owner == "player"}
        for c in self.component_types.values():
            names |= {f.name for f in c.fields}
        for s in self.spaces:
            names |= set(s.attributes)
        return names

    def suggest(self, name: str, candidates: Iterable[str] | None = None) -> str | None:
        """"did you mean 'x'?" for the closest candidate (by default every global name)."""
        pool = list(candidates) if candidates is not None else (
            list(self.constants) + list(self.global_vars) + list(BUILTINS) + ["players"])
        close = difflib.get_close_matches(name, pool, n=1, cutoff=0.7)
        return f"did you mean '{close[0]}'?" if close else None


def diagnostics_of(problems: Iterable[CompileError]) -> list[Diagnostic]:
    """The problems found while building a catalog, as diagnostics in source order."""
    found = sorted(problems, key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))
    return [Diagnostic(e.code, e.message, e.span, hint=e.hint) for e in found]


def data_diagnostics(declarations: Sequence[ast.Decl], settings: Settings, base_dir: Path) -> list[Diagnostic]:
    """The problems of a ruleset's data (boards and their files, zones, supplies, dice,
    decks: E401, E402, E205...), found by building its data tables for the lowest player
    count without lowering its procedures."""
    return diagnostics_of(Catalog(declarations, settings.players[0], base_dir, settings, lower=False).problems)


def _board_error(error: boards.BoardError, board: str, source_span: Span) -> CompileError:
    """E401 for a board that cannot be built, pointing into its data file when it can."""
    if error.file and error.line:   # point into the data file, where the fix belongs
        column = error.column or 1
        where = Span(error.file, error.line, column, error.line, column + 1)
        return CompileError(error.message, where, "E401", hint=f"the data of board '{board}', loaded at {source_span}")
    return CompileError(str(error), source_span, "E401")


class OwnedVariable:
    """Variable ``name`` of the players, spaces or components (``table``), read and written
    for an owner (its place in the table: ``index_of(owner)``, which checks its kind); a
    write is recorded as an event of ``table`` (see events.py)."""

    __slots__ = ("attribute", "index_of", "name", "table")

    def __init__(self, table: str, name: str, index_of: Callable[[Value], int]):
        self.table, self.name, self.index_of = table, name, index_of
        self.attribute = f"{table}_values"  # the state's table of them

    def __repr__(self) -> str:
        return f"<{self.table} variable {self.name}>"

    def read(self, st: State, owner: Value) -> Value:
        values: list[Value] = getattr(st, self.attribute)[self.name]
        return values[self.index_of(owner)]

    def write(self, st: State, owner: Value, value: Value) -> None:
        index = self.index_of(owner)
        values: list[Value] = getattr(st, self.attribute)[self.name]
        values[index] = value
        if st.event_log is not None:
            slot = st.component_zone[index] if self.table == "component" else -1
            st.event_log.append(("set", self.table, self.name, index, value, slot))


class VariableReader:
    """How ``x.name`` reads a variable of players, spaces or components: item ``x.<index>``
    of the state's table ``st.<table>[name]``. The compiler writes it in place."""

    __slots__ = ("index", "name", "table")

    def __init__(self, table: str, name: str, index: str):
        self.table, self.name, self.index = table, name, index

    def __call__(self, st: State, owner: Any) -> Value:
        values: list[Value] = getattr(st, self.table)[self.name]
        value: Value = values[getattr(owner, self.index)]
        return value


def _space_attribute(name: str) -> Reader:
    def read(st: State, space: boards.Space) -> Any:  # Any: board data, plain values checked by its schema
        if name == "name":
            return space.name
        if name == "index":
            return space.index
        return space.attributes.get(name)
    return read


def _component_field(name: str) -> Reader:
    def read(st: State, component: Component) -> Value:
        try:
            return component.fields[name]
        except KeyError:
            raise RuleError(f"a {component.type} has no field '{name}'") from None
    return read


def _as_player(value: Value, name: str) -> Player:
    if not isinstance(value, Player):
        raise RuleError(f"'{name}' belongs to players, not to a {kind_of(value)}")
    return value


def _as_component(value: Value, name: str) -> Component:
    if not isinstance(value, Component):
        raise RuleError(f"'{name}' belongs to components, not to a {kind_of(value)}")
    return value


def _space_index(value: Value, name: str, offsets: dict[str, int]) -> int:
    if not isinstance(value, boards.Space):
        raise RuleError(f"'{name}' belongs to spaces, not to a {kind_of(value)}")
    return offsets[value.board] + value.index
