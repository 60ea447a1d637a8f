"""The locals a loop's rounds write to the environment of a procedure's function written once
after the loop (compiler/written_after.py): the same environment where the function pauses
after it (saved states, frames), the same states, work and errors at every budget as with
each round's writes and as the operations run one by one; a body that reads the
environment, leaves a round early or binds in a branch keeps its writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_written
from conftest import saved_states as played
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

from rulelang.interpreter.compiler import lower, unpaused

__all__ = ["counters_recorded"]   # (the fixture, used by name)

LOOPS = """\
    game "W" { players 3 }
    player var score: int = 0 visible all
    var order: list[player] = players visible all
    var total: int = 0 visible all

    procedure turn(r: int) {
      for p in players {
        let s = p.score + r
        p.score = s * 2 % 7
      }
      for p in order {
        if p.score > 3 {
          continue
        }
        let t = p.score
        p.score = t + 1
      }
      for q in players {
        if q.score > 2 {
          let u = q.score
          total += u
        }
      }
      for w in players {
        total += 12 / (r - 4)
      }
      choose k in [1, 2, 3] by order[0]
      total += 6 / (3 - k) + any(x.score > 1 for x in players)
    }

    phase play {
      for r in 1..5 {
        call turn(r)
      }
      end game
    }
"""


SURE = LOOPS.replace("(r - 4)", "(r + 4)").replace("(3 - k)", "(4 - k)")   # (no division by zero)


def each_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load games from here on with every round's writes kept."""
    monkeypatch.setattr(unpaused, "written_after_the_loop", lambda lines, start: None)


def function_of(code: str) -> str:
    found = code[code.index("def _q"):]
    return found[:found.index("\ndef ")]


def test_writes_of_every_round_go_after_the_loop_where_nothing_reads_them_in_it(tmp_path: Path) -> None:
    turn = function_of(load_written(tmp_path, LOOPS).generated_code())
    first = turn[turn.index("for _l"):turn.index("for _l", turn.index("for _l") + 1)]
    assert "env[" not in first.split("\n    if _s")[0]   # (none in the rounds)
    assert re.search(r"\n    if (_s\d+):\n        env\[_k\d+\] = _l\d+\n        env\[_k\d+\] = _l\d+\n", first)
    # (a 'continue', a 'let' in a branch, a body that reads nothing of the environment but whose
    # write is its variable's alone: kept, kept, moved)
    assert turn.count("\n    if _s") == 2


def test_its_states_are_those_of_each_round_s_writes_and_of_frames_pushed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_written(tmp_path, SURE)
    with monkeypatch.context() as patch:
        each_round(patch)
        rounds = load_written(tmp_path, SURE)
    with monkeypatch.context() as patch:
        patch.setattr(lower, "pauses_at_once", lambda decl, cat: True)
        pushed = load_written(tmp_path, SURE)
    assert "env[" in function_of(rounds.generated_code()).split("if _s")[0].split("for _l", 1)[1]
    for seed in range(4):
        seen = played(fast, seed)
        assert seen == played(rounds, seed) == played(pushed, seed) and len(seen) > 3


@pytest.mark.usefixtures("counters_recorded")
def test_errors_and_budgets_are_those_of_each_round_s_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_written(tmp_path, LOOPS)
    with monkeypatch.context() as patch:
        each_round(patch)
        rounds = load_written(tmp_path, LOOPS)
    failures = failures_where_all_agree((fast, rounds, one_by_one(load_written(tmp_path, LOOPS))), 4, range(1, 70))
    errors = {str(failure[0]) for failure in failures}
    assert any("step" in error for error in errors) and any("zero" in error for error in errors), errors
