"""Two filters of one list by one value, one statement after the other (``[p for p in L if
X is A]``, then ``[p for p in L if X is B]``), made by one loop that computes each item's value
once (compiler/filters_merged.py): the same states, work and errors as two loops, at every
step budget; filters of other lists, or with a statement between, left as they are."""
from __future__ import annotations

import pytest
from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import comprehensions, resumable

RULES = """\
game "M" { players 4  max_steps STEPS }
enum suit { red, blue, green }
component card { suit: suit }
zone pile: card visible all
zone table: card visible all
player zone hand: card visible owner
deck cards: card in pile = [card(suit: values(suit)[k % 3]) for k in 1..60]
var out: list[int] = []

procedure sort(group: list[player]) {
  let reds = [p for p in group if p.hand[0].suit == red]
  let blues = [p for p in group if p.hand[0].suit == blue]
  out = out + [size(reds), size(blues)]
}

procedure turn() {
  for p in players {
    if size(pile) > 0 {
      move top(pile) to p.hand
    }
  }
  let holding = [p for p in players if size(p.hand) > 0]
  simultaneous p in holding choose pick in p.hand prompt "{p}: your card"
  let reds = [p for p in holding if pick[p].suit == red]
  let greens = [p for p in holding if pick[p].suit == green]
  for p in holding {
    move pick[p] to table
  }
  call sort(SORTED)
  out = out + [size(reds), size(greens)]
}

phase play {
  while size(pile) > 0 {
    call turn()
  }
  end game
}
"""


def _rules(sorted_: str = "holding") -> str:
    return RULES.replace("STEPS", "100000").replace("SORTED", sorted_)


def test_two_filters_of_one_list_by_one_value_are_one_loop(monkeypatch):
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    listing = rulelang.load(_rules()).generated_code()
    merged = [line for line in listing.splitlines() if line.strip().startswith("if _e") and " is _k" in line]
    assert len(merged) == 4   # (sort's two tests, and the turn's two)
    fast = runs_alike_without(monkeypatch, comprehensions, "filters_merged",
                              lambda lines, second, indent, fresh: second,
                              RULES.replace("SORTED", "holding"), range(1, 150, 2), _rules("players"))
    assert not any(line.strip().startswith("if _e") for line in rulelang.load(_rules()).generated_code().splitlines())
    lines = RULES.splitlines()
    filters = {n for n, line in enumerate(lines, start=1) if "let reds" in line or "let blues" in line
               or "let greens" in line}
    stopped = filters & {outcome[2] for outcome in fast[1] if outcome[0] == "E603"}
    greens = next(n for n in filters if "greens" in lines[n - 1])
    assert len(stopped) >= 2 and greens in stopped   # (a second filter's items charged after the loop: there too)
    first = lines.index("  let reds = [p for p in group if p.hand[0].suit == red]") + 1
    assert fast[2][0] == "E602" and fast[2][2] == first   # (the value of a player with no card: the first filter's)


@pytest.mark.parametrize("changed", [
    ("let blues = [p for p in group", "let blues = [p for p in players"),            # (another list)
    ("  let blues", "  out = out + [0]\n  let blues"),                                 # (a statement between)
    ("let blues = [p for p in group if p.hand[0].suit == blue]",
     "let blues = [p for p in group if p.hand[-1].suit == blue]"),                     # (another value)
])
def test_other_filters_are_left_as_they_are(changed, monkeypatch):
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    rules = _rules().replace(*changed)
    assert rules != _rules()
    merged = [line for line in rulelang.load(rules).generated_code().splitlines() if line.strip().startswith("if _e")]
    assert len(merged) == 2   # (the turn's only)
