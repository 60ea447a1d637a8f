"""A list of counts by key, ``[count(c for c in ZONE if TEST and c.f == k) for k in lo..hi]``,
counted in one pass over the zone (compiler/counted_by_key.py) gives the same states, work
and errors as a pass per key, at every step budget; where the field is not an integer in
every component, or the zone or the test reads the key, it is left as it is."""
from __future__ import annotations

import re

import pytest
from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import comprehensions

RULES = """\
game "R" { players 2  max_steps STEPS }
enum suit { red, blue }
component card { rank: int  suit: suit  mark: int }
zone pile: card visible all
player zone hand: card visible owner
player zone won: card visible all
deck cards: card in pile = [card(rank: 1 + k % 5, suit: if k % 3 == 0 then red else blue, mark: k) for k in 1..24]
var out: list[int] = []

procedure turn(p: player) {
  move top(pile) to p.hand
  let reds = [count(c for c in p.hand if c.suit == red and c.rank == k) for k in 1..HIGH]
  let any_suit = [count(c for c in p.hand if k == c.rank) for k in 2..4]
  let keyed = [count(c for c in p.won if c.rank == k and c.suit != blue) for k in 1..size(p.hand)]
  out = out + reds + any_suit + keyed
  choose c in p.hand by p prompt "{p}: the card to keep"
  move c to p.won
}

phase play {
  while size(pile) > 0 {
    for p in players {
      if size(pile) > 0 {
        call turn(p)
      }
    }
  }
  end game
}
"""


def _rules(steps: int = 100_000, high: str = "5") -> str:
    return RULES.replace("STEPS", str(steps)).replace("HIGH", high)


def test_counts_by_key_are_one_pass_with_the_same_states_work_and_errors(monkeypatch):
    listing = rulelang.load(_rules()).generated_code()
    assert listing.count("dict.fromkeys(") == 6   # (reds, any_suit, keyed: in the turn run until it pauses, and
    # in its resumable code)
    assert re.search(r"_x = st\.work \+ len\((_s\d+)\) \* len\((_s\d+)\)\n(.*\n){3}\s+(_c\d+) = dict\.fromkeys\(\1, 0\)"
                     r"\n\s+for (_v\d+) in \2:\n\s+if .*:\n\s+(_f\d+) = \5\.record\[_k\d+\]\n\s+if \6 in \4:", listing)
    fast = runs_alike_without(monkeypatch, comprehensions, "counted_by_key", lambda *args: None,
                              RULES.replace("HIGH", "5"), range(1, 160, 3), _rules(high='"5"'))   # (a range that fails)
    assert "dict.fromkeys(" not in rulelang.load(_rules()).generated_code()
    lines = _rules().splitlines()
    counted = {lines.index(line) + 1 for line in lines if "count(" in line}
    assert counted <= {outcome[2] for outcome in fast[1] if outcome[0] == "E603"}   # (each stopped at a budget)
    assert fast[2][0] == "E602" and fast[2][2] in counted   # (a range of a string: the rules' error, at its statement)


@pytest.mark.parametrize("changed", [
    ("c.rank == k) for k in 1..5", "c.rank + 0 == k) for k in 1..5"),       # (not a field read)
    ("c.suit == red and c.rank", "c.mark == k and c.rank"),                       # (the test reads the key)
    ("for c in p.hand if c.suit", "for c in p.hand if [k][0] > 0 and c.suit"),    # (a test that may fail)
])
def test_what_is_not_a_count_by_key_is_left_as_it_is(changed):
    rules = _rules().replace(*changed)
    assert rules != _rules()
    assert rulelang.load(rules).generated_code().count("dict.fromkeys(") == 4


def test_a_field_that_is_not_an_integer_everywhere_is_not_counted_by_key():
    rules = _rules().replace("mark: int }", "mark: int  label: string }").replace(
        "mark: k)", 'mark: k, label: "x")').replace("c.rank == k and c.suit", "c.label == k and c.suit")
    assert rulelang.load(rules).generated_code().count("dict.fromkeys(") == 4
