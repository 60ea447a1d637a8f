"""The resumable functions of lowered code (interpreter/compiler/resumable.py): every phase
and procedure of the seed games gets one, and a game run by them is the very game that the
run loop makes running one operation at a time (``run_one``): the same states, the same
steps counted, the same errors at the same places."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import played_to_the_end
from conftest import saved_states as played

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import choices
from rulelang.interpreter.model.program import run_one

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("tic_tac_toe", 2), ("kuhn_poker", 2), ("jolly_roger", 4), ("jamaica", 3), ("asterix", 3)]


def one_by_one(game: rulelang.Game) -> rulelang.Game:
    """``game`` with its code run one operation a round of the run loop, as before."""
    for code in game.program.code.values():
        code.ops.run = run_one
    return game


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_procedure_of_the_seed_games_is_resumable(name: str, players: int) -> None:
    game = rulelang.load(ROOT / "games" / f"{name}.rules", players=players)
    assert all(code.ops.run is not run_one for code in game.program.code.values())


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_game_run_by_the_resumable_functions_is_the_game_run_one_operation_at_a_time(
        name: str, players: int) -> None:
    path = ROOT / "games" / f"{name}.rules"
    fast, slow = rulelang.load(path, players=players), one_by_one(rulelang.load(path, players=players))
    for seed in range(2):
        assert played(fast, seed) == played(slow, seed)


RUNAWAY = """\
    game "G" { players 1 }
    var n: int = 0
    procedure deeper(k: int) {
      n += 1
      if k > 0 { call deeper(k - 1) }
      choose x in [1, 2] by players[0]
    }
    phase p {
      call deeper(60)
      repeat { n += 1 }
    }
"""


def test_steps_and_errors_are_those_of_the_run_loop(tmp_path: Path) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RUNAWAY), encoding="utf-8")
    errors = []
    for game in (rulelang.load(path), one_by_one(rulelang.load(path))):
        state = game.new_initial_state()
        assert len(state.frames) == 62 and state.to_json()["globals"]["n"] == 61  # 61 calls, deeper than in place
        for _ in range(60):
            state.apply_action(state.legal_actions(0)[0], player=0)
        with pytest.raises(RulesRuntimeError) as caught:
            state.apply_action(state.legal_actions(0)[0], player=0)
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and "E603" in errors[0]


FAILING = """\
    game "G" { players 1 }
    var n: int = 0
    phase p {
      repeat {
        choose x in [0, 1, 2] by players[0]
        n += 1
        n = 6 / x
        if 6 / (x - 1) > 0 { n += 1 }
      }
    }
"""


@pytest.mark.parametrize(("choice", "line"), [(0, 7), (1, 8)])
def test_an_error_in_code_written_in_place_is_located_at_its_statement(tmp_path: Path, choice: int,
                                                                       line: int) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(FAILING), encoding="utf-8")
    errors = []
    for game in (rulelang.load(path), one_by_one(rulelang.load(path))):
        state = game.new_initial_state()
        state.apply_action(state.legal_actions(0)[2], player=0)
        before = state.to_json()
        with pytest.raises(RulesRuntimeError) as caught:
            state.apply_action(state.legal_actions(0)[choice], player=0)
        assert state.to_json() == before
        errors.append((caught.value.diagnostic.span, str(caught.value)))
    assert errors[0] == errors[1]
    span = errors[0][0]
    assert span is not None and span.line == line


TURNS = """\
    game "G" { players 2 }
    var n: int = 0
    phase p {
      repeat {
        for q in players {
          choose x in [1, 2, 3] by q
          n += x
          choose y in [12 / (10 - n)] by q otherwise { end game }
        }
      }
    }
"""


def test_a_choice_written_in_place_asks_the_player_of_this_time_and_fails_where_its_list_does(tmp_path: Path) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(TURNS), encoding="utf-8")
    errors = []
    for game in (rulelang.load(path), one_by_one(rulelang.load(path))):
        state = game.new_initial_state()
        asked = []
        for _ in range(6):  # the same list [1, 2, 3] offered to each player in turn
            player = state.current_players()[0]
            asked.append(player)
            state.apply_action(state.legal_actions(player)[-1], player=player)
        assert asked == [0, 0, 1, 1, 0, 0]
        with pytest.raises(RulesRuntimeError) as caught:
            state.apply_action(state.legal_actions(1)[0], player=1)   # n = 10: a division by zero in the list
        errors.append((caught.value.diagnostic.span, str(caught.value)))
    assert errors[0] == errors[1]
    assert errors[0][0] is not None and errors[0][0].line == 8


BUDGETED = """\
    game "G" { players 1  max_steps STEPS }
    var n: int = 0
    phase p {
      repeat {
        for k in [1, 2, 3] {
          choose x in [1, 2] by players[0]
          if k > 1 { n += k } else { n -= 1 }
          for j in [k, x] { n += j }
          if n > 40 { end game }
        }
      }
    }
"""


def test_the_step_budget_stops_at_the_operation_of_the_run_loop(tmp_path: Path) -> None:
    # (the resumable function writes ``fr.pc`` where it is read: a step past the budget
    # still fails at the operation the run loop would name, for every budget)
    outcomes = []
    for steps in range(1, 16):
        path = tmp_path / f"game{steps}.rules"
        path.write_text(textwrap.dedent(BUDGETED).replace("STEPS", str(steps)), encoding="utf-8")
        fast, slow = played_to_the_end(rulelang.load(path)), played_to_the_end(one_by_one(rulelang.load(path)))
        assert fast == slow
        outcomes.append(fast)
    assert len({outcome[1] for outcome in outcomes if "E603" in str(outcome[0])}) >= 2   # (at 2 statements at least)


def test_a_choice_over_a_short_list_known_to_be_one_is_not_tested_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # (its options a comprehension over a list known at load, or a list written out)
    path = ROOT / "games" / "tic_tac_toe.rules"
    fast = rulelang.load(path)
    assert "if type(_o) is tuple" not in fast.generated_code()
    played_fast = [played(fast, seed) for seed in range(3)]
    monkeypatch.setattr(choices.ChoiceLowering, "_short", lambda self, source, lines: False)
    slow = rulelang.load(path)
    assert "if type(_o) is tuple" in slow.generated_code()
    assert played_fast == [played(slow, seed) for seed in range(3)]
