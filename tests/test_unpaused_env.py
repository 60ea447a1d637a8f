"""A procedure that may pause, run as a Python function until it does (compiler/unpaused.py),
whose names are each bound by one statement and none in a loop, keeps its locals and the walk
of its 'for' in Python locals alone and makes its environment only where it pauses
(``env_made_at_pauses``): the frames it leaves are those of the lowered code, a 'let' of a
branch not taken and the variable of a loop that ran no round left out as there."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written
from conftest import saved_states as played

import rulelang
from rulelang.interpreter.compiler import lower, unpaused

GAME = '''\
    game "G" { players 1 }
    var got: int = 0
    procedure pick(p: player, n: int) {
      if n % 2 == 0 { choose x in [n, n + 1] by p  got += x }
    }
    procedure walk(p: player, n: int) {
      let a = n * 2
      if n > 2 {
        let b = a + 1
        got += b
      }
      for i in 1..n {
        call pick(p, i + a)
        if got > 1000 { return }
      }
      call pick(p, n)
    }
    procedure looped(p: player, n: int) {
      for i in 1..n {
        let c = i + n
        call pick(p, c)
      }
    }
    procedure early(p: player, n: int) {
      if n > 2 {
        let e = n + 1
        if e > 100 { return }
        choose x in [e, n] by p
        got += x
      }
      let f = n * 3
      choose y in [f, 1] by p
      got += y
    }
    procedure late(p: player, n: int) {
      if n > 3 {
        let h = n - 1
        got += h
        return
      }
      choose v in [n, 2] by p
      got += v
    }
    phase main {
      call walk(players[0], N)
      call looped(players[0], N)
      call early(players[0], N)
      call late(players[0], N)
      end game
    }
'''


def load(tmp_path: Path, n: int) -> rulelang.Game:
    return load_written(tmp_path, GAME.replace("N", str(n)), players=1)


def function_at(game: rulelang.Game, line: int) -> str:
    units = re.split(r"\n(?=def )", code(game))
    return next(u for u in units if f"procedure at line {line}, column 1, until it pauses" in u)


def states(game: rulelang.Game) -> list[str]:
    return [json.dumps(s) for seed in range(3) for s in played(game, seed)]


def test_a_function_whose_names_are_bound_once_outside_loops_makes_its_environment_where_it_pauses(tmp_path):
    game = load(tmp_path, 3)
    walk, looped = function_at(game, 6), function_at(game, 18)
    before_pause = walk[:walk.index("env = {}")]
    assert "env" not in before_pause.split("\n", 1)[1]
    assert "except NameError" in walk   # (i, bound only if the loop ran a round)
    assert looped.split("\n")[1].strip().startswith("env = {")   # (a 'let' in a loop: written as it goes)


def test_a_local_of_a_block_that_paused_or_returned_is_not_looked_for_where_it_pauses_after_it(tmp_path):
    game = load(tmp_path, 3)
    early, late = function_at(game, 24), function_at(game, 35)
    assert early.count("env = {}") == 2 and "except NameError" not in early   # (e: bound only in a block that paused)
    assert late.count("env = {}") == 1 and "except NameError" not in late   # (h: in one that returned)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_its_frames_are_those_of_the_lowered_code_and_of_the_environment_written_as_it_goes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    made_at_pauses = states(load(tmp_path, n))
    with monkeypatch.context() as m:
        m.setattr(unpaused, "env_made_at_pauses", lambda decl: False)
        assert states(load(tmp_path, n)) == made_at_pauses
    monkeypatch.setattr(lower, "pauses_at_once", lambda decl, cat: True)
    pushing = load(tmp_path, n)
    assert "until it pauses" not in code(pushing)
    assert states(pushing) == made_at_pauses
