"""Procedures that may pause, run as Python functions until they do (compiler/unpaused.py):
a game run so is the very game that the lowered code makes pushing a frame at every call
(the same saved states after each action, the same frames where it pauses, the same errors),
and a call that does not pause makes no frame."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import saved_states as played

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import lower
from rulelang.interpreter.model import program

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("jolly_roger", 4), ("jamaica", 4), ("asterix", 3), ("tobago", 3)]

PAUSES_INSIDE = """\
    game "U" { players 2 }
    var n: int = 0
    var seen: list[int] = []
    procedure inner(p: player, k: int) {
      if k % 3 == 0 {
        choose x in [k, k + 1] by p
        n += x
        return x
      }
      n += 1
      return k
    }
    procedure middle(p: player, k: int) {
      let total = 0
      for i in 1..k {
        if i == 4 { break }
        let got = call inner(p, i + k)
        total += got
        seen = seen + [got]
      }
      let j = 0
      while j < 2 {
        j += 1
        if j == k { continue }
        let again = call inner(p, j * 3 + k)
        total += again
      }
      repeat until total > 100 {
        total += 1
        if total % 2 == 0 { continue }
        if total > 3 * k { break }
        if total == 3 * k { choose y in [1, 2] by p  total += y }
      }
      return total
    }
    procedure outer(k: int) {
      if k > 0 {
        let r = call middle(players[k % 2], k)
        seen = seen + [r]
        call outer(k - 1)
      }
    }
    phase play {
      call outer(5)
      end game
    }
"""


def pushing_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load games from here on with a frame pushed at every call, as before unpaused.py."""
    monkeypatch.setattr(lower, "pauses_at_once", lambda decl, cat: True)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_seed_game_is_the_game_that_pushes_a_frame_at_every_call(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{name}.rules"
    fast = rulelang.load(path, players=players)
    pushing_frames(monkeypatch)
    slow = rulelang.load(path, players=players)
    assert "until it pauses" in fast.generated_code() and "until it pauses" not in slow.generated_code()
    for seed in range(2):
        assert played(fast, seed) == played(slow, seed)


def test_pauses_in_loops_and_nested_calls_leave_the_frames_of_the_lowered_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(PAUSES_INSIDE), encoding="utf-8")
    fast = rulelang.load(path)
    pushing_frames(monkeypatch)
    slow = rulelang.load(path)
    for seed in range(6):
        fast_states, slow_states = played(fast, seed), played(slow, seed)
        assert fast_states == slow_states and len(fast_states) > 3
    # (every pause returns the one PAUSED, which the callers' Paused.under never count on)
    assert "return _PAUSED" in fast.generated_code() and "_Paused()" not in fast.generated_code()
    assert vars(program.PAUSED) == {} and program.PAUSED.count == 1


def test_lowered_code_calls_a_procedure_s_function_with_its_arguments_in_python_locals(tmp_path: Path) -> None:
    """Each argument computed in its order into a local of its own, then a call Python makes
    in place (not ``f(*args)``); the seed games above play the same with it."""
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(PAUSES_INSIDE), encoding="utf-8")
    code = rulelang.load(path).generated_code()
    # (and the resumable function's call lets it make the decision it pauses at: decided.py)
    assert "*_args" not in code and "(st, _depth, _arg0, _arg1, True)" in code


def test_a_call_that_does_not_pause_makes_no_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    # (a 'repeat until' whose 'continue' skips its test is left to the lowered code: its frame
    # is made at the loop, as when the procedure pauses)
    path.write_text(textwrap.dedent(PAUSES_INSIDE).replace("repeat until total > 100 {", "repeat {"), encoding="utf-8")
    state = rulelang.load(path).new_initial_state(seed=0)
    made: list[str] = []
    real = program.Frame.__init__

    def counted(frame: program.Frame, name: str, *args: object) -> None:
        made.append(name)
        real(frame, name, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(program.Frame, "__init__", counted)
    calls = 0
    while not state.is_terminal():
        before = list(state.frames)   # (kept: a new frame may not take the id of an old one)
        made.clear()
        state.apply_action(state.legal_actions(state.current_players()[0])[0])
        new = [frame.name for frame in state.frames if all(frame is not old for old in before)]
        # only the frames of the calls that paused, innermost first: the innermost made in place
        # where it pauses (no Frame.__init__), the callers' by Paused.under
        assert made == new[::-1][1:]
        calls += 1
    assert calls > 3
    # inner(p, k) pauses only for k a multiple of 3: outer, middle and inner each make a frame
    # at those calls only, and the phase none after its start


RECURSIVE = """\
    game "R" { players 1  max_steps 100000 }
    var n: int = 0
    procedure down(k: int) {
      n += 1
      if k < 0 { choose x in [1, 2] by players[0] }
      call down(k + 1)
    }
    phase p { call down(0) }
"""


def test_a_runaway_recursion_stops_at_the_depth_bound_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RECURSIVE), encoding="utf-8")
    errors = []
    for _ in range(2):
        with pytest.raises(RulesRuntimeError) as caught:
            rulelang.load(path).new_initial_state()
        errors.append((caught.value.diagnostic.code, caught.value.diagnostic.span.line,
                       caught.value.diagnostic.message))
        pushing_frames(monkeypatch)
    assert errors[0] == errors[1] and errors[0][0] == "E603" and "1000 deep" in errors[0][2]


def test_a_procedure_that_returns_no_value_takes_its_frame_off_in_place(tmp_path: Path) -> None:
    """The end of a procedure's resumable code: its frame taken off in place where one is under
    it waiting for no value, else State.pop (a value to hand, the last frame, the setup)."""
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(PAUSES_INSIDE), encoding="utf-8")
    game = rulelang.load(path)
    listing = code(game)
    assert "_frames.pop()   # (State.pop(None) in place)" in listing and "st.pop(None)" in listing


def test_the_setups_end_starts_the_first_phase_with_its_event(tmp_path: Path) -> None:
    """The setup's end is State.pop, which records the first phase's start: never taken off in
    place (the setup's code is named 'setup', its frame '$setup')."""
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent('''\
        game "S" { players 2 }
        var n: int = 0
        setup {
          for p in players { choose k in [1, 2] by p  n += k }
        }
        phase play {
          choose k in [1, 2] by players[0]
          end game
        }
    '''), encoding="utf-8")
    state = rulelang.load(path).new_initial_state(events=True)
    for _ in range(2):   # (the setup's two choices: its resumable code ends with the second)
        assert "phase" not in [event["type"] for event in state.events()]
        state.apply_action(state.legal_actions()[0])
    assert [event["type"] for event in state.events()][-1] == "phase"
