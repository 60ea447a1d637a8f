"""`rulelang play` applies a choice with one option for the person (said so, and taken back
with the person's choice before it), unless --ask-always; counts are worded in the singular
for one ("1 option")."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

ONE_OPTION = Path(__file__).resolve().parent / "data" / "one_option.rules"   # first, only (one option), last
APPLIED = "only: 10 (the only option, applied for you"


@pytest.fixture
def forced() -> str:
    return str(ONE_OPTION)


def play(path: str, answers: str, *options: str) -> str:
    result = CliRunner().invoke(main, ["play", path, "--seed", "1", *options], input=answers)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_choice_with_one_option_is_applied_and_said(forced):
    output = play(forced, "2\n1\n")   # two answers: the choice of 10 is not asked
    assert output.count(APPLIED) == 1 and "u at your next choice takes it back" in output
    assert output.count("your choice [") == 2 and "player 1 112" in output
    assert "1 option" not in output   # no view of the one-option choice: it is not asked


def test_ask_always_asks_the_one_option_choice_too(forced):
    output = play(forced, "2\n1\n1\n", "--ask-always")
    assert APPLIED not in output and "your choice [1-1, u: undo]" in output and "player 1 112" in output
    assert "your choice (choice): 1 option " in output   # counted in the singular
    assert "your choice (choice): 2 options" in output


def test_undo_takes_back_the_applied_choice_with_the_persons_choice_before_it(forced):
    output = play(forced, "2\nu\n1\n2\n")
    assert "your last choice is taken back, with the 1 choice applied for you after it" in output
    assert output.count(APPLIED) == 2 and "player 1 211" in output   # 1 + 10 + 200 after the undo


def test_a_game_that_starts_with_a_one_option_choice_has_nothing_to_take_back(forced, tmp_path):
    path = tmp_path / "starts.rules"
    path.write_text(ONE_OPTION.read_text().replace("[1, 2]", "[1]"))
    output = play(str(path), "u\n1\n")
    assert output.count("(the only option, applied for you)") == 2   # no undo offered: nothing of yours behind
    assert "nothing to take back yet" in output and "player 1 111" in output


def test_the_header_and_a_bad_seat_count_in_the_singular(tmp_path):
    path = tmp_path / "solo.rules"
    path.write_text('game "solo" { players 1 }\nphase main {\n  choose x in [1, 2] by players[0]\n  end game\n}\n')
    assert "solo: 1 player, you are player 1" in play(str(path), "1\n")
    bad = CliRunner().invoke(main, ["play", str(path), "--seat", "2"], input="")
    assert bad.exit_code == 2 and "this game has 1 seat" in bad.output and "1 seats" not in bad.output


TOBAGO = str(Path(__file__).resolve().parent.parent / "games" / "tobago.rules")


def test_a_fitted_screen_turns_pages_and_shows_the_whole_log_and_view_on_demand():
    output = play(TOBAGO, "n\nl\nz\ns\n", "--screen", "60x30")
    screens = output.split("your choice [")
    first = screens[0].splitlines()
    assert len(first) - 1 <= 29 and "options 1-40 of 75 (page 1 of 2); n: next page" in screens[0]   # 1: the seed line
    assert "1-75, n: next page, l: whole log, z: whole view, s: screen]" in screens[1]
    assert "options 41-75 of 75 (page 2 of 2); p: previous page" in screens[1]
    assert re.search(r"log \(last (\d+) of \1\)", screens[2]) and "l: the whole log" not in screens[2]
    assert "board island" in screens[3] and "players (* to act)" in screens[3]   # the whole view
    assert "options 41-75 of 75" in screens[4] and "end of input" in output      # the screen again


def test_a_screen_size_that_is_not_one_is_refused():
    bad = CliRunner().invoke(main, ["play", TOBAGO, "--screen", "wide"], input="")
    assert bad.exit_code == 2 and "'wide' is not WIDTHxHEIGHT, at least 40x10" in bad.output
