"""How the run goes on after a decision: a frame's resumable function read, then called.

``State.apply_action``, ``applied.went_on``, ``State._run_until_decision`` and the generated
code after a call of a procedure that pushed a frame call the innermost frame's function as
``run = fr.code.run`` then ``run(...)``: ``fr.code.run(...)`` is a method call (``LOAD_METHOD``)
of a slot, which CPython 3.11 never specialises. ``apply_action`` tests a choice's ``binds``
before anything else: a decision that binds a local never has options per player. Each test
compares the runs with the general path (each operation run alone) or fails without its step.
"""
from __future__ import annotations

import dis
import random
import types
from collections.abc import Callable
from pathlib import Path

import pytest
from test_blocks import failures_where_all_agree
from test_host_path import run_one_by_one

import rulelang
from rulelang.interpreter.model.program import Decision
from rulelang.interpreter.state import applied
from rulelang.interpreter.state.state import State

GAMES = Path(__file__).resolve().parent.parent / "games"

CALLS = """
game "Calls" { players 2 }
var total: int = 0 visible all
procedure pick(p: player) {
  choose x in [1, 2, 3] by p
  total += [10, 20][x - 1]
}
procedure turn(p: player) {
  call pick(p)
  total += 1
  choose by p {
    option "on" { total += 1 }
    option "off" { total += [1][total % 3] }
  }
}
phase play {
  for r in 1..3 {
    for p in players {
      call turn(p)
    }
  }
  end game
}
"""
ENDS = CALLS.replace("[1][total % 3]", "1").replace("[10, 20][x - 1]", "x")   # (its games end)


def _run_called_by_a_method_call(code: types.CodeType) -> bool:
    """Whether ``code`` (or a function within) calls ``X.run(...)`` as a method call."""
    if any(i.opname == "LOAD_METHOD" and i.argval == "run" for i in dis.get_instructions(code)):
        return True
    return any(_run_called_by_a_method_call(c) for c in code.co_consts if isinstance(c, types.CodeType))


@pytest.mark.parametrize("function", [State.apply_action, State._run_until_decision, applied.went_on])
def test_the_run_loops_read_a_frames_function_then_call_it(function: Callable[..., object]) -> None:
    assert not _run_called_by_a_method_call(function.__code__)


def test_the_generated_code_after_a_call_reads_the_called_frames_function_then_calls_it() -> None:
    game = rulelang.load(CALLS)
    code = game.generated_code()
    assert "(_run := _called.code.run)(st, _called, steps, limit)" in code and "_called.code.run(st" not in code
    functions = [code.ops.run for code in game.program.code.values()]   # (the resumable functions)
    assert all(isinstance(f, types.FunctionType) and f.__code__.co_filename.startswith("<rules:") for f in functions)
    assert not any(_run_called_by_a_method_call(f.__code__) for f in functions)


def test_calls_that_pause_go_on_as_each_operation_run_alone_at_every_budget() -> None:
    fast, slow = rulelang.load(CALLS), run_one_by_one(rulelang.load(CALLS))
    failures = failures_where_all_agree((fast, slow), 4, range(1, 60))
    kinds = {str(f[0]).split(" ")[1] for f in failures}   # (the step budget in each procedure, and the index)
    places = {str(f[0]).split(" (in ")[1] for f in failures}
    assert kinds == {"E602", "E603"} and places == {"play)", "turn)", "pick)"}
    ending = (rulelang.load(ENDS), run_one_by_one(rulelang.load(ENDS)))
    assert failures_where_all_agree(ending, 6, range(10_000, 10_001)) == []


@pytest.mark.parametrize("path", ["jolly_roger.rules", "asterix.rules", "tic_tac_toe.rules"])
def test_a_decision_that_binds_a_local_has_no_options_per_player(path: str) -> None:
    game = rulelang.load(GAMES / path)
    chooser = random.Random(0)
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            decision = state.pending
            assert decision is not None and (decision.binds is None or decision.per_player is None)
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)


class _Unread(Decision):
    """A choice's decision whose options per player must not be read."""

    __slots__ = ()

    @property
    def per_player(self) -> None:   # type: ignore[override]
        raise AssertionError("per_player read at a choice")


def test_a_choice_applied_by_the_usual_call_reads_no_options_per_player() -> None:
    game, plain = rulelang.load(ENDS), rulelang.load(ENDS)
    for seed in range(3):
        chooser = random.Random(seed)
        state, other = game.new_initial_state(seed=seed), plain.new_initial_state(seed=seed)
        choices = 0
        while not state.is_terminal():
            decision = state.pending
            assert decision is not None
            player = state.current_players()[0]
            action = chooser.choice(state.legal_actions(player))
            if decision.binds is not None:   # (a choice: the same decision, whose per_player raises if read)
                watched = _Unread()
                for name in Decision.__slots__:
                    if name != "per_player":
                        object.__setattr__(watched, name, getattr(decision, name))
                state.pending = watched
                choices += 1
            state.apply_action(action.id, player=player)
            other.apply_action(action.id, player=player)
            assert state.to_json() == other.to_json()
        assert choices >= 6
