"""A rule computed per player (``score p = ...``, ``tiebreak p = ...``) as one generated function
of the state and the players it is asked for: a loop whose player is a Python local, known a
player (its attributes read without a test of its kind), the state's tables read once before
it. Each player's value is computed as ``State._numbers`` computes it one by one, with the work
counted from 0: the loop stops after a value that is not a number (an int or a bool), which
the caller reports as before (E602), so the players after it are not computed, as they were
not; an error of the rules raised while computing one is the caller's to locate at the rule.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.problems import unchecked
from ..model.program import PlayerValues
from ..model.values import Player
from ..tables.declared import Declared
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter


def of_players(writer: ExpressionWriter, decl: ast.ScoreDecl | ast.TiebreakDecl, kind: str) -> PlayerValues:
    """The function ``f(st, players) -> list`` of the value of ``decl`` for each of ``players``
    (the last one not a number if it stopped there)."""
    if decl.value is None:
        raise unchecked("this declaration needs a value", decl.span)
    module = writer.module
    player = module.fresh("_v")
    scope = Scope(set(), str, {decl.name: player}, "0", env="None")
    scope.tables, scope.learnt = {}, True
    scope.learn(player, Declared(Player))
    text = writer.write(decl.value, scope)
    name = module.fresh("_n")
    lines = [f"def {name}(st, _players):  # {kind} at line {decl.span.line}, column {decl.span.column}, "
             "of each player", *scope.table_reads("    "), "    _values = []", f"    for {player} in _players:",
             "        st.work = 0", f"        _x = {text}", "        _values.append(_x)",
             "        if type(_x) is not int and type(_x) is not bool:", "            break",
             "    return _values"]
    compiled: PlayerValues = module.define(name, "\n".join(lines) + "\n")
    return compiled

