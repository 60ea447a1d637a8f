"""Blocks of a resumable function written in place of a 'continue' to them
(interpreter/compiler/tails.py), and the operations after a jump that nothing goes to, which
start no block (blocks.py, ``Code.resumed``): a game runs as it did, at every step budget
the same error at the same place with the same counters, and otherwise the same states and
work, as with every 'continue' going back to the dispatch and as the run loop running one
operation at a time."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import RULES, counters_recorded, failures_where_all_agree, one_by_one, ran

import rulelang
from rulelang.interpreter.compiler import resumable, tails

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)

MENU = """\
    game "M" { players 2 }
    var drawn: int = 0
    var gold: int = 0
    procedure raid() {
      for p in players {
        let lost = false
        while drawn < 7 {
          choose by p prompt "draw or stop" {
            option "draw" {
              drawn += 1
              if drawn % 3 == 0 {
                lost = true
                break
              }
            }
            option "stop" {
              break
            }
          }
        }
        if not lost { gold += 10 / (5 - drawn) }
      }
    }
    phase play {
      repeat {
        call raid()
        if drawn >= 7 { end game }
      }
    }
"""


def loaded(tmp_path: Path, rules: str, name: str) -> rulelang.Game:
    return load_written(tmp_path, rules)


@pytest.mark.usefixtures("counters_recorded")
@pytest.mark.parametrize("rules", [RULES, MENU])
def test_blocks_written_in_place_fail_at_every_budget_where_the_dispatch_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    joined = loaded(tmp_path, rules, "joined")
    with monkeypatch.context() as patch:   # (every 'continue' back to the dispatch)
        patch.setattr(tails, "in_place", lambda found: found)
        dispatched = loaded(tmp_path, rules, "dispatched")
    slow = one_by_one(loaded(tmp_path, rules, "slow"))
    assert joined.generated_code().count("continue") > dispatched.generated_code().count("continue")
    failures = {str(f[0]).split(":")[0] for f in failures_where_all_agree((joined, dispatched, slow), 3, range(1, 120))}
    assert failures


def test_the_card_played_goes_on_to_the_next_player_without_the_dispatch() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    voyage = game.program.generated.units[game.program.code["voyage"].ops.run.__name__]
    # (the move of the card played, then the next round of 'for p in line' in place, no 'continue';
    # its step counted, the budget tested only where the function goes back: optimistic.py)
    assert re.search(r"\n( +)pc = 6\n\1steps \+= 1\n\1_seq, _i = env\[_k\d+\]\n", voyage)


def test_after_a_break_no_block_starts_but_a_menus_options_do(tmp_path: Path) -> None:
    game = loaded(tmp_path, MENU, "menu")
    code = game.program.code["raid"]
    operations = [resumable._operation(code, at, game.program.generated, True) for at in range(len(code.ops))]
    starts, _ = resumable.entries(code, operations)
    jumps = {at for at, shape in code.shapes.items() if shape[0] == "jump"}
    dead = {at for at in jumps if at not in code.resumed and at - 1 in code.local}
    assert dead and not dead & starts   # (the jumps after 'lost = true; break' and at the end of "stop")
    assert code.resumed & jumps <= starts   # ("stop" starts with its 'break')


def test_a_game_at_an_operation_nothing_goes_to_runs_as_the_run_loop_runs_it(tmp_path: Path) -> None:
    game = loaded(tmp_path, MENU, "menu")
    state = game.new_initial_state(seed=1)
    code = game.program.code["raid"]
    dead = [at for at, shape in code.shapes.items() if shape[0] == "jump" and at not in code.resumed]
    assert dead
    for at in dead:   # (a saved state may stand there)
        fast = state.clone()
        slow = one_by_one(loaded(tmp_path, MENU, "slow")).new_initial_state(seed=1)
        for moved in (fast, slow):
            moved.frames[-1].pc = at
        assert ran(fast) == ran(slow), at
