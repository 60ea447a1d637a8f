"""The variable of a 'for' in compiled code (interpreter/compiler/procedures.py): where each
item of its source is certainly a player, a space or a component (or a bounded integer) and
the body binds no variable of its name, the body reads it without testing its kind; where the
body binds it again, every read keeps its test."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import generated_functions as code
from conftest import load_written

import rulelang

LOOPS = '''\
    game "G" { players 2 }
    component card { rank: int }
    player zone hand: card visible owner
    player deck cards: card in hand = [card(rank: r) for r in 1..player_number(me) + 1]
    player var score: int = 0
    var seen: list[int] = []
    procedure count_up() {
      for q in players {
        q.score += sum(c.rank for c in q.hand)
        for c in q.hand {
          seen = seen + [c.rank * 100 + size(q.hand)]
        }
      }
      for q in players {
        q.score += 10 * size(q.hand)
        for q in [3, 4] {
          seen = seen + [q]
        }
      }
    }
    phase p {
      call count_up()
      end game
    }
'''


def load(tmp_path: Path) -> rulelang.Game:
    return load_written(tmp_path, LOOPS, players=2)


def test_a_loop_variable_of_known_items_is_read_without_a_test_of_its_kind(tmp_path: Path) -> None:
    game = load(tmp_path)
    _, first, second = code(game).split("\n    return None")[0].split("\n    for _l")
    assert "is _Player" not in first and "is _Component" not in first and "_size_of" not in first
    assert re.search(r"type\(_l\d+\) is _Player", second)   # its body binds q again: tested
    data = game.new_initial_state().to_json()
    assert data["globals"]["seen"] == [102, 202, 103, 203, 303, 3, 4, 3, 4]
    assert data["player_vars"]["score"] == [3 + 20, 6 + 30]


SORTED = '''\
    game "G" { players 1 }
    component card { rank: int }
    zone pile: card visible all
    deck cards: card in pile = [card(rank: r) for r in [2, 5, 3]]
    var seen: list[int] = []
    procedure order() {
      for c in sorted(c for c in pile if c.rank > 2 by -c.rank) {
        seen = seen + [c.rank]
      }
      for c in sorted(list(pile)) {
        seen = seen + [c.rank]
      }
    }
    phase p {
      call order()
      end game
    }
'''


def test_the_items_of_a_sorted_list_of_known_items_are_known(tmp_path: Path) -> None:
    game = load_written(tmp_path, SORTED, players=1)
    assert "is _Component" not in code(game).split("\n    return None")[0] and ".record[" in code(game)
    assert game.new_initial_state().to_json()["globals"]["seen"] == [5, 3, 2, 5, 3]
