"""The catalog: everything static about one game (a ruleset and a player count).

Declarations become tables: players, enumerations, components with ids, zone slots,
variables, supplies, dice, boards, lowered procedures and the action-id encoding. The
state refers to this catalog for everything that never changes.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from rulelang import ast, boards
from rulelang.diagnostics import Span

from .builtins import BUILTINS, LOAD_TIME
from .lower import CompileError, Compiler
from .values import Component, ComponentSpec, EnumType, EnumValue, Player, Ref, RuleError, ZoneRef, display, kind_of

VISIBILITIES = {"all", "owner", "none", "count"}
MAX_COMPONENTS = 20_000  # more would make every state copy slow; no table game comes near


class Catalog:
    """Static tables of one game, built from a merged list of declarations."""

    def __init__(self, declarations, num_players: int, base_dir: Path, dummies: int = 0):
        self.decls = list(declarations)
        self.base_dir = base_dir
        # Seats: the players, then any dummy seats (played by the rules, never choosing).
        self.players = tuple(Player(i) for i in range(num_players + dummies))
        self.real_players = self.players[:num_players]
        self.constants: dict = {}
        self.enums: dict[str, EnumType] = {}
        self.component_types: dict[str, ast.ComponentDecl] = {}
        self.global_vars, self.player_vars, self.space_vars, self.component_vars = {}, {}, {}, {}
        self.zones: dict[str, ast.ZoneDecl] = {}
        self.zone_slot: dict[str, int] = {}
        self.zone_refs: list[ZoneRef] = []
        self.supplies: dict[str, int] = {}
        self.dice: dict[str, tuple] = {}
        self.boards: dict[str, boards.Board] = {}
        self.space_offset: dict[str, int] = {}
        self.spaces: list = []
        self.components: list[Component] = []
        self.initial_zone: list[int] = []
        self.phases: dict[str, ast.PhaseDecl] = {}
        self.procedures: dict[str, ast.ProcedureDecl] = {}
        self.labels: list[str] = []
        self.code: dict = {}
        # The board constructors a `board` declaration may call, one method each.
        self.load_time_functions = {name: getattr(self, "_" + name) for name in LOAD_TIME}
        self.compiler = Compiler(self)
        self._build()

    # ---- building ----
    def _build(self):
        self._collect_names()
        self._build_enums()
        self._build_boards()
        self._build_zones()
        self._build_supplies_and_dice()
        self._build_decks()
        self._collect_labels()
        self._build_encoding()
        self._compile_code()
        errors = self.compiler.errors
        if errors:
            errors.sort(key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))
            first = errors[0]
            first.all = list(errors)
            raise first

    def _decls(self, cls):
        return [d for d in self.decls if isinstance(d, cls)]

    def _collect_names(self):
        for d in self._decls(ast.ComponentDecl):
            self.component_types[d.name] = d
        for d in self._decls(ast.VarDecl):
            self._check_visibility(d, {"all", "owner", "none"} if d.owner == "player" else {"all", "none"})
            table = {None: self.global_vars, "player": self.player_vars, "space": self.space_vars,
                     "component": self.component_vars}[d.owner]
            table[d.name] = d
        for d in self._decls(ast.PhaseDecl):
            self.phases[d.name] = d
        for d in self._decls(ast.ProcedureDecl):
            self.procedures[d.name] = d

    def _check_visibility(self, decl, allowed):
        if decl.visibility is not None and decl.visibility not in allowed:
            raise CompileError(f"'{decl.visibility}' is not a visibility here; use one of {', '.join(sorted(allowed))}",
                               decl.span, "E205")

    def _build_enums(self):
        for d in self._decls(ast.EnumDecl):
            values = tuple(EnumValue(d.name, v, i) for i, v in enumerate(d.values))
            self.enums[d.name] = EnumType(d.name, values)
            self.constants[d.name] = self.enums[d.name]
            for v in values:
                self.constants.setdefault(v.name, v)

    def _evaluate(self, expr, env=None):
        env = dict(env or {})
        self.compiler.scope = set(env)  # names bound while loading, like `me` in a per-player deck
        try:
            return self.compiler.expr(expr)(None, env)
        except RuleError as error:
            raise CompileError(error.message, expr.span, "E402") from None
        except (TypeError, AttributeError) as error:
            raise CompileError(f"cannot evaluate this while loading: {error}", expr.span, "E402") from None

    def _build_boards(self):
        for d in self._decls(ast.BoardDecl):
            self._current_board = d.name
            try:
                board = self._evaluate(d.source)
            except boards.BoardError as error:
                if error.file and error.line:   # point into the data file, where the fix belongs
                    column = error.column or 1
                    where = Span(error.file, error.line, column, error.line, column + 1)
                    raise CompileError(error.message, where, "E401",
                                       hint=f"the data of board '{d.name}', loaded at {d.source.span}") from None
                raise CompileError(str(error), d.source.span, "E401") from None
            if not isinstance(board, boards.Board):
                raise CompileError(f"board '{d.name}' must be built by square_grid(...) or load_board(...)",
                                   d.source.span, "E401")
            self.boards[d.name] = board
            self.space_offset[d.name] = len(self.spaces)
            self.spaces.extend(board.spaces)
            self.constants[d.name] = Ref("board", d.name, board)

    def _square_grid(self, width, height, diagonal=False):
        return boards.square_grid(self._current_board, width, height, diagonal=diagonal)

    def _hex_grid(self, *args, **kwargs):
        raise RuleError("hex boards are loaded from data files: use load_board(\"file.yaml\")")

    def _load_board(self, path):
        return boards.load_board_file(self._current_board, self.base_dir / path)

    def _build_zones(self):
        for d in self._decls(ast.ZoneDecl):
            self._check_visibility(d, VISIBILITIES)
            self.zones[d.name] = d
            self.zone_slot[d.name] = len(self.zone_refs)
            if d.owner == "player":
                base = len(self.zone_refs)  # fixed before extending: one slot per player
                self.zone_refs.extend([ZoneRef(d.name, p, base + p.index) for p in self.players])
            elif d.owner is None:
                self.zone_refs.append(ZoneRef(d.name, None, len(self.zone_refs)))
                self.constants[d.name] = self.zone_refs[-1]
            else:
                raise CompileError("zones are shared or per player", d.span, "E205")

    def _build_supplies_and_dice(self):
        for d in self._decls(ast.SupplyDecl):
            self._check_visibility(d, {"all", "owner", "none"})
            total = self._evaluate(d.total)
            if not isinstance(total, int) or total < 0:
                raise CompileError("a supply's total must be a whole number", d.total.span, "E205")
            self.supplies[d.name] = total
            self.constants[d.name] = Ref("supply", d.name)
        for d in self._decls(ast.DieDecl):
            faces = self._evaluate(d.faces)
            if not isinstance(faces, tuple) or not faces:
                raise CompileError("a die needs a non-empty list of faces", d.faces.span, "E205")
            self.dice[d.name] = faces
            self.constants[d.name] = Ref("die", d.name, faces)

    def _build_decks(self):
        for d in self._decls(ast.DeckDecl):
            zone = self.zones.get(d.zone)
            if zone is None:
                raise CompileError(f"deck '{d.name}' starts in unknown zone '{d.zone}'", d.span, "E101",
                                   hint=self.suggest(d.zone, self.zones))
            if (d.owner == "player") != (zone.owner == "player"):
                raise CompileError(f"a {'per-player' if d.owner else 'shared'} deck must start in a "
                                   f"{'per-player' if d.owner else 'shared'} zone", d.span, "E205")
            owners = self.players if d.owner == "player" else (None,)
            made = []
            for owner in owners:
                env = {"me": owner} if owner is not None else {}
                specs = self._evaluate(d.contents, env)
                slot = self.zone_slot[d.zone] + (owner.index if owner is not None else 0)
                made.extend(self._instantiate(d, specs, slot))
            self.constants[d.name] = tuple(made)

    def _instantiate(self, deck, specs, slot):
        if not isinstance(specs, tuple):
            raise CompileError(f"deck '{deck.name}' must be a list of components", deck.contents.span, "E402")
        if deck.size is not None and len(specs) != deck.size:
            per = " per player" if deck.owner == "player" else ""
            raise CompileError(f"deck '{deck.name}' declares size {deck.size}{per} but its list makes {len(specs)}",
                               deck.contents.span, "E402", hint="fix the list or the declared size")
        if len(self.components) + len(specs) > MAX_COMPONENTS:
            raise CompileError(f"the decks hold more than {MAX_COMPONENTS} components", deck.contents.span, "E402")
        made = []
        for spec in specs:
            if not isinstance(spec, ComponentSpec):
                raise CompileError(f"deck '{deck.name}' holds a {kind_of(spec)}, not a component",
                                   deck.contents.span, "E402")
            if deck.type is not None and spec.type != deck.type.name:
                raise CompileError(f"deck '{deck.name}' is of {deck.type.name} but holds a {spec.type}",
                                   deck.contents.span, "E402")
            component = Component(len(self.components), spec.type, dict(spec.fields),
                                  self._label(spec))
            self.components.append(component)
            self.initial_zone.append(slot)
            made.append(component)
        return made

    def _label(self, spec) -> str:
        decl = self.component_types[spec.type]
        if decl.shown_as:
            text = decl.shown_as
            for key, value in spec.fields.items():
                text = text.replace("{" + key + "}", display(value))
            return text
        return " ".join(display(v) for v in spec.fields.values())

    def _collect_labels(self):
        seen = []
        for d in self.decls:
            for node in _walk(d):
                if isinstance(node, ast.Option) and node.label not in seen:
                    seen.append(node.label)
        # Then every string written in the ruleset, so that a choice or a chance event over
        # strings ("random ["heads", "tails"]") has stable ids too. Menu labels keep theirs.
        for d in self.decls:
            for node in _walk(d):
                if isinstance(node, ast.Literal) and isinstance(node.value, str) and node.value not in seen:
                    seen.append(node.value)
        self.labels = seen
        self.label_index = {label: i for i, label in enumerate(seen)}

    def label_id(self, label: str) -> int:
        return self.label_base + self.labels.index(label)

    def _build_encoding(self):
        self.component_base = len(self.spaces)
        self.player_base = self.component_base + len(self.components)
        enum_values = [v for e in self.enums.values() for v in e.values]
        self.enum_base = self.player_base + len(self.players)
        self.enum_values = enum_values
        self.enum_index = {id(v): i for i, v in enumerate(enum_values)}
        self.label_base = self.enum_base + len(enum_values)
        self.constant_base = self.label_base + len(self.labels)   # false, true, none
        self.int_base = self.constant_base + 3
        interned = list(self.spaces) + list(self.components) + list(self.players) + enum_values
        self.code_by_identity = {id(v): i for i, v in enumerate(interned)}

    def encode(self, value) -> int:
        """The stable action id of a value that a player can choose."""
        code = self.code_by_identity.get(id(value))
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

    def _compile_code(self):
        for d in self._decls(ast.SetupDecl):
            self.code["$setup"] = self.compiler.procedure("setup", (), d.body)
        for d in self.phases.values():
            self.code[d.name] = self.compiler.procedure(d.name, (), d.body, is_phase=True)
        for d in self.procedures.values():
            self.code[d.name] = self.compiler.procedure(d.name, tuple(p.name for p in d.params), d.body)
        self.scores = self._player_functions(ast.ScoreDecl)
        self.tiebreaks = self._player_functions(ast.TiebreakDecl)
        self.initial_values = {"global": {}, "player": {}, "space": {}, "component": {}}
        for owner, table in ((None, self.global_vars), ("player", self.player_vars), ("space", self.space_vars),
                             ("component", self.component_vars)):
            for name, decl in table.items():
                self.compiler.scope = set() if owner is None else {"me"}
                try:
                    self.initial_values[owner or "global"][name] = self.compiler.expr(decl.initial)
                except CompileError as error:
                    self.compiler.errors.append(error)
        self.invariants = []
        for d in self._decls(ast.InvariantDecl):
            self.compiler.scope = set()
            try:
                self.invariants.append((d.name, self.compiler.expr(d.condition)))
            except CompileError as error:
                self.compiler.errors.append(error)

    def _player_functions(self, cls):
        found = self._decls(cls)
        if not found:
            return None
        decl = found[-1]
        self.compiler.scope = {decl.name}
        try:
            return decl.name, self.compiler.expr(decl.value)
        except CompileError as error:
            self.compiler.errors.append(error)
            return None

    def procedure_decl(self, name, span):
        if name not in self.procedures:
            raise CompileError(f"unknown procedure '{name}'", span, "E105", hint=self.suggest(name, self.procedures))
        return self.procedures[name]

    # ---- attributes ----
    def attribute_getter(self, target, name, span, local=None):
        """A closure reading ``target.name`` for whatever kind of value target is
        (``local`` names the local variable that target reads, for a faster path)."""
        table = self._attribute_table(name)
        if not table:
            raise CompileError(f"nothing has an attribute '{name}'", span, "E103",
                               hint=self.suggest(name, self.attribute_names()))
        if local is not None and len(table) == 1:
            ((kind, reader),) = table.items()

            def get_local(st, env):
                try:
                    obj = env[local]
                except KeyError:
                    obj = target(st, env)  # reports the missing value
                if type(obj) is not kind:
                    raise RuleError(f"a {kind_of(obj)} has no attribute '{name}'")
                return reader(st, obj)
            return get_local

        def get(st, env):
            obj = target(st, env)
            reader = table.get(type(obj))
            if reader is None:
                raise RuleError(f"a {kind_of(obj)} has no attribute '{name}'")
            return reader(st, obj)
        return get

    def _attribute_table(self, name):
        table = {}
        if name in self.player_vars:
            table[Player] = lambda st, p: st.pv[name][p.index]
        elif name in self.zones and self.zones[name].owner == "player":
            base = self.zone_slot[name]
            refs = self.zone_refs
            table[Player] = lambda st, p: refs[base + p.index]
        elif name in self.supplies:
            table[Player] = lambda st, p: st.sup[name][p.index + 1]
        component_reader = self._component_reader(name)
        if component_reader is not None:
            table[Component] = component_reader
        if name in self.space_vars and len(self.boards) == 1:
            table[boards.Space] = lambda st, s: st.sv[name][s.index]
        elif name in self.space_vars:
            offsets = self.space_offset
            table[boards.Space] = lambda st, s: st.sv[name][offsets[s.board] + s.index]
        elif any(name in s.attributes for s in self.spaces) or name in ("name", "index"):
            table[boards.Space] = _space_attribute(name)
        if name == "index":
            table[Player] = lambda st, p: p.index
        return table

    def _component_reader(self, name):
        """How ``c.name`` reads on a component: a component variable, the tokens of a supply
        held on it, or one of its fields."""
        if name in self.component_vars:
            return lambda st, c: st.cv[name][c.id]
        if name in self.supplies:
            base = self.holder_base
            return lambda st, c: st.sup[name][base + c.id]
        if any(name in {f.name for f in c.fields} for c in self.component_types.values()):
            return _component_field(name)
        return None

    @property
    def holder_base(self) -> int:
        """Supply holders: 0 is the bank, 1.. the seats, then one per component."""
        return 1 + len(self.players)

    def holder_slot(self, value) -> int:
        """The supply-holder index of a player or a component."""
        if isinstance(value, Player):
            return value.index + 1
        if isinstance(value, Component):
            return self.holder_base + value.id
        raise RuleError(f"tokens are held by players or components, not by a {kind_of(value)}")

    def attribute_setter(self, target, name, span):
        """(read, write) closures for assigning ``target.name``."""
        offsets = self.space_offset
        owned = ((self.player_vars, "pv", lambda v: _as_player(v, name).index),
                 (self.space_vars, "sv", lambda v: offsets[_as_space(v, name).board] + v.index),
                 (self.component_vars, "cv", lambda v: _as_component(v, name).id))
        for table, store, index_of in owned:
            if name in table:
                return _owned_access(target, name, store, index_of)
        hint = "supplies change only with 'gain' and 'pay'" if name in self.supplies else None
        raise CompileError(f"'{name}' is not a player, space or component variable that can be assigned", span,
                           "E203",
                           hint=hint or self.suggest(name, self.attribute_names()))

    def attribute_names(self):
        names = set(self.player_vars) | set(self.space_vars) | set(self.component_vars) | set(self.supplies)
        names |= {n for n, z in self.zones.items() if z.owner == "player"}
        for c in self.component_types.values():
            names |= {f.name for f in c.fields}
        for s in self.spaces:
            names |= set(s.attributes)
        return names

    def suggest(self, name, candidates=None):
        pool = list(candidates) if candidates is not None else (
            list(self.constants) + list(self.global_vars) + list(BUILTINS) + ["players"])
        close = difflib.get_close_matches(name, pool, n=1, cutoff=0.7)
        return f"did you mean '{close[0]}'?" if close else None


def _owned_access(target, name, store, index_of):
    """(read, write) of variable ``name`` of the owner that ``target`` evaluates to, kept
    in the state's table ``store`` (pv, sv or cv) at ``index_of(owner)``."""
    def read(st, env):
        return getattr(st, store)[name][index_of(target(st, env))]

    def write(st, env, value):
        getattr(st, store)[name][index_of(target(st, env))] = value
    return read, write


def _space_attribute(name):
    def read(st, s):
        if name == "name":
            return s.name
        if name == "index":
            return s.index
        return s.attributes.get(name)
    return read


def _component_field(name):
    def read(st, c):
        try:
            return c.fields[name]
        except KeyError:
            raise RuleError(f"a {c.type} has no field '{name}'") from None
    return read


def _as_player(value, name):
    if not isinstance(value, Player):
        raise RuleError(f"'{name}' belongs to players, not to a {kind_of(value)}")
    return value


def _as_component(value, name):
    if not isinstance(value, Component):
        raise RuleError(f"'{name}' belongs to components, not to a {kind_of(value)}")
    return value


def _as_space(value, name):
    if not isinstance(value, boards.Space):
        raise RuleError(f"'{name}' belongs to spaces, not to a {kind_of(value)}")
    return value


def _walk(node):
    """Every AST node below ``node`` (dataclass fields, tuples)."""
    stack = [node]
    while stack:  # depth first in source order: children are pushed in reverse
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        if not hasattr(n, "__dataclass_fields__"):
            continue
        yield n
        for f in reversed(n.__dataclass_fields__):
            if f in ("span", "name_span"):
                continue
            stack.append(getattr(n, f))
