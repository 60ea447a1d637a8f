"""A comprehension over the players (a list known at load) written out player by player
(compiler/players_written_out.py): the same states, work and errors as its loop, at every
step budget."""
from __future__ import annotations

import re

from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import comprehensions

RULES = """\
game "R" { players 3  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
player zone hand: card visible owner
zone used: card visible all
deck cards: card in pile = [card(rank: 1 + k % 5) for k in 1..30]
player var score: int = 0
var out: list[int] = []

procedure turn(p: player) {
  move top(pile) to p.hand
  let holding = [q for q in players if size(q.hand) > 1]
  let ahead = [q.score for q in players if q.score > p.score and q != p]
  out = out + [size(holding), size(ahead), size([q for q in players if RANKED])]
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


def _rules(steps: int = 100_000, ranked: str = "q.score > 3") -> str:
    return RULES.replace("STEPS", str(steps)).replace("RANKED", ranked)


def test_a_comprehension_over_the_players_is_written_out(monkeypatch):
    listing = rulelang.load(_rules()).generated_code()
    assert re.search(r"if \(len\((?:_st_|st\.)zones\[\d+\]\) > _k\d+\):\n\s+(_a\d+)\.append\(_k\d+\)\n"
                     r"\s+if \(len\((?:_st_|st\.)zones\[\d+\]\) > _k\d+\):\n\s+\1\.append\(_k\d+\)\n", listing)
    fast = runs_alike_without(monkeypatch, comprehensions, "players_written_out", lambda *args: None,
                              RULES.replace("RANKED", "q.score > 3"), range(1, 120),
                              _rules(ranked="q.hand[1].rank > 2"))   # (with a test that fails for a player)
    assert not re.search(r"len\((?:_st_|st\.)zones\[\d+\]\)", rulelang.load(_rules()).generated_code())
    lines = _rules().splitlines()
    listed = {n for n, line in enumerate(lines, start=1) if "for q in players" in line}
    assert len(listed & {outcome[2] for outcome in fast[1] if outcome[0] == "E603"}) >= 2   # (stopped in them)
    assert fast[2][0] == "E602" and fast[2][2] in listed   # (a player's missing item, at its statement)
