"""``==`` and ``!=`` with a value certainly a player, a space or a component (or none) written
as Python's ``is`` (kinds.by_identity): such values are equal only to themselves, so the
same results as the comparison called."""
from __future__ import annotations

import re

import pytest

import rulelang
from rulelang.interpreter.compiler import codegen

RULES = """\
game "E" { players 2 }
board grid = square_grid(3, 3)
space var mark: player? = none
space var near: space? = none
player var seen: int = 0
phase p {
  repeat {
    for p in players {
      choose cell in [s for s in spaces(grid) if s.mark == none] by p otherwise { end game }
      cell.mark = p
      cell.near = cell
      for q in players {
        for s in spaces(grid) {
          if s.mark == q { q.seen += 1 }
          if q != s.mark { q.seen += 10 }
          if s.near == s { q.seen += 100 }
          if s.near != cell { q.seen += 1000 }
        }
      }
    }
  }
}
"""


def _played(pick: int) -> dict[str, object]:
    state = rulelang.load(RULES).new_initial_state()
    while not state.is_terminal():
        (player,) = state.current_players()
        actions = state.legal_actions(player)
        state.apply_action(actions[pick % len(actions)], player=player)
    return state.to_json()


def test_comparisons_with_players_and_spaces_by_identity_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    code = rulelang.load(RULES).generated_code()
    # (each comparison; a held local read from the Python local that read it first in its block: held_reads.py)
    assert len(re.findall(r"\]\) is (not )?(_l|env|_t)|_l\d+ is not \(st", code)) == 4
    by_identity = [_played(pick) for pick in range(5)]
    monkeypatch.setattr(codegen, "by_identity", lambda cat, node, scope: False)
    assert len(re.findall(r"\]\) (==|!=) (_l|env|_t)|_l\d+ != \(st", rulelang.load(RULES).generated_code())) == 4
    assert by_identity == [_played(pick) for pick in range(5)]
    assert len({str(game) for game in by_identity}) > 1
