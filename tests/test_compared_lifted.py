"""A statement's value that compares an aggregate of a comprehension with a constant
(``let cancelled = count(p for p in players if ...) >= 2``) has its comprehension lifted into
the lines before it (compiler/comprehensions.py, ``_computed_first``) as a bare aggregate's
is: over the players, written out player by player. The same states, work and errors as the
comprehension left in the expression, at every step budget."""
from __future__ import annotations

import re

from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import comprehensions

RULES = """\
game "C" { players 3  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
player zone hand: card visible owner
zone used: card visible all
deck cards: card in pile = [card(rank: 1 + k % 5) for k in 1..30]
player var score: int = 0
var out: list[bool] = []

procedure turn(p: player) {
  move top(pile) to p.hand
  let many = count(q for q in players if TEST) >= 2
  let none = sum([q.score for q in players if q != p]) == 0
  out = out + [many, none]
  choose c in p.hand by p prompt "{p}: the card to score"
  p.score += c.rank
  move c to used
}

phase play {
  while size(pile) > 20 {
    for p in players {
      call turn(p)
    }
  }
  end game
}
"""


def _rules(steps: int = 100_000, test: str = "size(q.hand) > 1") -> str:
    return RULES.replace("STEPS", str(steps)).replace("TEST", test)


def test_a_comparison_of_an_aggregate_with_a_constant_is_lifted(monkeypatch):
    listing = rulelang.load(_rules()).generated_code()
    assert re.search(r"= \(_count\(_a\d+\) >= _k\d+\)", listing)   # (the count of the list made before)
    assert re.search(r"= \(_total\(.*\(_a\d+\)+ == _k\d+\)", listing)   # (the sum's)
    fast = runs_alike_without(monkeypatch, comprehensions, "_COMPARED", re.compile(r"(?!)"),
                              RULES.replace("TEST", "size(q.hand) > 1"), range(1, 120),
                              _rules(test="q.hand[1].rank > 2"))   # (a test that fails for a player)
    assert not re.search(r"_a\d+\)+ [>=]= _k\d+\)", rulelang.load(_rules()).generated_code())
    lines = _rules().splitlines()
    listed = {n for n, line in enumerate(lines, start=1) if "for q in players" in line}
    assert listed & {outcome[2] for outcome in fast[1] if outcome[0] == "E603"}   # (stopped in one)
    assert fast[2][0] == "E602" and fast[2][2] in listed   # (a player's missing item, at its statement)
