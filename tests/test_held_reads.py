"""A held local read once in a block of the resumable function (compiler/held_reads.py): the
lines after its first read in a branch take it from the Python local that read it (a search
written out reads it from there too, not from a copy); and a
'for' over a list known at load (``for p in players``) that starts its walk without the test
of its list (resumable.py, ``_start_in_place``: ``(LIST, 0)`` at once, ``fr.pc`` not written
first, nothing there fails); a table of the state read once a block. The same states, work and
step-budget errors as the general code."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import played_to_the_end, worked_states

import rulelang
from rulelang.interpreter.compiler import resumable

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "H" { players 1  max_steps STEPS }
player var score: int = 0
phase p {
  repeat {
    for q in players {
      choose n in [1, 2] by q
      q.score = q.score + n
      if q.score > 7 { end game }
      q.score = q.score + 1
    }
  }
}
"""


def _outcomes() -> list[tuple[object, ...]]:
    return [played_to_the_end(rulelang.load(RULES.replace("STEPS", str(steps)))) for steps in range(1, 40)]


def _reads(code: str) -> int:
    """How many times the code reads a local from the environment."""
    return len(re.findall(r"env\[_k\d+\](?! =)|_k\d+ in env", code))


def test_a_held_local_is_read_once_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the listing's reads counted with every statement's try kept: bare_tries.py drops the
    # ones read_once leaves without a read, and tails.py then copies more blocks in place)
    monkeypatch.setattr(resumable, "untried", lambda lines, anywhere=False: lines)
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    monkeypatch.setattr(resumable, "locals_read_once", lambda lines: lines)   # (read_once's reads alone)
    fast = [rulelang.load(GAMES / "tic_tac_toe.rules"), rulelang.load(RULES.replace("STEPS", "1000"))]
    played = [worked_states(game, seed) for game in fast for seed in range(8)]
    budgets = _outcomes()
    assert any("E603" in str(outcome[0]) for outcome in budgets) and type(budgets[-1][1]) is int
    monkeypatch.setattr(resumable, "read_once", lambda lines, held: lines)
    slow = [rulelang.load(GAMES / "tic_tac_toe.rules"), rulelang.load(RULES.replace("STEPS", "1000"))]
    for quick, general in zip(fast, slow, strict=True):
        assert _reads(quick.generated_code()) < _reads(general.generated_code())
    copied = re.compile(r"\n +_h\d+ = (_t\d+|env\[_k\d+\])\n +if \(\(\(_t\d+\[0\]\) is")   # (the win test's p)
    assert len(copied.findall(slow[0].generated_code())) == 1 + len(copied.findall(fast[0].generated_code()))
    assert played == [worked_states(game, seed) for game in slow for seed in range(8)]
    assert budgets == _outcomes()


STARTED = re.compile(r"env\[_k\d+\] = \(_k\d+, 0\)\n +pc = ")


def test_a_walk_over_a_list_known_at_load_starts_without_its_test(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert STARTED.search(fast.generated_code()) and STARTED.search(rulelang.load(RULES.replace("STEPS", "9"))
                                                                     .generated_code())
    played = [worked_states(fast, seed) for seed in range(8)]
    budgets = _outcomes()
    monkeypatch.setattr(resumable, "_short_tuple", lambda value: False)
    slow = rulelang.load(GAMES / "tic_tac_toe.rules")
    assert not STARTED.search(slow.generated_code())
    assert played == [worked_states(slow, seed) for seed in range(8)]
    assert budgets == _outcomes()


def test_a_table_of_the_state_is_read_once_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [rulelang.load(GAMES / "tic_tac_toe.rules"), rulelang.load(RULES.replace("STEPS", "1000"))]
    played = [worked_states(game, seed) for game in fast for seed in range(8)]
    budgets = _outcomes()
    monkeypatch.setattr(resumable, "table_read_once", lambda lines: lines)
    slow = [rulelang.load(GAMES / "tic_tac_toe.rules"), rulelang.load(RULES.replace("STEPS", "1000"))]
    for quick, general in zip(fast, slow, strict=True):   # (the write, then the test, read the table once)
        assert _tables(quick.generated_code()) < _tables(general.generated_code())
    assert played == [worked_states(game, seed) for game in slow for seed in range(8)]
    assert budgets == _outcomes()


def _tables(code: str) -> int:
    """How many times the resumable function reads a table of the state."""
    return len(re.findall(r"st\.(space|player)_values\[", code[code.index("def _r"):]))


REBOUND = """\
game "R" { players 1  max_steps 100000 }
var total: int = 0
phase p {
  repeat {
    choose n in [1, 2] by players[0]
    let t = n
    let i = 0
    while i < 3 {
      total += t
      i += 1
      for t in [5, 6] {
        let t = t + 1
        total += t
      }
    }
    if total > 500 { end game }
  }
}
"""


def test_a_local_written_before_a_loop_whose_inner_for_binds_it_again_is_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # ('for t' binds t with 'for env[K] in' (its body binds a t of its own): the next round of
    # the 'while' reads the t that loop left, not the one 'let' wrote)
    fast = rulelang.load(REBOUND)
    assert re.search(r"\n +for env\[_k\d+\] in ", fast.generated_code())
    played = [worked_states(fast, seed) for seed in range(3)]
    monkeypatch.setattr(resumable, "read_once", lambda lines, held: lines)
    assert played == [worked_states(rulelang.load(REBOUND), seed) for seed in range(3)]
