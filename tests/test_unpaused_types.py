"""Procedures that may pause, run as Python functions until they pause (compiler/unpaused.py),
read their held parameters as their declared types promise: every call of one checks its
arguments where the text does not prove them (the rules' error, located at the call), the
call from another such function included."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from conftest import saved_states as played
from conftest import setup_failure as failure

import rulelang
from rulelang.interpreter.compiler import lower

CALLS = '''\
    game "G" { players 2 }
    player var score: int = 0
    var got: int = 0
    procedure ask(p: player, n: int) {
      p.score = p.score + n
      if n > 100 {
        choose k in [n, n + 1] by p
        got = k
      }
    }
    procedure outer(p: player, n: int) {
      call ask(p, ARG)
      if n > 100 {
        choose k in [1, 2] by p
      }
    }
    phase main {
      for q in players {
        call outer(q, 2)
      }
      end game
    }
'''


def load(tmp_path: Path, source: str, players: int = 2) -> rulelang.Game:
    return load_written(tmp_path, source, players=players)


def unpaused_functions(game: rulelang.Game) -> list[str]:
    """The source of each function that runs a procedure until it pauses."""
    units = re.split(r"\n(?=def )", code(game))
    return [unit for unit in units if unit.strip() and "until it pauses" in unit.strip().splitlines()[0]]


def test_a_held_parameter_is_read_without_testing_its_kind(tmp_path):
    game = load(tmp_path, CALLS.replace("ARG", "n"))
    functions = unpaused_functions(game)
    assert len(functions) == 2
    assert all("_no_attribute" not in f and "_order" not in f for f in functions)
    assert game.new_initial_state().to_json()["player_vars"]["score"] == [2, 2]


def test_an_argument_of_another_kind_is_the_rules_error_at_the_call_of_one_such_function(tmp_path):
    game = load(tmp_path, CALLS.replace("ARG", '"two"'))
    (diagnostic,) = failure(game).diagnostics
    assert diagnostic.code == "E602" and diagnostic.span.line == 12
    assert diagnostic.message.startswith("'n' of ask must be an int, got string")


UNBOUND = '''\
    game "G" { players 1 }
    var got: int = 0
    procedure ask(p: player, n: int) {
      if n > 3 {
        let k = 5
      }
      got = k
      choose j in [1, 2] by p
    }
    phase main {
      call ask(players[0], N)
      end game
    }
'''


def _pushing_frames(monkeypatch) -> None:
    monkeypatch.setattr(lower, "pauses_at_once", lambda decl, cat: True)


def test_a_local_read_before_it_has_a_value_is_the_error_of_the_lowered_code(tmp_path, monkeypatch):
    errors = []
    for push in (False, True):
        if push:
            _pushing_frames(monkeypatch)
        game = load(tmp_path, UNBOUND.replace("N", "1"), players=1)
        assert ("until it pauses" in game.generated_code()) is not push
        (diagnostic,) = failure(game).diagnostics
        errors.append((diagnostic.code, diagnostic.span, diagnostic.message))
    assert errors[0] == errors[1] and errors[0][1].line == 7
    assert errors[0][2].startswith("'k' has no value here")


def test_the_locals_of_a_paused_frame_are_those_of_the_lowered_code_in_their_order(tmp_path, monkeypatch):
    states = []
    for push in (False, True):
        if push:
            _pushing_frames(monkeypatch)
        game = load(tmp_path, UNBOUND.replace("N", "7"), players=1)
        state = game.new_initial_state(seed=1)
        states.append(json.dumps(state.to_json()))
        assert '"k": 5' in states[-1]
    assert states[0] == states[1]


@pytest.mark.parametrize(("name", "players"), [("jamaica", 4), ("tobago", 3), ("asterix", 3)])
def test_seed_games_save_the_same_text_as_with_a_frame_pushed_at_every_call(name, players, monkeypatch):
    path = Path(__file__).resolve().parent.parent / "games" / f"{name}.rules"
    fast = rulelang.load(path, players=players)
    _pushing_frames(monkeypatch)
    slow = rulelang.load(path, players=players)
    for seed in range(2):
        assert [json.dumps(s) for s in played(fast, seed)] == [json.dumps(s) for s in played(slow, seed)]
