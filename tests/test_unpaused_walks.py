"""The walk of a 'for' whose body may pause, in the function that runs a procedure until it
pauses (unpaused.py, where its environment is made as it runs): the list and the next index
in Python locals, written to the environment where the body pauses, so the frame pushed
there goes on inside the loop as the lowered code's would: the same states as pushing a
frame at every call."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from conftest import saved_states as played
from test_unpaused import PAUSES_INSIDE, pushing_frames

import rulelang

ROOT = Path(__file__).resolve().parent.parent


def until_it_pauses(game: rulelang.Game) -> list[str]:
    """The functions of ``game`` that run a procedure until it pauses."""
    return [unit for unit in game.program.generated.units.values() if "until it pauses" in unit.split("\n", 1)[0]]


def test_a_loop_that_may_pause_walks_its_list_in_python_locals() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    walked = [unit for unit in until_it_pauses(game) if re.search(r"for _l\d+ in _seq\d+:", unit)]
    assert walked   # (the reline's 'for p in players' around its choice of a place)
    assert not any("_seq, _i = env[" in unit for unit in until_it_pauses(game))
    assert any(re.search(r"env\[_k\d+\] = \(_seq\d+, _i\d+\)\n\s*_f = _new_frame", unit) for unit in walked)


def test_pauses_in_walked_loops_leave_the_frames_of_the_lowered_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(PAUSES_INSIDE), encoding="utf-8")
    fast = rulelang.load(path)
    with monkeypatch.context() as patch:
        pushing_frames(patch)
        slow = rulelang.load(path)
    assert any(re.search(r"for _l\d+ in _seq\d+:", unit) for unit in until_it_pauses(fast))
    for seed in range(10):
        assert played(fast, seed) == played(slow, seed)
