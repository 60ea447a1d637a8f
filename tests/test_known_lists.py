"""Lists the compiler knows at load time (compiler/known.py): a board query of constant
arguments is a constant of the generated code, and any(), all() and first() over one (or a
constant of the game, a deck) charge its work, and that of its items of one length, in
place. The games play, count their work and stop at the step budget with the same error at
the same span as with every such list computed where it runs."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import budgeted, worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import codegen, searches

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "W" { players 1  max_steps STEPS }
board grid = square_grid(5, 5)
space var mark: int = 0
component chip { n: int }
zone pile: chip visible all
deck chips: chip in pile = [chip(n: k) for k in 1..20]
var out: int = 0
phase p {
  for s in spaces(grid) { s.mark = 1 }
  out = if any(all(s.mark == 2 for s in line) for line in lines(grid, 5)) then 1 else 0
  out += if all(any(s.mark == 1 for s in line) for line in lines(grid, 4)) then 10 else 0
  out += size([c for c in chips if c.n > 3]) + size([s for s in spaces(grid) if s.mark == 1])
  out += if first(c.n for c in chips if c.n > 15) == 16 then 100 else 0
  out += if any(c.n > 19 for c in chips) then 1000 else 0
  out += if any(s.mark == 2 for s in spaces(grid)) then 0 else 10000
  out += if all(any(s.mark == 1 for s in spaces(grid)) for c in chips) then 20000 else 0
  out += if all(all(s.mark == line[0].mark for s in line) for line in lines(grid, 5)) then 40000 else 0
  out += if first(s for s in spaces(grid) if s.mark == 1) == spaces(grid)[0] then 80000 else 0
  end game
}
"""


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """No list known at load time: every one computed, and charged, where it runs."""
    monkeypatch.setattr(codegen, "known_query", lambda cat, name, constants: None)
    monkeypatch.setattr(searches, "known_list", lambda writer, node, scope: None)



def test_tic_tac_toe_plays_and_counts_work_as_with_lists_computed_where_they_run(monkeypatch):
    path = GAMES / "tic_tac_toe.rules"
    fast = rulelang.load(path)
    assert "<lines(...), computed at load>" in fast.generated_code()
    played = [worked_states(fast, seed) for seed in range(20)]
    _general(monkeypatch)
    slow = rulelang.load(path)
    assert "computed at load" not in slow.generated_code()
    assert played == [worked_states(slow, seed) for seed in range(20)]


def _outcome(steps: int, at=None) -> tuple[object, ...]:
    """The end of RULES at budget ``steps`` (its value and work), or its error; ``at``, the
    ruleset loaded once (conftest.budgeted), or the text loaded with that budget."""
    try:
        game = rulelang.load(RULES.replace("STEPS", str(steps))) if at is None else at(steps)
        state = game.new_initial_state()
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column
    return state.to_json()["globals"]["out"], state.work


def _outcomes(budgets: range) -> list[tuple[object, ...]]:
    at = budgeted(RULES)
    found = [_outcome(steps, at) for steps in budgets]
    assert [found[0], found[-1]] == [_outcome(budgets[0]), _outcome(budgets[-1])]   # (as the texts loaded)
    return found


def test_the_step_budget_stops_inside_a_search_as_before(monkeypatch):
    at = budgeted(RULES)
    least = next(steps for steps in range(1, 2000) if type(_outcome(steps, at)[0]) is int)
    budgets = range(20, least + 2)   # (from before the first search to its end)
    fast = _outcomes(budgets)
    _general(monkeypatch)
    assert fast == _outcomes(budgets)
    assert fast[-1][0] == 10 + 17 + 25 + 100 + 1000 + 10000 + 20000 + 40000 + 80000
    lines = {outcome[2] for outcome in fast if outcome[0] == "E603"}
    assert {10, 11, 13, 14, 15, 16, 17, 18} <= lines   # (stopped inside each search)
