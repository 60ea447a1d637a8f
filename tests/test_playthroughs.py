"""Every ruleset replays exactly its kept playthrough (seed 0, seeded random agents).

A difference means the ruleset or the engine now plays differently: if that is intended,
run ``python tests/playthroughs/regenerate.py`` and review the diff before committing.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "playthroughs"))

from regenerate import cases, trace_file

import rulelang
from rulelang.interpreter.sim.playthrough import playthrough

CASES = list(cases())


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_ruleset_replays_its_playthrough(path, players):
    kept = trace_file(path, players)
    assert kept.exists(), f"no playthrough kept for {path.name} with {players} players: run regenerate.py"
    actual = playthrough(rulelang.load(path, players=players), seed=0)
    assert actual == kept.read_text()


def test_playthrough_depends_on_the_seed():
    game = rulelang.load(CASES[0][0], players=CASES[0][1])
    assert playthrough(game, seed=0) != playthrough(game, seed=1)
