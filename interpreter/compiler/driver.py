"""The compiler's driver: a game's catalog -> its ``Program``, and the evaluation of the
declarations while the catalog is built.

``compile_program`` lowers the setup, the phases and the procedures, and compiles the
rules per player (score, tiebreak), the variables' initial values and the invariants, with
one ``Compiler`` whose generated code the program keeps. A ``LoadTimeEvaluator`` is the
``Evaluate`` a catalog is built with: an expression of a declaration compiled and run
against no state. ``data_diagnostics`` builds a ruleset's tables only, for the linter.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from rulelang import ast
from rulelang.check.settings import Settings
from rulelang.diagnostics import Diagnostic, Span

from ..model.problems import diagnostics_of, unchecked
from ..model.program import Code, Env, Expr, InitialValues, Invariant, PlayerRule, Program
from ..model.values import Value
from ..tables.builtins import LoadTimeWork
from ..tables.catalog import Catalog
from ..tables.declared import Declared, checked_write, variable_promise
from .code_cache import CodeCache
from .lower import Compiler
from .player_rules import of_players
from .zone_flow import copies_apart

if TYPE_CHECKING:
    from ..state.state import State


def compile_program(catalog: Catalog) -> Program:
    """The program of ``catalog``'s rules (a checked ruleset, whose catalog was built without
    problems)."""
    return _ProgramCompiler(catalog).program()


class LoadTimeEvaluator:
    """The ``Evaluate`` of one catalog while it is built: the value of an expression of a
    declaration, with the names of ``env`` bound (like ``me`` in a per-player deck), compiled
    by a compiler of its own (its code is not the game's), made at the first declaration and
    kept for the others, so that a ruleset function several declarations call is compiled
    once; run against a stand-in for a state, which bounds its work and has no game data."""

    def __init__(self) -> None:
        self.compiler: Compiler | None = None

    def __call__(self, catalog: Catalog, expr: ast.Expr, env: Env) -> Value:
        if self.compiler is None:
            self.compiler = Compiler(catalog)
        self.compiler.scope = set(env)
        return self.compiler.expr(expr)(cast("State", LoadTimeWork()), env)


def data_diagnostics(declarations: Sequence[ast.Decl], settings: Settings, base_dir: Path) -> list[Diagnostic]:
    """The problems of a ruleset's data (boards and their files, zones, supplies, dice,
    decks: E401, E402, E205...), found by building its data tables for the lowest player
    count without compiling its rules."""
    catalog = Catalog(declarations, settings.players[0], base_dir, settings, LoadTimeEvaluator())
    return diagnostics_of(catalog.problems)


class _ProgramCompiler:
    """Compiles the rules of one catalog (checked by the front end: the compiler meets no
    problem of the rules but as a bug, InternalError)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.compiler = Compiler(catalog)

    def program(self) -> Program:
        """The program, once every part is compiled."""
        compiler = self.compiler
        compiler.module.codes = codes = _code_cache(self.catalog)
        compiler.compile_never_pausing(self.catalog.procedures)
        code = self._code()
        score = self._player_rule(ast.ScoreDecl, "score")
        tiebreak = self._player_rule(ast.TiebreakDecl, "tiebreak")
        initial, invariants = self._initial_values(), self._invariants()
        if codes is not None:
            codes.keep()
        compiler.module.codes = None   # (expressions compiled later, as a game runs, are compiled as before)
        return Program(code, score, tiebreak, initial, invariants, compiler.module,
                       compiler.never_pausing, self.compile_expression, copies_apart(self.catalog)[0])

    def _code(self) -> dict[str, Code]:
        """The lowered code of the setup (``$setup``), each phase and each procedure."""
        catalog, code = self.catalog, {}
        for setup in catalog.declared(ast.SetupDecl):
            code["$setup"] = self._procedure("setup", (), setup.body, setup.span)
        for phase in catalog.phases.values():
            code[phase.name] = self._procedure(phase.name, (), phase.body, phase.span)
        for procedure in catalog.procedures.values():
            params = tuple(p.name for p in procedure.params)
            code[procedure.name] = self._procedure(procedure.name, params, procedure.body, procedure.span)
        return code

    def _procedure(self, name: str, params: tuple[str, ...], body: ast.Block | None, span: Span) -> Code:
        return self.compiler.procedure(name, params, body or ast.Block(span, ()))

    def _initial_values(self) -> InitialValues:
        """The compiled initial value of every variable, by owner."""
        catalog, initial = self.catalog, InitialValues()
        owned: tuple[tuple[dict[str, ast.VarDecl], dict[str, Expr], set[str]], ...] = (
            (catalog.global_vars, initial.global_values, set()),
            (catalog.player_vars, initial.player_values, {"me"}),
            (catalog.space_vars, initial.space_values, {"me"}),
            (catalog.component_vars, initial.component_values, {"me"}))
        for variables, compiled, scope in owned:
            for name, var in variables.items():   # of the variable's type (declared.py)
                compiled[name] = _checked(self._expression(var.initial, var.span, scope),
                                          variable_promise(catalog, var), name)
        return initial

    def _invariants(self) -> tuple[Invariant, ...]:
        return tuple(Invariant(d.name, self._expression(d.condition, d.span, set()), d.span)
                     for d in self.catalog.declared(ast.InvariantDecl))

    def _player_rule(self, cls: type[ast.ScoreDecl] | type[ast.TiebreakDecl], kind: str) -> PlayerRule | None:
        found = self.catalog.declared(cls)
        if not found:
            return None
        decl = found[-1]
        return PlayerRule(kind, decl.name, self._expression(decl.value, decl.span, {decl.name}), decl.span,
                          of_players(self.compiler.writer, decl, kind))

    def _expression(self, expr: ast.Expr | None, span: Span, scope: Iterable[str]) -> Expr:
        """``expr``, the value of a declaration at ``span``, compiled with the names of
        ``scope`` bound."""
        if expr is None:
            raise unchecked("this declaration needs a value", span)
        self.compiler.scope = set(scope)
        return self.compiler.expr(expr)

    def compile_expression(self, expr: ast.Expr, scope: Iterable[str]) -> Expr:
        """``expr`` (checked with the ruleset) compiled with the local names of ``scope``
        bound, for a host that evaluates an expression of the rules."""
        return self._expression(expr, expr.span, scope)


def _code_cache(catalog: Catalog) -> CodeCache | None:
    """Where the code objects of the game of ``catalog`` are kept across runs (code_cache.py),
    named by its folder, its files and its player counts; None for rules without a file
    (``<text>``: a file of code for each would churn the cache folder)."""
    files = tuple(dict.fromkeys(d.span.file for d in catalog.decls))
    if not files or any(file.startswith("<") for file in files):
        return None
    return CodeCache(repr((os.path.abspath(catalog.base_dir), files, len(catalog.real_players), len(catalog.players))))


def _checked(value: Expr, promise: Declared | None, name: str) -> Expr:
    """``value``, the initial value of variable ``name``, checked against its type."""
    if promise is None:
        return value

    def initial(st: State, env: Env) -> Value:
        return checked_write(value(st, env), promise, name)
    return initial
