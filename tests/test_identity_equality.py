"""``==`` and ``!=`` with a value certainly a player, a space or a component (or none) written
as Python's ``is`` (kinds.by_identity): such values are equal only to themselves, so the
same results as the comparison called."""
from __future__ import annotations

import re

import pytest

import rulelang
from rulelang.interpreter.compiler import codegen, resumable

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


def _played(pick: int, rules: str = RULES) -> dict[str, object]:
    state = rulelang.load(rules).new_initial_state()
    while not state.is_terminal():
        (player,) = state.current_players()
        actions = state.legal_actions(player)
        state.apply_action(actions[pick % len(actions)], player=player)
    return state.to_json()


def test_comparisons_with_players_and_spaces_by_identity_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    code = rulelang.load(RULES).generated_code()
    # (each comparison; a held local read from the Python local that read it first in its block: held_reads.py)
    assert len(re.findall(r"\]\) is (not )?(_l|env|_t)|_l\d+ is not \(st", code)) == 4
    by_identity = [_played(pick) for pick in range(5)]
    monkeypatch.setattr(codegen, "by_identity", lambda cat, node, scope: False)
    assert len(re.findall(r"\]\) (==|!=) (_l|env|_t)|_l\d+ != \(st", rulelang.load(RULES).generated_code())) == 4
    assert by_identity == [_played(pick) for pick in range(5)]
    assert len({str(game) for game in by_identity}) > 1


KNOWN = """\
game "K" { players 2 }
enum color { red, blue }
component chip { color: color }
zone pile: chip visible all
player zone hand: chip visible all
deck chips: chip in pile = [chip(color: if k % 3 == 0 then red else blue) for k in 1..7]
player var seen: int = 0
phase p {
  repeat {
    for p in players {
      choose c in pile by p otherwise { end game }
      move c to p.hand
      for q in players {
        for h in q.hand {
          if h.color == red { q.seen += 1 }
          if blue != h.color and q == p { q.seen += 10 }
        }
      }
    }
  }
}
"""


def test_comparisons_with_enum_values_and_locals_known_players_by_identity_give_the_same_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A value of an enumeration the rules name, and a loop's variable the text proves a player."""
    code = rulelang.load(KNOWN).generated_code()
    assert re.search(r"\) is _k\d+\)", code) and re.search(r"\(_k\d+ is not \(", code)   # (red, blue)
    assert re.search(r"\(_l\d+ is (_l\d+|env\[_k\d+\]|_env\d+)\)", code)   # (q == p; locals_read_once.py)
    by_identity = [_played(pick, KNOWN) for pick in range(4)]
    monkeypatch.setattr(codegen, "by_identity", lambda cat, node, scope: False)
    assert " is _k" not in rulelang.load(KNOWN).generated_code()
    assert by_identity == [_played(pick, KNOWN) for pick in range(4)]
    assert len({str(game) for game in by_identity}) > 1
