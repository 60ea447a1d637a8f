"""A statement's ``try`` of an unbound local dropped where its lines read no entry of the
environment any more (interpreter/compiler/bare_tries.py): the block a ``continue`` among them
goes to is then written in place (tails.py). A game runs as with the ``try`` kept and as the
run loop running one operation at a time: at every step budget the same error at the same
place with the same counters (a division by zero in the test that lost its ``try`` too), and
otherwise the same states and work."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_tails import MENU, counters_recorded

import rulelang
from rulelang.interpreter.compiler import resumable

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)

DRAWS = MENU.replace("""\
              drawn += 1
              if drawn % 3 == 0 {""", """\
              let k = drawn + 1
              drawn = k
              if 12 / (k - 6) < 0 and k % 3 == 0 {""")


def loaded(tmp_path: Path, name: str) -> rulelang.Game:
    return load_written(tmp_path, DRAWS)


def _raid(game: rulelang.Game) -> str:
    return str(game.program.generated.units[game.program.code["raid"].ops.run.__name__])


@pytest.mark.usefixtures("counters_recorded")
def test_a_test_without_its_try_fails_at_every_budget_where_it_did(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bare = loaded(tmp_path, "bare")
    with monkeypatch.context() as patch:   # (every try kept)
        patch.setattr(resumable, "untried", lambda lines, anywhere=False: lines)
        tried = loaded(tmp_path, "tried")
    slow = one_by_one(loaded(tmp_path, "slow"))
    test = r"# test at line 12, column 14\n +"
    assert re.search(test + "if not", _raid(bare)) and re.search(test + "try:", _raid(tried))
    assert _raid(bare).count("# test at line 7") > _raid(tried).count("# test at line 7")   # (the loop's test in place)
    outcomes = failures_where_all_agree((bare, tried, slow), 4, range(1, 90))
    failures = {re.sub(r"^.*?: ", "", str(f[0]))[:4] for f in outcomes}
    assert failures >= {"E603", "E602"}   # (the budget, and the division by zero at the test)


def test_the_draw_goes_on_to_the_loop_test_in_place() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    raid = _raid(game)
    # (the test of the token drawn reads a Python local: no try, and the loop's test follows it in place)
    tested = r"\n( +)if not \(.*_held\d+.*\):\n\1    pc = \d+\n\1    steps \+= 2\n\1    # test at line"
    assert re.search(tested, raid)
