"""``sum(...)`` of proven integers that no sum of them can take out of the rules' range (each
at most a bound small enough for any number of them: compiler/integers.py ``sum_bounded``) is
Python's ``sum``, without ``runtime.total``'s checks; the same values, work and errors (the
step budget included) as the general path, and a sum that could overflow is still checked."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import aggregates

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "S" { players 2  max_steps STEPS }
supply coins total 50
component chip { n: int }
zone pile: chip visible all
deck chips: chip in pile = [chip(n: k) for k in 1..30]
var big: int = 500000000000000000 * 10
var out: list[int] = []
phase p {
  for c in chips { gain 1 coins to c }
  out = [sum(c.n for c in pile), sum(tokens(c, coins) + c.n for c in chips if c.n > 3),
         sum(k for k in 1..20), sum(c.coins for c in pile)]
  out = out + [sum(x for x in [big, big, 1])]
  end game
}
"""


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aggregates, "sum_bounded", lambda bound: False)


def _outcome(steps: int) -> tuple[object, ...]:
    try:
        state = rulelang.load(RULES.replace("STEPS", str(steps))).new_initial_state()
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line
    return state.to_json()["globals"]["out"], state.work


def test_bounded_sums_count_and_stop_as_the_general_path(monkeypatch):
    code = rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    assert code.count("sum([") == 4 and "_total(" in code   # (the last could overflow: checked)
    budgets = range(60, 400, 7)
    fast = [_outcome(steps) for steps in budgets]
    assert fast[-1][0] == "E602"   # (the sum that overflows)
    assert {outcome[0] for outcome in fast} >= {"E603", "E602"}
    _general(monkeypatch)
    assert "_total(" in rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    assert fast == [_outcome(steps) for steps in budgets]


def test_jamaica_sums_as_the_general_path(monkeypatch):
    path = GAMES / "jamaica.rules"
    played = [worked_states(rulelang.load(path, players=4), seed) for seed in range(2)]
    _general(monkeypatch)
    assert played == [worked_states(rulelang.load(path, players=4), seed) for seed in range(2)]
