"""The resumable functions' blocks (interpreter/compiler/blocks.py): operations that go on
to the next run one after the other, entered only at their first, their steps counted
together. At every step budget, a game fails (or ends) as the function that tests the
counter and counts a step at each operation makes it, and as the run loop running one
operation at a time (``run_one``) does: the same error at the same place, after the same
count of steps, with the same program counters in every frame."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import load_written

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import resumable
from rulelang.interpreter.model.program import run_one
from rulelang.interpreter.state.state import State

ROOT = Path(__file__).resolve().parent.parent

RULES = """\
    game "G" { players 2 }
    var n: int = 0
    player var score: int = 0
    procedure tally(k: int) {
      for j in [1, k, 2] {
        n += j
        if n % 9 == 0 { choose y in [1, 2] by players[0] }
      }
    }
    phase p {
      repeat {
        for q in players {
          choose x in [1, 2, 3] by q otherwise { end game }
          n += x
          if n % 4 == 0 { choose z in [1, 2] by q }
          q.score += 60 / (n / 40 - 1)
          for j in [1, x, 2, x] {
            n += j
            if n % 11 == 0 { choose w in [1, 2] by q }
          }
          call tally(x)
          if q.score > 90 or n > 150 { end game }
        }
      }
    }
"""


def one_by_one(game: rulelang.Game) -> rulelang.Game:
    for code in game.program.code.values():
        code.ops.run = run_one
    return game


def outcome(game: rulelang.Game, budget: int, seed: int) -> tuple[object, ...]:
    """A random game (seeded ``seed``) at step budget ``budget``: where it fails (the error,
    its span, and every frame's counter where the step budget ran out), or its saved state
    and work at the end."""
    game.max_steps = budget
    frames: list[list[tuple[str, int]]] = []
    chooser = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    except RulesRuntimeError as error:   # (the counters as the step budget ran out; elsewhere a line's span locates it)
        return str(error), error.diagnostic.span, frames if error.diagnostic.code == "E603" else None
    finally:
        frames.extend(_failed_at)
        _failed_at.clear()
    return state.to_json(), state.work


_failed_at: list[list[tuple[str, int]]] = []


@pytest.fixture
def counters_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Record the frames' counters where the rules fail (before the state is put back)."""
    located = State._as_rulelang_error

    def recorded(self: State, error: Exception) -> rulelang.RulelangError:
        _failed_at.append([(fr.name, fr.pc) for fr in self.frames])
        return located(self, error)
    # (none left by another test: one that fails outside ``outcome`` leaves its counters,
    # and the next test's first outcome would take them for its own)
    _failed_at.clear()
    monkeypatch.setattr(State, "_as_rulelang_error", recorded)

def failures_where_all_agree(games: tuple[rulelang.Game, ...], seeds: int, budgets: range) -> list[tuple[object, ...]]:
    """The outcomes that end in an error, of random games seeded 0..seeds-1 at each budget of
    ``budgets``, once every game of ``games`` is shown to give the same outcome as the first."""
    failures: list[tuple[object, ...]] = []
    for seed in range(seeds):
        for budget in budgets:
            seen = [outcome(game, budget, seed) for game in games]
            assert all(other == seen[0] for other in seen[1:]), (seed, budget)
            if len(seen[0]) == 3:
                failures.append(seen[0])
    return failures



def loaded(tmp_path: Path) -> rulelang.Game:
    return load_written(tmp_path, RULES)


@pytest.mark.usefixtures("counters_recorded")
def test_blocks_fail_at_every_budget_where_operations_counted_one_by_one_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = loaded(tmp_path)
    with monkeypatch.context() as patch:   # (every operation its own block, entered at its start)
        patch.setattr(resumable, "entries", lambda code, operations: (set(range(len(operations))), set()))
        single = loaded(tmp_path)
    slow = one_by_one(loaded(tmp_path))
    assert re.search(r"steps \+= [3-9]", blocks.generated_code())   # (runs of operations counted at once)
    assert not re.search(r"steps \+= [2-9]", single.generated_code())
    failures = {(str(f[0]).split(":")[0], str(f[2]))
                for f in failures_where_all_agree((blocks, single, slow), 3, range(1, 160))}
    assert len(failures) >= 10   # (the budget ends at many places, and the division fails)


def test_a_position_no_block_starts_at_runs_as_the_run_loop_runs_it(tmp_path: Path) -> None:
    # (a saved state may stand anywhere: the function runs one operation there, then goes on)
    game = loaded(tmp_path)
    state = game.new_initial_state(seed=1)
    state.apply_action(state.legal_actions(0)[1], player=0)
    frame = state.frames[-1]
    code = game.program.code[frame.name]
    starts, _ = resumable.entries(code, [resumable._operation(code, at, game.program.generated, True)
                                         for at in range(len(code.ops))])
    inside = [at for at in range(len(code.ops)) if at not in starts]
    assert inside
    for at in inside:
        fast, slow = state.clone(), one_by_one(loaded(tmp_path)).new_initial_state(seed=1)
        slow.apply_action(slow.legal_actions(0)[1], player=0)
        for moved in (fast, slow):
            moved.frames[-1].pc = at
        assert ran(fast) == ran(slow), at


def ran(state: State) -> tuple[object, ...]:
    """What ``state`` comes to when it runs on: its saved state, work and counters, or its error."""
    try:
        state.run()
    except rulelang.RulelangError as error:
        return type(error), str(error), error.diagnostic.span
    return state.to_json(), state.work, [fr.pc for fr in state.frames]


@pytest.mark.parametrize(("name", "players"), [("tic_tac_toe", 2), ("jolly_roger", 4)])
def test_the_seed_games_enter_their_functions_at_fewer_operations(name: str, players: int) -> None:
    game = rulelang.load(ROOT / "games" / f"{name}.rules", players=players)
    code = game.generated_code()
    operations = sum(len(c.ops) for c in game.program.code.values())
    assert len(re.findall(r"if pc == \d+:", code)) < operations
    assert re.search(r"steps \+= [2-9]", code)
    assert re.search(r"if pc == \d+ or pc == \d+:", code)   # (a pause counted with the block before it)
