"""A field of a component that a compiled loop reads more than once a round, of a local the
loop uses only so (a parameter proven a component: ``face.kind``), read once before the loop
(compiler/invariant_fields.py): the same states, work and errors as each round reading it,
at every step budget; a local whose type is tested (not proven a component) left as it is."""
from __future__ import annotations

import re

from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import bulk_rounds

RULES = """\
game "F" { players 3  max_steps STEPS }
enum kind { gold, lead }
component card { rank: int  kind: kind }
zone pile: card visible all
zone table: card visible all
player zone hand: card visible owner
player zone won: card visible all
deck cards: card in pile = [card(rank: k % 4, kind: if k % 3 == 0 then gold else lead) for k in 1..45]
var out: list[int] = []

procedure share(face: card, best: player) {
  for p in players {
    if (face.kind == gold and p == best) or (face.kind == lead and p != best and face.rank > 1) {
      move top(p.hand) to p.won
    }
  }
  for p in players {
    out = out + [face.rank + size(p.won), face.rank]
  }
}

procedure turn() {
  for p in players {
    move top(pile) to p.hand
  }
  let face = top(pile)
  move face to table
  choose best in players by players[0] prompt "who takes {face}"
  call share(face, best)
}

phase play {
  while size(pile) > 3 {
    call turn()
  }
  end game
}
"""


def _rules() -> str:
    return RULES.replace("STEPS", "100000")


def test_a_field_read_each_round_is_read_once_before_the_loop(monkeypatch):
    listing = rulelang.load(_rules()).generated_code()
    held = re.findall(r"\n( +)(_f\d+) = (_l\d+)\.record\[_k\d+\]\n", listing)
    assert len(held) == 2   # (the kind before the first loop, read twice in it; the rank before the second)
    fast = runs_alike_without(monkeypatch, bulk_rounds, "fields_read_once", lambda lines, at, fresh: at,
                              RULES, range(1, 100))   # (at a large budget, and at every budget up to 100)
    assert not re.search(r"_f\d+ = _l\d+\.record", rulelang.load(_rules()).generated_code())
    assert len({outcome[2] for outcome in fast[1] if outcome[0] == "E603"}) >= 3


def test_a_local_not_proven_a_component_is_left_as_it_is():
    rules = _rules().replace("procedure share(face: card, best: player)", "procedure share(face: card?, best: player)")
    assert not re.search(r"_f\d+ = _l\d+\.record", rulelang.load(rules).generated_code())
