"""The block where the run goes on after a pause, written before a resumable function's loop
(interpreter/compiler/preludes.py): entered there, the function runs it at once, not after the
dispatch's tests. A game runs as it did without it, and as the run loop running one operation
at a time: at every step budget the same error at the same place with the same counters, and
otherwise the same states and work."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import RULES, counters_recorded, failures_where_all_agree, one_by_one
from test_tails import MENU

import rulelang
from rulelang.interpreter.compiler import resumable

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)


def loaded(tmp_path: Path, rules: str) -> rulelang.Game:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(rules), encoding="utf-8")
    return rulelang.load(path)


@pytest.mark.usefixtures("counters_recorded")
@pytest.mark.parametrize("rules", [RULES, MENU])
def test_a_block_run_first_fails_at_every_budget_where_the_dispatch_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    first = loaded(tmp_path, rules)
    with monkeypatch.context() as patch:   # (every entry through the dispatch)
        patch.setattr(resumable, "preludes", lambda code, blocks: [])
        dispatched = loaded(tmp_path, rules)
    slow = one_by_one(loaded(tmp_path, rules))
    assert re.search(r"\n    if pc == \d+:\n        while True:\n", first.generated_code())
    assert not re.search(r"\n    if pc == \d+:\n        while True:\n", dispatched.generated_code())
    failures = failures_where_all_agree((first, dispatched, slow), 3, range(1, 120))
    assert failures


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
