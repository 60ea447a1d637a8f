"""A statement's value that counts the items of a zone passing a test (``let n = count(c for
c in p.hand if ...)``) counted in a local as the loop finds them (compiler/tallied.py), not
listed then counted: against the general path (the list and ``runtime.count``), the same
states, work, errors and spans, at every step budget."""
from __future__ import annotations

import re

import pytest
from conftest import worked_states

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import comprehensions

RULES = """\
game "T" { players 2  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
player zone hand: card visible owner
deck cards: card in pile = [card(rank: k) for k in 1..12]
var out: list[int] = []

procedure turn(p: player) {
  move top(pile) to p.hand
  let high = count(c for c in p.hand if c.rank > 4)
  out = out + [high]
  choose c in p.hand by p prompt "{p}: a card to give back"
  let low = count(c for c in p.hand if DIVIDED < 3)
  move c to pile
  out = out + [low, count(c for c in pile if c.rank > 2)]
}

phase play {
  shuffle pile
  for p in players {
    call turn(p)
  }
  if size(out) > 24 {
    end game
  }
  next play
}
"""


def _game(steps: int = 100_000, divided: str = "c.rank / 2") -> rulelang.Game:
    return rulelang.load(RULES.replace("STEPS", str(steps)).replace("DIVIDED", divided))


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every such count listed, then counted by ``runtime.count``."""
    monkeypatch.setattr(comprehensions, "tallied", lambda *args: None)


def _outcome(game: rulelang.Game, seed: int) -> tuple[object, ...]:
    """A random game's states and work, or its error's code, text and place."""
    try:
        return tuple(map(str, worked_states(game, seed)))
    except RulesRuntimeError as error:
        d = error.diagnostic
        return d.code, d.message, d.span.line, d.span.column


def test_the_counts_are_counted_in_place():
    listing = _game().generated_code()
    assert len(re.findall(r"\b(_n\d+) \+= 1\n", listing)) >= 2
    assert not re.search(r"_count\(_a\d+\)", listing)


def test_random_games_leave_the_same_states_and_work_as_the_general_path(monkeypatch):
    fast = [_outcome(_game(), seed) for seed in range(8)]
    assert all(len(outcome) > 4 for outcome in fast)   # (played to the end)
    _general(monkeypatch)
    assert fast == [_outcome(_game(), seed) for seed in range(8)]


def test_an_error_in_the_test_is_the_same_at_the_same_span(monkeypatch):
    divided = "10 / (c.rank - 6)"   # (fails where the hand holds the 6)
    fast = [_outcome(_game(divided=divided), seed) for seed in range(8)]
    assert any(outcome[0] == "E602" or "zero" in str(outcome[1]) for outcome in fast)
    _general(monkeypatch)
    assert fast == [_outcome(_game(divided=divided), seed) for seed in range(8)]


def test_the_step_budget_stops_at_the_same_statement_as_the_general_path(monkeypatch):
    budgets = range(1, 120)
    fast = [_outcome(_game(steps), 3)[-4:] for steps in budgets]
    _general(monkeypatch)
    assert fast == [_outcome(_game(steps), 3)[-4:] for steps in budgets]
    stops = {outcome[2] for outcome in fast if outcome[0] == "E603"}
    assert len(stops) > 2
