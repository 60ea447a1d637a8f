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
Every problem is reported, not only the first.
"""
from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rulelang import ast, boards
from rulelang.check.settings import read_settings
from rulelang.check.signatures import AGGREGATE, BOARD, QUERY, SIGNATURES, Signature, names_with_role
from rulelang.diagnostics import Diagnostic, Span

ZONE_VISIBILITIES = frozenset({"all", "owner", "none", "count"})
PLAYER_VISIBILITIES = frozenset({"all", "owner", "none"})   # per-player variables, supplies
SHARED_VISIBILITIES = frozenset({"all", "none"})            # other variables
ALWAYS_ATTRIBUTES = frozenset({"index", "name"})             # of every space (and index of players)
QUERIES = sorted(names_with_role(QUERY))

# The order in which loading builds what a bare name may mean: the data of a board, a
# supply, a die or a deck sees only the names built before it.
LOAD_ORDER: tuple[type[ast.Decl], ...] = (ast.EnumDecl, ast.BoardDecl, ast.ZoneDecl, ast.SupplyDecl,
                                          ast.DieDecl, ast.DeckDecl)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """'did you mean 'x'?' for the candidate closest to ``name``, if one is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'?" if close else None


# ---------------------------------------------------------------- what is declared

@dataclass(frozen=True)
class Declared:
    """The names one ruleset declares, by what they name."""

    global_vars: frozenset[str]
    constants: frozenset[str]          # bare names: enums and their values, boards, shared zones, supplies...
    enums: Mapping[str, tuple[str, ...]]
    components: Mapping[str, frozenset[str]]   # component type -> its fields
    zones: Mapping[str, ast.ZoneDecl]
    supplies: frozenset[str]
    dice: frozenset[str]
    phases: frozenset[str]
    procedures: Mapping[str, int]      # procedure -> how many parameters it takes
    functions: Mapping[str, int]       # function -> how many parameters it takes
    owned_vars: frozenset[str]         # per-player, per-space and per-component variables
    attributes: frozenset[str]         # what a player, space or component may have, but index and name
    spaces_known: bool                 # whether every board's space attributes are known before running

    def known_attribute(self, name: str) -> bool:
        """Whether some player, space or component may have attribute ``name``."""
        return name in self.attributes or name in ALWAYS_ATTRIBUTES or not self.spaces_known


def declared(decls: Sequence[ast.Decl], space_attributes: frozenset[str] | None) -> Declared:
    """The names ``decls`` declare; ``space_attributes`` of the boards (None: not known)."""
    variables = [d for d in decls if isinstance(d, ast.VarDecl)]
    components = {d.name: frozenset(f.name for f in d.fields) for d in decls if isinstance(d, ast.ComponentDecl)}
    zones = {d.name: d for d in decls if isinstance(d, ast.ZoneDecl)}
    supplies = frozenset(d.name for d in decls if isinstance(d, ast.SupplyDecl))
    owned = frozenset(d.name for d in variables if d.owner is not None)
    per_player_zones = {name for name, d in zones.items() if d.owner == "player"}
    fields = {f for names in components.values() for f in names}
    return Declared(
        global_vars=frozenset(d.name for d in variables if d.owner is None),
        constants=frozenset(n for d in decls for n in constants_of(d)),
        enums={d.name: d.values for d in decls if isinstance(d, ast.EnumDecl)},
        components=components,
        zones=zones,
        supplies=supplies,
        dice=frozenset(d.name for d in decls if isinstance(d, ast.DieDecl)),
        phases=frozenset(d.name for d in decls if isinstance(d, ast.PhaseDecl)),
        procedures={d.name: len(d.params) for d in decls if isinstance(d, ast.ProcedureDecl)},
        functions={d.name: len(d.params) for d in decls if isinstance(d, ast.FunctionDecl)},
        owned_vars=owned,
        attributes=owned | supplies | per_player_zones | fields | (space_attributes or frozenset()),
        spaces_known=space_attributes is not None,
    )


def constants_of(decl: ast.Decl) -> tuple[str, ...]:
    """The bare names a declaration makes usable anywhere (variables aside)."""
    if isinstance(decl, ast.EnumDecl):
        return (decl.name, *decl.values)
    if isinstance(decl, ast.ZoneDecl):
        return (decl.name,) if decl.owner is None else ()
    if isinstance(decl, (ast.BoardDecl, ast.SupplyDecl, ast.DieDecl, ast.DeckDecl)):
        return (decl.name,)
    return ()


# ---------------------------------------------------------------- boards

_BoardRead = frozenset[str] | boards.BoardError


def board_attributes(decls: Sequence[ast.Decl], base_dir: Path) -> tuple[frozenset[str] | None, list[Diagnostic]]:
    """The attributes of every board's spaces (None when some board is only known by
    running) and an E401 for each board that cannot be built from its declaration."""
    found: set[str] = set()
    known = True
    problems: list[Diagnostic] = []
    for decl in decls:
        if not isinstance(decl, ast.BoardDecl) or decl.source is None:
            continue
        read = _board_source(decl, decl.source, base_dir)
        if isinstance(read, Diagnostic):
            problems.append(read)
        if isinstance(read, frozenset):
            found |= read
        else:
            known = False
    return (frozenset(found) if known else None), problems


def _board_source(decl: ast.BoardDecl, source: ast.Expr, base_dir: Path) -> frozenset[str] | Diagnostic | None:
    """The space attributes of board ``decl`` built by ``source``, its E401, or None when
    only running tells."""
    if not (isinstance(source, ast.Call) and source.function in names_with_role(BOARD)):
        return Diagnostic("E401", f"board '{decl.name}' must be built by square_grid(...) or load_board(...)",
                          source.span)
    if source.function == "square_grid":
        return frozenset()
    file = _literal_file(source)
    if source.function == "load_board" and file is None:
        return Diagnostic("E401", "load_board takes the name of a file in quotes", source.span)
    if source.function != "load_board" or file is None:
        return None
    read = _read_board_file(decl.name, str(base_dir / file), _stamp(base_dir / file))
    return _board_error(read, decl, source) if isinstance(read, boards.BoardError) else read


def _literal_file(call: ast.Call) -> str | None:
    arg = call.args[0] if len(call.args) == 1 else None
    return arg.value if isinstance(arg, ast.Literal) and isinstance(arg.value, str) else None


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells a changed file from the one read before: its modification time and size."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=32)
def _read_board_file(board: str, path: str, stamp: tuple[int, int] | None) -> _BoardRead:
    """The attributes of the spaces of a board file, or why it cannot be read (cached)."""
    try:
        loaded = boards.load_board_file(board, path)
    except boards.BoardError as error:
        return error
    return frozenset(name for space in loaded.spaces for name in space.attributes)


def _board_error(error: boards.BoardError, decl: ast.BoardDecl, source: ast.Expr) -> Diagnostic:
    """E401 in the data file, where the fix belongs, when the error says where."""
    if error.file and error.line and error.quotable:   # the file is a board document: show its line
        column = error.column or 1
        where = Span(error.file, error.line, column, error.line, column + 1)
        hint = f"the data of board '{decl.name}', loaded at {source.span}"
        return Diagnostic("E401", error.message, where, hint=hint)
    return Diagnostic("E401", str(error), source.span)


# ---------------------------------------------------------------- declarations

def declaration_problems(decls: Sequence[ast.Decl], names: Declared) -> Iterator[Diagnostic]:
    """E205 for a visibility or an owner a declaration cannot have; E101 and E205 for a deck
    whose zone does not exist or is not owned as the deck is."""
    for decl in decls:
        if isinstance(decl, ast.VarDecl):
            yield from _visibility(decl, decl.visibility,
                                   PLAYER_VISIBILITIES if decl.owner == "player" else SHARED_VISIBILITIES)
        elif isinstance(decl, ast.SupplyDecl):
            yield from _visibility(decl, decl.visibility, PLAYER_VISIBILITIES)
        elif isinstance(decl, ast.ZoneDecl):
            yield from _visibility(decl, decl.visibility, ZONE_VISIBILITIES)
            if decl.owner not in (None, "player"):
                yield Diagnostic("E205", "zones are shared or per player", decl.span)
        elif isinstance(decl, ast.DeckDecl):
            yield from _deck_zone(decl, names)


def _visibility(decl: ast.Decl, visibility: str | None, allowed: frozenset[str]) -> Iterator[Diagnostic]:
    if visibility is not None and visibility not in allowed:
        yield Diagnostic("E205", f"'{visibility}' is not a visibility here; use one of {', '.join(sorted(allowed))}",
                         decl.span)


def _deck_zone(deck: ast.DeckDecl, names: Declared) -> Iterator[Diagnostic]:
    zone = names.zones.get(deck.zone)
    if zone is None:
        yield Diagnostic("E101", f"deck '{deck.name}' starts in unknown zone '{deck.zone}'", deck.span,
                         hint=did_you_mean(deck.zone, names.zones))
    elif (deck.owner == "player") != (zone.owner == "player"):
        owned = "per-player" if deck.owner else "shared"
        yield Diagnostic("E205", f"a {owned} deck must start in a {owned} zone", deck.span)


# ---------------------------------------------------------------- walking the code

class _Check(NamedTuple):
    """Check expression ``expr``, where ``bound`` names are local to the expression."""
    expr: ast.Expr
    bound: frozenset[str] = frozenset()


class _Run(NamedTuple):
    """Check statement ``stmt``; ``in_loop`` when a loop of its procedure holds it."""
    stmt: ast.Stmt
    in_loop: bool


class _Bind(NamedTuple):
    """From here to the end of the procedure, ``name`` is a local."""
    name: str


_Task = _Check | _Run | _Bind


class Resolver:
    """Resolves the names of one piece of code (a procedure, a variable's initial value...)
    in the order the runtime reads it, with a stack of tasks rather than recursion."""

    def __init__(self, names: Declared, constants: frozenset[str], scope: Iterable[str] = ()):
        self.names = names
        self.constants = constants        # the bare names known here (fewer while loading)
        self.scope: set[str] = set(scope)
        self.found: list[Diagnostic] = []

    def run(self, tasks: Sequence[_Task]) -> list[Diagnostic]:
        """Every problem of ``tasks``, which run in order."""
        todo = list(reversed(tasks))
        while todo:
            todo.extend(reversed(self._step(todo.pop())))
        return self.found

    def _step(self, task: _Task) -> Sequence[_Task]:
        """Do one task; the tasks it leads to, in the order they run."""
        if isinstance(task, _Bind):
            self.scope.add(task.name)
            return ()
        if isinstance(task, _Check):
            check_expr: Callable[[Any, frozenset[str]], list[_Check]] = getattr(self, "_e_" + type(task.expr).__name__)
            return check_expr(task.expr, task.bound)
        check_stmt: Callable[[Any, bool], list[_Task]] = getattr(self, "_s_" + type(task.stmt).__name__)
        return check_stmt(task.stmt, task.in_loop)

    def _report(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.found.append(Diagnostic(code, message, span, hint=hint))

    def suggest(self, name: str) -> str | None:
        """The hint for a name that is not a variable or a function: the closest declared name."""
        return did_you_mean(name, [*self.constants, *self.names.global_vars, *QUERIES, "players"])

    # ------------------------------------------------------------ expressions

    def _e_Literal(self, e: ast.Literal, bound: frozenset[str]) -> list[_Check]:
        return []

    def _e_Name(self, e: ast.Name, bound: frozenset[str]) -> list[_Check]:
        if not self._is_local(e.name, bound) and not self._is_global(e.name):
            self._report("E101", f"unknown name '{e.name}'", e.span, hint=self._unknown_name_hint(e.name, bound))
        return []

    def _is_local(self, name: str, bound: frozenset[str]) -> bool:
        return name in bound or name in self.scope

    def _is_global(self, name: str) -> bool:
        return name in self.names.global_vars or name in ("players", "seats") or name in self.constants

    def _unknown_name_hint(self, name: str, bound: frozenset[str]) -> str | None:
        pool = [*self.constants, *self.names.global_vars, "players", "seats", *sorted(self.scope | bound)]
        hint = did_you_mean(name, pool)
        if hint is None and name in self.names.attributes:
            hint = f"'{name}' belongs to each player, space or component: write x.{name}"
        return hint

    def _e_Attribute(self, e: ast.Attribute, bound: frozenset[str]) -> list[_Check]:
        target = e.target
        if isinstance(target, ast.Name) and not self._is_local(target.name, bound) and target.name in self.names.enums:
            if e.name not in self.names.enums[target.name]:
                self._report("E103", f"enum '{target.name}' has no value '{e.name}'", e.span)
            return []
        if not self.names.known_attribute(e.name):
            self._report("E103", f"nothing has an attribute '{e.name}'", e.span,
                         hint=did_you_mean(e.name, self.names.attributes))
        return [_Check(target, bound)]

    def _e_Index(self, e: ast.Index, bound: frozenset[str]) -> list[_Check]:
        return [_Check(e.target, bound), _Check(e.index, bound)]

    def _e_ListExpr(self, e: ast.ListExpr, bound: frozenset[str]) -> list[_Check]:
        return [_Check(item, bound) for item in e.items]

    def _e_IfExpr(self, e: ast.IfExpr, bound: frozenset[str]) -> list[_Check]:
        return [_Check(e.condition, bound), _Check(e.then, bound), _Check(e.otherwise, bound)]

    def _e_UnaryOp(self, e: ast.UnaryOp, bound: frozenset[str]) -> list[_Check]:
        return [_Check(e.operand, bound)]

    def _e_BinaryOp(self, e: ast.BinaryOp, bound: frozenset[str]) -> list[_Check]:
        return [_Check(e.left, bound), _Check(e.right, bound)]

    def _e_Comprehension(self, e: ast.Comprehension, bound: frozenset[str]) -> list[_Check]:
        checks, inside = _clauses(e.clauses, bound)
        return [*checks, _Check(e.element, inside)]

    def _e_Generator(self, e: ast.Generator, bound: frozenset[str]) -> list[_Check]:
        self._report("E202", "a generator ('x for x in ...') is only allowed as a function argument", e.span)
        return _generator(e, bound)

    def _e_KeywordArg(self, e: ast.KeywordArg, bound: frozenset[str]) -> list[_Check]:
        self._report("E201", f"keyword argument '{e.name}:' is only allowed in a component constructor", e.span)
        return [_Check(e.value, bound)]

    def _e_Call(self, e: ast.Call, bound: frozenset[str]) -> list[_Check]:
        if e.function in self.names.components:
            return self._constructor(e, bound)
        if e.function in self.names.functions:
            return self._function_call(e, self.names.functions[e.function], bound)
        signature = SIGNATURES.get(e.function)
        if signature is None:
            callable_names = [*SIGNATURES, *self.names.functions, *self.names.components]
            hint = did_you_mean(e.function, callable_names) or self.suggest(e.function)
            if hint is None and e.function in self.names.procedures:
                hint = f"'{e.function}' is a procedure: write 'call {e.function}(...)' as a statement"
            self._report("E101", f"unknown function '{e.function}'", e.span, hint=hint)
            return [_Check(a, bound) for a in e.args]
        if signature.role == AGGREGATE:
            return self._aggregate(e, signature, bound)
        if signature.role == BOARD:
            return self._board_constructor(e, signature, bound)
        problem = signature.arity_problem(len(e.args))
        if problem:
            self._report("E201", problem, e.span)
        return [_Check(a, bound) for a in e.args]

    def _function_call(self, e: ast.Call, takes: int, bound: frozenset[str]) -> list[_Check]:
        for arg in e.args:
            if isinstance(arg, (ast.KeywordArg, ast.Generator)):
                self._report("E201", f"{e.function}() takes plain values as arguments", arg.span)
        if takes != len(e.args):
            self._report("E201", f"function '{e.function}' takes {takes} argument{'' if takes == 1 else 's'}, "
                                 f"got {len(e.args)}", e.span)
        return [_Check(a.value if isinstance(a, ast.KeywordArg) else a, bound) for a in e.args
                if not isinstance(a, ast.Generator)]

    def _constructor(self, e: ast.Call, bound: frozenset[str]) -> list[_Check]:
        fields = self.names.components[e.function]
        checks: list[_Check] = []
        wrong = False
        for arg in e.args:
            if not isinstance(arg, ast.KeywordArg):
                self._report("E201", f"{e.function}(...) takes named fields, like {e.function}(name: value)", arg.span)
                wrong = True
                checks.append(_Check(arg, bound))
                continue
            if arg.name not in fields:
                self._report("E103", f"component '{e.function}' has no field '{arg.name}'", arg.span,
                             hint=did_you_mean(arg.name, fields))
                wrong = True
            checks.append(_Check(arg.value, bound))
        missing = fields - {a.name for a in e.args if isinstance(a, ast.KeywordArg)}
        if missing and not wrong:
            self._report("E201", f"{e.function}(...) is missing {', '.join(sorted(missing))}", e.span)
        return checks

    def _aggregate(self, e: ast.Call, signature: Signature, bound: frozenset[str]) -> list[_Check]:
        generator = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], ast.Generator) else None
        if len(e.args) != 1 and signature.arity_problem(len(e.args)):
            self._report("E201", f"{e.function}() takes one list or generator", e.span)
        elif signature.needs_key and (generator is None or generator.key is None):
            self._report("E201", "best()/worst() need 'by KEY'", e.span)
        if generator is not None:
            return _generator(generator, bound)
        return [_Check(a, bound) for a in e.args]

    def _board_constructor(self, e: ast.Call, signature: Signature, bound: frozenset[str]) -> list[_Check]:
        positional = [a for a in e.args if not isinstance(a, ast.KeywordArg)]
        problem = signature.arity_problem(len(positional))
        if problem:
            self._report("E201", problem, e.span)
        checks = [_Check(a, bound) for a in positional]
        for arg in e.args:
            if isinstance(arg, ast.KeywordArg):
                if arg.name not in signature.keywords:
                    self._report("E201", f"{e.function}() has no argument '{arg.name}:'", arg.span)
                checks.append(_Check(arg.value, bound))
        return checks

    # ------------------------------------------------------------ statements

    def _s_Let(self, s: ast.Let, in_loop: bool) -> list[_Task]:
        return [_Check(s.value), _Bind(s.name)]

    def _s_Roll(self, s: ast.Roll, in_loop: bool) -> list[_Task]:
        if s.die not in self.names.dice:
            self._report("E101", f"unknown die '{s.die}'", s.span, hint=did_you_mean(s.die, self.names.dice))
        return [_Bind(s.name)]

    def _s_RandomPick(self, s: ast.RandomPick, in_loop: bool) -> list[_Task]:
        return [_Check(s.source), _Bind(s.name)]

    def _s_CallLet(self, s: ast.CallLet, in_loop: bool) -> list[_Task]:
        return [*self._call(s.procedure, s.args, s.span), _Bind(s.name)]

    def _s_CallStmt(self, s: ast.CallStmt, in_loop: bool) -> list[_Task]:
        return self._call(s.procedure, s.args, s.span)

    def _call(self, procedure: str, args: tuple[ast.Expr, ...], span: Span) -> list[_Task]:
        takes = self.names.procedures.get(procedure)
        if takes is None:
            hint = did_you_mean(procedure, self.names.procedures)
            if procedure in self.names.functions:
                hint = f"'{procedure}' is a function: use its value in an expression, like 'let x = {procedure}(...)'"
            self._report("E105", f"unknown procedure '{procedure}'", span, hint=hint)
        elif takes != len(args):
            self._report("E201", f"procedure '{procedure}' takes {takes} arguments, got {len(args)}", span)
        return [_Check(a) for a in args]

    def _s_Assign(self, s: ast.Assign, in_loop: bool) -> list[_Task]:
        target = s.target
        if isinstance(target, ast.Name):
            if target.name not in self.scope and target.name not in self.names.global_vars:
                self._report("E203", f"'{target.name}' is not a variable", target.span,
                             hint=self.suggest(target.name))
            return [_Check(s.value)]
        if isinstance(target, ast.Attribute):
            self._attribute_target(target)
            return [_Check(s.value), _Check(target.target)]
        if isinstance(target, ast.Index) and isinstance(target.target, (ast.Name, ast.Attribute, ast.Index)):
            # an item of a list: the list itself must be assignable
            return [*self._s_Assign(ast.Assign(target.span, target.target, "=", s.value), in_loop),
                    _Check(target.index)]
        self._report("E203", "only a variable, an attribute or an item of a list can be assigned", target.span)
        return [_Check(s.value), _Check(target)]

    def _attribute_target(self, target: ast.Attribute) -> None:
        name = target.name
        if name not in self.names.owned_vars:
            self._report("E203", f"'{name}' is not a player, space or component variable that can be assigned",
                         target.span, hint=self._unassignable_hint(name))

    def _unassignable_hint(self, name: str) -> str | None:
        if name in self.names.supplies:
            return "supplies change only with 'gain' and 'pay'"
        if name in self.names.attributes or name in ALWAYS_ATTRIBUTES:
            return "a zone changes with 'move'; a field or board data never changes: declare a 'var' to assign"
        return did_you_mean(name, self.names.attributes)

    def _s_If(self, s: ast.If, in_loop: bool) -> list[_Task]:
        tasks: list[_Task] = []
        for condition, body in s.branches:
            tasks += [_Check(condition), *_block(body, in_loop)]
        return tasks + _block(s.otherwise, in_loop)

    def _s_For(self, s: ast.For, in_loop: bool) -> list[_Task]:
        return [_Check(s.source), _Bind(s.var), *_block(s.body, True)]

    def _s_While(self, s: ast.While, in_loop: bool) -> list[_Task]:
        return [_Check(s.condition), *_block(s.body, True)]

    def _s_Repeat(self, s: ast.Repeat, in_loop: bool) -> list[_Task]:
        until: list[_Task] = [_Check(s.until)] if s.until is not None else []
        return [*_block(s.body, True), *until]

    def _s_Break(self, s: ast.Break, in_loop: bool) -> list[_Task]:
        if not in_loop:
            self._report("E204", "'break' outside a loop", s.span)
        return []

    def _s_Continue(self, s: ast.Continue, in_loop: bool) -> list[_Task]:
        if not in_loop:
            self._report("E204", "'continue' outside a loop", s.span)
        return []

    def _s_Choose(self, s: ast.Choose, in_loop: bool) -> list[_Task]:
        tasks: list[_Task] = [_Check(s.source)]
        if s.chooser is None:
            self._report("E204", "a choice needs 'by PLAYER' to say who chooses", s.span)
        else:
            tasks.append(_Check(s.chooser))
        return [*tasks, *_prompt(s.prompt), _Bind(s.var), *_block(s.otherwise, in_loop)]

    def _s_Menu(self, s: ast.Menu, in_loop: bool) -> list[_Task]:
        conditions = [_Check(o.condition) for o in s.options if o.condition is not None]
        bodies = [task for o in s.options for task in _block(o.body, in_loop)]
        return [_Check(s.chooser), *_prompt(s.prompt), *conditions, *bodies]

    def _s_Simultaneous(self, s: ast.Simultaneous, in_loop: bool) -> list[_Task]:
        # The player variable is bound only while each player's options are computed.
        return [_Check(s.players), _Check(s.source, frozenset({s.player_var})),
                *_prompt(s.prompt, frozenset({s.player_var})), _Bind(s.var)]

    def _s_Move(self, s: ast.Move, in_loop: bool) -> list[_Task]:
        return [_Check(s.what), _Check(s.to)]

    def _s_Shuffle(self, s: ast.Shuffle, in_loop: bool) -> list[_Task]:
        return [_Check(s.target)]

    def _s_Gain(self, s: ast.Gain, in_loop: bool) -> list[_Task]:
        self._supply(s.supply, s.span)
        return [_Check(s.amount), _Check(s.player)]

    def _s_Pay(self, s: ast.Pay, in_loop: bool) -> list[_Task]:
        self._supply(s.supply, s.span)
        payee: list[_Task] = [_Check(s.payee)] if s.payee is not None else []
        return [_Check(s.amount), _Check(s.payer), *payee]

    def _supply(self, name: str, span: Span) -> None:
        """A 'gain' or 'pay' names a supply, or a variable holding one."""
        if name not in self.names.supplies and name not in self.scope and name not in self.names.global_vars:
            self._report("E101", f"unknown supply '{name}'", span, hint=did_you_mean(name, self.names.supplies))

    def _s_Return(self, s: ast.Return, in_loop: bool) -> list[_Task]:
        return [_Check(s.value)] if s.value is not None else []

    def _s_Next(self, s: ast.Next, in_loop: bool) -> list[_Task]:
        if s.phase not in self.names.phases:
            self._report("E104", f"unknown phase '{s.phase}'", s.span, hint=did_you_mean(s.phase, self.names.phases))
        return []

    def _s_EndGame(self, s: ast.EndGame, in_loop: bool) -> list[_Task]:
        return []

    def _s_Log(self, s: ast.Log, in_loop: bool) -> list[_Task]:
        return [_Check(s.message), *([_Check(s.audience)] if s.audience is not None else [])]

    def _s_Reveal(self, s: ast.Reveal, in_loop: bool) -> list[_Task]:
        return [_Check(s.value), _Check(s.audience)]


def _prompt(prompt: ast.Prompt | None, bound: frozenset[str] = frozenset()) -> list[_Task]:
    return [] if prompt is None else [_Check(part, bound) for part in prompt.parts]


def _block(block: ast.Block | None, in_loop: bool) -> list[_Task]:
    return [] if block is None else [_Run(s, in_loop) for s in block.statements]


def _clauses(clauses: tuple[ast.CompClause, ...], bound: frozenset[str]) -> tuple[list[_Check], frozenset[str]]:
    """The checks of ``for x in source if condition`` clauses, and the names bound after them:
    each source sees the variables of the clauses before it, each condition its own too."""
    checks: list[_Check] = []
    for clause in clauses:
        checks.append(_Check(clause.source, bound))
        bound = bound | {clause.var}
        if clause.condition is not None:
            checks.append(_Check(clause.condition, bound))
    return checks, bound


def _generator(generator: ast.Generator, bound: frozenset[str]) -> list[_Check]:
    checks, inside = _clauses(generator.clauses, bound)
    key = [_Check(generator.key, inside)] if generator.key is not None else []
    return [*checks, _Check(generator.element, inside), *key]


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
            yield from Resolver(names, frozenset(built), scope).run([_Check(data)])
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


def _code(decls: Sequence[ast.Decl]) -> Iterator[tuple[set[str], list[_Task]]]:
    """(the names bound on entry, what to check) for each piece of code the runtime runs."""
    for decl in decls:
        if isinstance(decl, (ast.SetupDecl, ast.PhaseDecl)):
            yield set(), _block(decl.body, False)
        elif isinstance(decl, ast.ProcedureDecl):
            yield {p.name for p in decl.params}, _block(decl.body, False)
        elif isinstance(decl, ast.FunctionDecl) and decl.body is not None:
            yield {p.name for p in decl.params}, [_Check(decl.body)]
        elif isinstance(decl, ast.VarDecl) and decl.initial is not None:
            yield ({"me"} if decl.owner is not None else set()), [_Check(decl.initial)]
        elif isinstance(decl, ast.InvariantDecl) and decl.condition is not None:
            yield set(), [_Check(decl.condition)]
    scores = [d for d in decls if isinstance(d, ast.ScoreDecl)]
    tiebreaks = [d for d in decls if isinstance(d, ast.TiebreakDecl)]
    last_of_each: list[ast.ScoreDecl | ast.TiebreakDecl] = [*scores[-1:], *tiebreaks[-1:]]
    for last in last_of_each:   # the runtime uses only the last of each
        if last.value is not None:
            yield {last.name}, [_Check(last.value)]


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
