"""A decision made where a procedure run as a Python function pauses (compiler/decided.py):
called by a resumable function, the function makes the decision of the choice, menu or
simultaneous choice it pauses at on the frame it pushed, and the caller counts that
operation's step; at every step budget a game fails or ends as with the frame running that
operation (the code before) and as the run loop running one operation at a time: the same
errors, spans, frames' counters where the budget ran out, states and work."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.interpreter.compiler import unpaused
from rulelang.interpreter.model.program import Frame, Run
from rulelang.interpreter.state.state import State

__all__ = ["counters_recorded"]   # (the fixture, used by name)

RULES = """\
    game "D" { players 2 }
    var n: int = 0
    var seen: list[int] = []
    procedure pick(p: player, k: int) {
      n += 1
      if k % 3 == 0 {
        choose x in [i for i in [1, 2, 3] if i > k % 4] by p otherwise { n += 100 }
        n += 1
      }
      if k % 5 == 1 {
        choose y in [i for i in [k, k + 1] if n < 90] by p
        n += y
      }
      return n % 7
    }
    procedure ask(p: player, k: int) {
      n += 2
      let got = call pick(p, k)
      seen = seen + [got]
      if n % 2 == 0 {
        choose by p {
          option "more" when n % 4 == 0 { n += 3 }
          option "less" { n -= 12 / (n % 4 - 2) }
        }
      } else {
        choose by p {
          option "up" { n += 1 }
          option "down" { n += 10 / (n % 4) }
        }
      }
    }
    procedure together(k: int) {
      n += k
      simultaneous q in [q for q in players if (n + q.index) % 3 != 0] choose z in [1, 2]
      n += 1
    }
    phase play {
      for r in 1..4 {
        for p in players {
          call ask(p, r + n % 5)
          let m = call pick(p, r + 1)
          n += m
          call together(r)
        }
      }
      end game
    }
"""


def loaded(tmp_path: Path) -> rulelang.Game:
    game: rulelang.Game = load_written(tmp_path, RULES)
    return game


def test_the_functions_make_each_kind_of_decision_they_pause_at(tmp_path: Path) -> None:
    code = loaded(tmp_path).generated_code()
    # (the choice and the menu without conditions in place; the menu with conditions and the
    # simultaneous choice by their operations; pick's second choice and its 'otherwise')
    assert code.count("return _DECIDED") == 5 and code.count("if _decide:") == 5
    assert "steps += _r.decided" in code and ", True)" in code


@pytest.mark.usefixtures("counters_recorded")
def test_a_decision_made_where_a_procedure_pauses_fails_at_every_budget_as_the_general_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = loaded(tmp_path)
    with monkeypatch.context() as patch:   # (the frame makes it: its first operation, run by its function)
        patch.setattr(unpaused, "decided_lines", lambda *args: None)
        framed = loaded(tmp_path)
    assert "_DECIDED" in made.generated_code() and "_DECIDED" not in framed.generated_code()
    slow = one_by_one(loaded(tmp_path))
    failures = failures_where_all_agree((made, framed, slow), 5, range(1, 130))
    kinds = {str(f[0]).split(": ")[1][:4] for f in failures}
    # (the budget; no option left; the division in an option)
    assert {"E603", "E604"} <= kinds and len(kinds) > 2, kinds


def test_no_resumable_function_runs_to_make_the_decision(tmp_path: Path) -> None:
    game = loaded(tmp_path)
    entered: list[str] = []

    def counted(name: str, run: Run) -> Run:
        def entering(st: State, fr: Frame, steps: int, limit: int) -> int:
            entered.append(name)
            return run(st, fr, steps, limit)
        return entering
    for name in ("pick", "ask", "together"):
        ops = game.program.code[name].ops
        ops.run = counted(name, ops.run)
    state = game.new_initial_state(seed=0)   # (its start runs one operation at a time: the frame makes it)
    seen = []
    for _ in range(4):   # (the first option each time)
        entered.clear()
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
        assert state.pending is not None
        seen.append((entered[:], [fr.name for fr in state.frames], state.pending.kind))
    assert seen == [
        (["pick", "ask"], ["play", "ask"], "menu"),   # (pick resumed and returns; ask goes on to its menu)
        (["ask"], ["play", "together"], "simultaneous"),   # (together called by play: made in place)
        ([], ["play", "together"], "simultaneous"),   # (the second pick)
        (["together"], ["play", "ask"], "menu")]   # (ask called by play: made in place)
