"""The block where the run goes on after a pause, written before a resumable function's loop
(interpreter/compiler/preludes.py): entered there, the function runs it at once, not after the
dispatch's tests, and goes on in place to the blocks it goes to. A game runs as it did without
it, and as the run loop running one operation at a time: at every step budget the same error
at the same place with the same counters, and otherwise the same states and work."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import RULES, counters_recorded, failures_where_all_agree, one_by_one
from test_tails import MENU

import rulelang
from rulelang.interpreter.compiler import preludes, resumable

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)


def loaded(tmp_path: Path, rules: str) -> rulelang.Game:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(rules), encoding="utf-8")
    return rulelang.load(path)


# A menu of three options in a procedure called in a loop, a call after it that may pause,
# and a division that fails: the run goes on at each option, and after each call, from outside.
CALLS = """\
    game "C" { players 2 }
    var n: int = 0
    player var score: int = 0
    procedure pick(p: player) {
      choose by p prompt "how many" {
        option "one" { n += 1 }
        option "two" {
          n += 2
          if n % 6 == 0 { n += 1 }
        }
        option "none" {
          if n % 5 == 0 { n += 3 }
        }
      }
    }
    procedure tally(k: int) {
      for j in [1, k] {
        n += j
        if n % 7 == 0 { choose y in [1, 2] by players[0] }
      }
    }
    phase p {
      repeat {
        for q in players {
          call pick(q)
          call tally(n % 3)
          q.score += 60 / (n / 40 - 1)
          if q.score > 90 or n > 150 { end game }
        }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
@pytest.mark.parametrize("rules", [RULES, MENU, CALLS])
def test_a_block_run_first_fails_at_every_budget_where_the_dispatch_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    first = loaded(tmp_path, rules)
    with monkeypatch.context() as patch:   # (every entry through the dispatch)
        patch.setattr(resumable, "preludes", lambda code, blocks: [])
        dispatched = loaded(tmp_path, rules)
    slow = one_by_one(loaded(tmp_path, rules))
    assert re.search(r"\n    if pc == \d+:\n        while True:\n", first.generated_code())
    assert not re.search(r"\n    if pc == \d+:\n        while True:\n", dispatched.generated_code())
    with monkeypatch.context() as patch:   # (as before: the blocks after a pause only, nothing in place)
        patch.setattr(preludes, "DEPTH", 0)
        patch.setattr(preludes, "_entered_at", lambda code, blocks: preludes._paused_at(code))
        alone = loaded(tmp_path, rules)
    failures = failures_where_all_agree((first, dispatched, alone, slow), 3, range(1, 120))
    assert failures


def test_every_option_of_a_menu_and_the_blocks_after_it_come_first(tmp_path: Path) -> None:
    game = loaded(tmp_path, CALLS)
    run = game.program.generated.units[game.program.code["pick"].ops.run.__name__]
    head = run.split("\n    while True:\n")[0]
    tests = re.findall(r"\n    (?:el)?if pc == (\d+):\n        while True:\n", head)
    assert len(tests) >= 3   # (the menu's three options)
    for prelude in re.split(r"\n    (?:el)?if pc == \d+:\n", head)[1:]:   # (each goes on to the end in place)
        assert "return steps" in prelude and "break" not in prelude.replace("return steps\n            break", "")
    phase = game.program.generated.units[game.program.code["p"].ops.run.__name__]
    assert phase.count("pc = fr.pc") == 1   # (where it is entered: after a call, where its lines wrote it)


@pytest.mark.parametrize(("name", "players", "procedure", "position"),
                         [("tic_tac_toe", 2, "play", 5), ("jolly_roger", 4, "voyage", 8),
                          ("jolly_roger", 4, "raid", 9)])
def test_where_a_seed_game_goes_on_after_a_choice_its_block_comes_first(
        name: str, players: int, procedure: str, position: int) -> None:
    game = rulelang.load(ROOT / "games" / f"{name}.rules", players=players)
    run = game.program.generated.units[game.program.code[procedure].ops.run.__name__]
    head = run.split("\n    while True:\n")[0]
    assert f"\n    if pc == {position}:\n        while True:\n" in head
    assert "continue" not in head   # (its ways back to the dispatch leave the prelude's loop)


def test_the_raid_goes_on_from_each_option_to_the_menu_again_in_place() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    run = game.program.generated.units[game.program.code["raid"].ops.run.__name__]
    head = run.split("\n    while True:\n")[0]
    preludes_of = dict(zip(re.findall(r"\n    (?:el)?if pc == (\d+):\n", head),
                           re.split(r"\n    (?:el)?if pc == \d+:\n", head)[1:], strict=True))
    assert {"9", "15"} <= set(preludes_of)   # (the menu's two options)
    for prelude in (preludes_of["9"], preludes_of["15"]):
        assert "fr.pc = 8" in prelude   # (the menu again, for the next player too)


def test_where_a_procedure_run_as_a_function_pushes_its_frame_its_block_comes_first() -> None:
    game = rulelang.load(ROOT / "games" / "tobago.rules", players=4)
    code = game.program.code["turn"]
    head = game.program.generated.units[code.ops.run.__name__].split("\n    while True:\n")[0]
    tested = {int(n) for n in re.findall(r"\n    (?:el)?if pc == (\d+):\n        while True:\n", head)}
    assert {at for at in code.stops if at not in code.local} <= tested   # (the choice, entered there at a third
    assert len(tested) <= preludes.MOST                                    # of the decisions)
