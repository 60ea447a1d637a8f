"""``sorted(... by KEY)`` whose keys the text proves integers (aggregates.py
``sorted_by_integers``): ``runtime.in_order_by``'s own sort written in place, without its call
and the test of the keys' classes; the same orders (ties kept in the list's order), states,
work and errors as ``in_order_by`` at every budget, and as the operations run one by one."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

from rulelang.interpreter.compiler import aggregates

__all__ = ["counters_recorded"]   # (the fixture, used by name)

SORTS = """\
    game "O" { players 3 }
    component chip { worth: int  name: string }
    zone heap: chip visible all
    deck chips: chip in heap = [chip(worth: w % 3, name: "c" + w) for w in 1..7]
    player var score: int = 0 visible all
    var order: list[player] = players visible all
    var names: list[string] = [] visible all
    var total: int = 0 visible all

    procedure rank() {
      let ranked = sorted(p for p in order by p.score desc)
      order = ranked
      names = [c.name for c in sorted(c for c in heap by c.worth * 2 - 1)]
      let worded = sorted(c for c in heap by c.name desc)
      names = names + [c.name for c in worded]
      choose k in [0, 1, 2] by order[0]
      order[0].score += k
      total += 12 / (2 - k) + size(sorted(p for p in players by p.score / (total - 7)))
    }

    phase play {
      for r in 1..6 {
        for p in players {
          p.score = (p.score + r * 2) % 4
        }
        call rank()
      }
      end game
    }
"""


def general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load games from here on with every sort by ``runtime.in_order_by``."""
    monkeypatch.setattr(aggregates, "sorted_by_integers",
                        lambda pairs, descending: f"_in_order_by({pairs}, {descending})")


def test_a_sort_by_integers_is_written_in_place_and_one_by_other_keys_is_not(tmp_path: Path) -> None:
    code = load_written(tmp_path, SORTS).generated_code()
    assert "key=_second_of, reverse=True" in code and "key=_second_of, reverse=False" in code
    assert 0 < code.count("_in_order_by(") < code.count("key=_second_of")   # (the names, strings: in_order_by)


@pytest.mark.usefixtures("counters_recorded")
def test_sorts_by_integers_fail_and_order_as_in_order_by_at_every_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_written(tmp_path, SORTS)
    with monkeypatch.context() as patch:
        general(patch)
        slow = load_written(tmp_path, SORTS)
    assert "_second_of" not in slow.generated_code()
    failures = failures_where_all_agree((fast, slow, one_by_one(load_written(tmp_path, SORTS))), 6, range(1, 70))
    errors = {str(failure[0]) for failure in failures}
    assert any("step" in error for error in errors) and any("zero" in error for error in errors), errors


def test_a_sort_by_a_bool_key_keeps_in_order_by(tmp_path: Path) -> None:
    # (a bool is no integer the sort may take as one: integer_bound leaves it out)
    code = load_written(tmp_path, """\
        game "B" { players 3 }
        player var ready: bool = false visible all
        var order: list[player] = players visible all
        phase play {
          players[1].ready = true
          order = sorted(p for p in players by p.ready desc)
          choose k in [1, 2] by order[0]
          end game
        }
    """).generated_code()
    assert "_in_order_by(" in code and "key=_second_of" not in code
