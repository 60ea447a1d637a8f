"""The scopes of the runtime, walked as it reads the code: ``Resolver`` resolves the names
of one piece of code (a procedure, a variable's initial value, the data of a declaration)
in order, with the locals known at each point, and reports E101, E103, E105, E201-E204
for what it finds; the tasks it runs say what to check and what a statement binds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from rulelang import ast
from rulelang.check.declared import ALWAYS_ATTRIBUTES, QUERIES, Declared, did_you_mean
from rulelang.check.option_labels import option_label_parts
from rulelang.check.signatures import AGGREGATE, BOARD, SIGNATURES, Signature
from rulelang.diagnostics import Diagnostic, Span


class ExprTask(NamedTuple):
    """Check expression ``expr``, where ``bound`` names are local to the expression."""
    expr: ast.Expr
    bound: frozenset[str] = frozenset()


class StmtTask(NamedTuple):
    """Check statement ``stmt``; ``in_loop`` when a loop of its procedure holds it."""
    stmt: ast.Stmt
    in_loop: bool


class BindTask(NamedTuple):
    """From here to the end of the procedure, ``name`` is a local."""
    name: str


Task = ExprTask | StmtTask | BindTask


class Resolver:
    """Resolves the names of one piece of code (a procedure, a variable's initial value...)
    in the order the runtime reads it, with a stack of tasks rather than recursion."""

    def __init__(self, names: Declared, constants: frozenset[str], scope: Iterable[str] = ()):
        self.names = names
        self.constants = constants        # the bare names known here (fewer while loading)
        self.scope: set[str] = set(scope)
        self.found: list[Diagnostic] = []

    def run(self, tasks: Sequence[Task]) -> list[Diagnostic]:
        """Every problem of ``tasks``, which run in order."""
        todo = list(reversed(tasks))
        while todo:
            todo.extend(reversed(self._step(todo.pop())))
        return self.found

    def _step(self, task: Task) -> Sequence[Task]:
        """Do one task; the tasks it leads to, in the order they run."""
        if isinstance(task, BindTask):
            self.scope.add(task.name)
            return ()
        if isinstance(task, ExprTask):
            check_expr: Callable[[Any, frozenset[str]], list[ExprTask]] = getattr(
                self, "_e_" + type(task.expr).__name__)
            return check_expr(task.expr, task.bound)
        check_stmt: Callable[[Any, bool], list[Task]] = getattr(self, "_s_" + type(task.stmt).__name__)
        return check_stmt(task.stmt, task.in_loop)

    def _report(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.found.append(Diagnostic(code, message, span, hint=hint))

    def suggest(self, name: str) -> str | None:
        """The hint for a name that is not a variable or a function: the closest declared name."""
        return did_you_mean(name, [*self.constants, *self.names.global_vars, *QUERIES, "players"])

    # ------------------------------------------------------------ expressions

    def _e_Literal(self, e: ast.Literal, bound: frozenset[str]) -> list[ExprTask]:
        return []

    def _e_Name(self, e: ast.Name, bound: frozenset[str]) -> list[ExprTask]:
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

    def _e_Attribute(self, e: ast.Attribute, bound: frozenset[str]) -> list[ExprTask]:
        target = e.target
        if isinstance(target, ast.Name) and not self._is_local(target.name, bound) and target.name in self.names.enums:
            if e.name not in self.names.enums[target.name]:
                self._report("E103", f"enum '{target.name}' has no value '{e.name}'", e.span)
            return []
        if not self.names.known_attribute(e.name):
            self._report("E103", f"nothing has an attribute '{e.name}'", e.span,
                         hint=did_you_mean(e.name, self.names.attributes))
        return [ExprTask(target, bound)]

    def _e_Index(self, e: ast.Index, bound: frozenset[str]) -> list[ExprTask]:
        return [ExprTask(e.target, bound), ExprTask(e.index, bound)]

    def _e_ListExpr(self, e: ast.ListExpr, bound: frozenset[str]) -> list[ExprTask]:
        return [ExprTask(item, bound) for item in e.items]

    def _e_IfExpr(self, e: ast.IfExpr, bound: frozenset[str]) -> list[ExprTask]:
        return [ExprTask(e.condition, bound), ExprTask(e.then, bound), ExprTask(e.otherwise, bound)]

    def _e_UnaryOp(self, e: ast.UnaryOp, bound: frozenset[str]) -> list[ExprTask]:
        return [ExprTask(e.operand, bound)]

    def _e_BinaryOp(self, e: ast.BinaryOp, bound: frozenset[str]) -> list[ExprTask]:
        return [ExprTask(e.left, bound), ExprTask(e.right, bound)]

    def _e_Comprehension(self, e: ast.Comprehension, bound: frozenset[str]) -> list[ExprTask]:
        checks, inside = _clauses(e.clauses, bound)
        return [*checks, ExprTask(e.element, inside)]

    def _e_Generator(self, e: ast.Generator, bound: frozenset[str]) -> list[ExprTask]:
        self._report("E202", "a generator ('x for x in ...') is only allowed as a function argument", e.span)
        return _generator(e, bound)

    def _e_KeywordArg(self, e: ast.KeywordArg, bound: frozenset[str]) -> list[ExprTask]:
        self._report("E201", f"keyword argument '{e.name}:' is only allowed in a component constructor", e.span)
        return [ExprTask(e.value, bound)]

    def _e_Call(self, e: ast.Call, bound: frozenset[str]) -> list[ExprTask]:
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
            return [ExprTask(a, bound) for a in e.args]
        if signature.role == AGGREGATE:
            return self._aggregate(e, signature, bound)
        if signature.role == BOARD:
            return self._board_constructor(e, signature, bound)
        problem = signature.arity_problem(len(e.args))
        if problem:
            self._report("E201", problem, e.span)
        return [ExprTask(a, bound) for a in e.args]

    def _function_call(self, e: ast.Call, takes: int, bound: frozenset[str]) -> list[ExprTask]:
        for arg in e.args:
            if isinstance(arg, (ast.KeywordArg, ast.Generator)):
                self._report("E201", f"{e.function}() takes plain values as arguments", arg.span)
        if takes != len(e.args):
            self._report("E201", f"function '{e.function}' takes {takes} argument{'' if takes == 1 else 's'}, "
                                 f"got {len(e.args)}", e.span)
        return [ExprTask(a.value if isinstance(a, ast.KeywordArg) else a, bound) for a in e.args
                if not isinstance(a, ast.Generator)]

    def _constructor(self, e: ast.Call, bound: frozenset[str]) -> list[ExprTask]:
        fields = self.names.components[e.function]
        checks: list[ExprTask] = []
        wrong = False
        for arg in e.args:
            if not isinstance(arg, ast.KeywordArg):
                self._report("E201", f"{e.function}(...) takes named fields, like {e.function}(name: value)", arg.span)
                wrong = True
                checks.append(ExprTask(arg, bound))
                continue
            if arg.name not in fields:
                self._report("E103", f"component '{e.function}' has no field '{arg.name}'", arg.span,
                             hint=did_you_mean(arg.name, fields))
                wrong = True
            checks.append(ExprTask(arg.value, bound))
        missing = fields - {a.name for a in e.args if isinstance(a, ast.KeywordArg)}
        if missing and not wrong:
            self._report("E201", f"{e.function}(...) is missing {', '.join(sorted(missing))}", e.span)
        return checks

    def _aggregate(self, e: ast.Call, signature: Signature, bound: frozenset[str]) -> list[ExprTask]:
        generator = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], ast.Generator) else None
        if len(e.args) != 1 and signature.arity_problem(len(e.args)):
            self._report("E201", f"{e.function}() takes one list or generator", e.span)
        elif signature.needs_key and (generator is None or generator.key is None):
            self._report("E201", "best()/worst() need 'by KEY'", e.span)
        if generator is not None:
            return _generator(generator, bound)
        return [ExprTask(a, bound) for a in e.args]

    def _board_constructor(self, e: ast.Call, signature: Signature, bound: frozenset[str]) -> list[ExprTask]:
        positional = [a for a in e.args if not isinstance(a, ast.KeywordArg)]
        problem = signature.arity_problem(len(positional))
        if problem:
            self._report("E201", problem, e.span)
        checks = [ExprTask(a, bound) for a in positional]
        for arg in e.args:
            if isinstance(arg, ast.KeywordArg):
                if arg.name not in signature.keywords:
                    self._report("E201", f"{e.function}() has no argument '{arg.name}:'", arg.span)
                checks.append(ExprTask(arg.value, bound))
        return checks

    # ------------------------------------------------------------ statements

    def _s_Let(self, s: ast.Let, in_loop: bool) -> list[Task]:
        return [ExprTask(s.value), BindTask(s.name)]

    def _s_Roll(self, s: ast.Roll, in_loop: bool) -> list[Task]:
        if s.die not in self.names.dice:
            self._report("E101", f"unknown die '{s.die}'", s.span, hint=did_you_mean(s.die, self.names.dice))
        return [BindTask(s.name)]

    def _s_RandomPick(self, s: ast.RandomPick, in_loop: bool) -> list[Task]:
        return [ExprTask(s.source), BindTask(s.name)]

    def _s_CallLet(self, s: ast.CallLet, in_loop: bool) -> list[Task]:
        return [*self._call(s.procedure, s.args, s.span), BindTask(s.name)]

    def _s_CallStmt(self, s: ast.CallStmt, in_loop: bool) -> list[Task]:
        return self._call(s.procedure, s.args, s.span)

    def _call(self, procedure: str, args: tuple[ast.Expr, ...], span: Span) -> list[Task]:
        takes = self.names.procedures.get(procedure)
        if takes is None:
            hint = did_you_mean(procedure, self.names.procedures)
            if procedure in self.names.functions:
                hint = f"'{procedure}' is a function: use its value in an expression, like 'let x = {procedure}(...)'"
            self._report("E105", f"unknown procedure '{procedure}'", span, hint=hint)
        elif takes != len(args):
            self._report("E201", f"procedure '{procedure}' takes {takes} arguments, got {len(args)}", span)
        return [ExprTask(a) for a in args]

    def _s_Assign(self, s: ast.Assign, in_loop: bool) -> list[Task]:
        target = s.target
        if isinstance(target, ast.Name):
            if target.name not in self.scope and target.name not in self.names.global_vars:
                self._report("E203", f"'{target.name}' is not a variable", target.span,
                             hint=self.suggest(target.name))
            return [ExprTask(s.value)]
        if isinstance(target, ast.Attribute):
            self._attribute_target(target)
            return [ExprTask(s.value), ExprTask(target.target)]
        if isinstance(target, ast.Index) and isinstance(target.target, (ast.Name, ast.Attribute, ast.Index)):
            # an item of a list: the list itself must be assignable
            return [*self._s_Assign(ast.Assign(target.span, target.target, "=", s.value), in_loop),
                    ExprTask(target.index)]
        self._report("E203", "only a variable, an attribute or an item of a list can be assigned", target.span)
        return [ExprTask(s.value), ExprTask(target)]

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

    def _s_If(self, s: ast.If, in_loop: bool) -> list[Task]:
        tasks: list[Task] = []
        for condition, body in s.branches:
            tasks += [ExprTask(condition), *block_tasks(body, in_loop)]
        return tasks + block_tasks(s.otherwise, in_loop)

    def _s_For(self, s: ast.For, in_loop: bool) -> list[Task]:
        return [ExprTask(s.source), BindTask(s.var), *block_tasks(s.body, True)]

    def _s_While(self, s: ast.While, in_loop: bool) -> list[Task]:
        return [ExprTask(s.condition), *block_tasks(s.body, True)]

    def _s_Repeat(self, s: ast.Repeat, in_loop: bool) -> list[Task]:
        until: list[Task] = [ExprTask(s.until)] if s.until is not None else []
        return [*block_tasks(s.body, True), *until]

    def _s_Break(self, s: ast.Break, in_loop: bool) -> list[Task]:
        if not in_loop:
            self._report("E204", "'break' outside a loop", s.span)
        return []

    def _s_Continue(self, s: ast.Continue, in_loop: bool) -> list[Task]:
        if not in_loop:
            self._report("E204", "'continue' outside a loop", s.span)
        return []

    def _s_Choose(self, s: ast.Choose, in_loop: bool) -> list[Task]:
        tasks: list[Task] = [ExprTask(s.source)]
        if s.chooser is None:
            self._report("E204", "a choice needs 'by PLAYER' to say who chooses", s.span)
        else:
            tasks.append(ExprTask(s.chooser))
        label = [ExprTask(part) for part in option_label_parts(s)]   # (other names: option_labels.py)
        return [*tasks, *_prompt(s.prompt), BindTask(s.var), *label, *block_tasks(s.otherwise, in_loop)]

    def _s_Menu(self, s: ast.Menu, in_loop: bool) -> list[Task]:
        conditions = [ExprTask(o.condition) for o in s.options if o.condition is not None]
        bodies = [task for o in s.options for task in block_tasks(o.body, in_loop)]
        return [ExprTask(s.chooser), *_prompt(s.prompt), *conditions, *bodies]

    def _s_Simultaneous(self, s: ast.Simultaneous, in_loop: bool) -> list[Task]:
        # The player variable is bound only while each player's options are computed.
        return [ExprTask(s.players), ExprTask(s.source, frozenset({s.player_var})),
                *_prompt(s.prompt, frozenset({s.player_var})), BindTask(s.var)]

    def _s_Move(self, s: ast.Move, in_loop: bool) -> list[Task]:
        return [ExprTask(s.what), ExprTask(s.to)]

    def _s_Shuffle(self, s: ast.Shuffle, in_loop: bool) -> list[Task]:
        return [ExprTask(s.target)]

    def _s_Gain(self, s: ast.Gain, in_loop: bool) -> list[Task]:
        self._supply(s.supply, s.span)
        return [ExprTask(s.amount), ExprTask(s.player)]

    def _s_Pay(self, s: ast.Pay, in_loop: bool) -> list[Task]:
        self._supply(s.supply, s.span)
        payee: list[Task] = [ExprTask(s.payee)] if s.payee is not None else []
        return [ExprTask(s.amount), ExprTask(s.payer), *payee]

    def _supply(self, name: str, span: Span) -> None:
        """A 'gain' or 'pay' names a supply, or a variable holding one."""
        if name not in self.names.supplies and name not in self.scope and name not in self.names.global_vars:
            self._report("E101", f"unknown supply '{name}'", span, hint=did_you_mean(name, self.names.supplies))

    def _s_Return(self, s: ast.Return, in_loop: bool) -> list[Task]:
        return [ExprTask(s.value)] if s.value is not None else []

    def _s_Next(self, s: ast.Next, in_loop: bool) -> list[Task]:
        if s.phase not in self.names.phases:
            self._report("E104", f"unknown phase '{s.phase}'", s.span, hint=did_you_mean(s.phase, self.names.phases))
        return []

    def _s_EndGame(self, s: ast.EndGame, in_loop: bool) -> list[Task]:
        return []

    def _s_Log(self, s: ast.Log, in_loop: bool) -> list[Task]:
        return [ExprTask(s.message), *([ExprTask(s.audience)] if s.audience is not None else [])]

    def _s_Narrate(self, s: ast.Narrate, in_loop: bool) -> list[Task]:
        return []

    def _s_Turn(self, s: ast.Turn, in_loop: bool) -> list[Task]:
        return [ExprTask(s.player)]

    def _s_Reveal(self, s: ast.Reveal, in_loop: bool) -> list[Task]:
        return [ExprTask(s.value), ExprTask(s.audience)]


def _prompt(prompt: ast.Prompt | None, bound: frozenset[str] = frozenset()) -> list[Task]:
    return [] if prompt is None else [ExprTask(part, bound) for part in prompt.parts]


def block_tasks(block: ast.Block | None, in_loop: bool) -> list[Task]:
    return [] if block is None else [StmtTask(s, in_loop) for s in block.statements]


def _clauses(clauses: tuple[ast.CompClause, ...], bound: frozenset[str]) -> tuple[list[ExprTask], frozenset[str]]:
    """The checks of ``for x in source if condition`` clauses, and the names bound after them:
    each source sees the variables of the clauses before it, each condition its own too."""
    checks: list[ExprTask] = []
    for clause in clauses:
        checks.append(ExprTask(clause.source, bound))
        bound = bound | {clause.var}
        if clause.condition is not None:
            checks.append(ExprTask(clause.condition, bound))
    return checks, bound


def _generator(generator: ast.Generator, bound: frozenset[str]) -> list[ExprTask]:
    checks, inside = _clauses(generator.clauses, bound)
    key = [ExprTask(generator.key, inside)] if generator.key is not None else []
    return [*checks, ExprTask(generator.element, inside), *key]
