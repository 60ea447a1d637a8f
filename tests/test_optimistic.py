"""The step budget tested only where a resumable function goes back (compiler/optimistic.py),
and a run that passes it run again one operation at a time (state/precise.py): at every
budget, a game fails where, and as, the run loop counting one operation at a time fails (the
same error, span and frames' counters), and otherwise ends in the same states and work."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import counters_recorded, failures_where_all_agree, loaded, one_by_one, ran

import rulelang
from rulelang.errors import InternalError, RulesRuntimeError
from rulelang.interpreter.compiler.optimistic import OVERRUN, untested

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)


@pytest.mark.parametrize(("name", "players"), [("tic_tac_toe", 2), ("jolly_roger", 4), ("asterix", 4)])
def test_the_seed_games_test_the_budget_only_where_their_functions_go_back(name: str, players: int) -> None:
    game = rulelang.load(ROOT / "games" / f"{name}.rules", players=players)
    tested = 0
    for code in game.program.code.values():
        run = game.program.generated.units.get(code.ops.run.__name__)
        if run is None:
            continue
        assert not re.search(r"if steps \+ \d+ > limit", run)
        lines = run.split("\n")
        tests = [n for n, line in enumerate(lines) if "if steps > limit" in line]
        assert all(lines[n].strip() == OVERRUN and lines[n + 1].strip() == "continue" for n in tests)
        assert len(tests) == sum(line.strip() == "continue" for line in lines)   # (every way back tests it)
        assert re.search(r"steps \+= \d+", run)   # (the count is kept: exact)
        tested += len(tests)
    assert tested


@pytest.mark.usefixtures("counters_recorded")
@pytest.mark.parametrize(("name", "players", "budgets", "places"), [("jolly_roger", 4, range(1, 400, 7), 3),
                                                                    ("tic_tac_toe", 2, range(1, 40), 2)])
def test_a_seed_game_fails_at_every_budget_as_the_run_loop_counting_one_by_one(
        name: str, players: int, budgets: range, places: int) -> None:
    fast = rulelang.load(ROOT / "games" / f"{name}.rules", players=players)
    slow = one_by_one(rulelang.load(ROOT / "games" / f"{name}.rules", players=players))
    failures = failures_where_all_agree((fast, slow), 2, budgets)
    assert len({f[1] for f in failures}) >= places   # (the budget runs out at several statements)


def test_a_state_run_on_past_the_budget_fails_as_one_by_one(tmp_path: Path) -> None:
    # (State.run, as a saved state or a scenario's given block runs on: from every position)
    fast, slow = loaded(tmp_path), one_by_one(loaded(tmp_path))
    outcomes = set()
    for at in range(len(fast.program.code["p"].ops)):
        for budget in range(1, 25, 2):
            seen = []
            for game in (fast, slow):
                game.max_steps = 500
                state = game.new_initial_state(seed=1)
                state.apply_action(state.legal_actions(0)[1], player=0)
                state.pending = None
                state.frames[-1].pc = at
                game.max_steps = budget
                seen.append(ran(state))
            assert seen[0] == seen[1], (at, budget)
            outcomes.add(repr(seen[0][2]))   # (the span where it fails, or the counters where it pauses)
    assert len(outcomes) > 5


START = """\
    game "S" { players 2 }
    die d = [1, 2, 3, 4, 5, 6]
    var n: int = 0
    phase p {
      repeat {
        for j in [2, 3, 4] {
          n += j
          if n % 13 == 0 { choose v in [1, 2] by players[1] }
        }
        let a = roll d
        for j in [1, a, 2, a, 3] {
          n += j
          if n % 11 == 0 { choose w in [1, 2] by players[0] }
        }
        n += 10 / (n % 7)
        choose x in [1, 2] by players[0]
        if n > 60 { end game }
      }
    }
"""


@pytest.mark.parametrize("explicit_chance", [False, True])
def test_a_new_game_past_the_budget_fails_as_one_by_one(tmp_path: Path, explicit_chance: bool) -> None:
    # (a new game runs on from its shared start, up to the roll, or from its setup with explicit chance)
    path = tmp_path / "start.rules"
    path.write_text(textwrap.dedent(START), encoding="utf-8")
    games = (rulelang.load(path), one_by_one(rulelang.load(path)))
    failures = set()
    for seed in range(4):
        for budget in range(1, 40):
            seen = []
            for game in games:
                game.max_steps = budget
                try:
                    state = game.new_initial_state(seed=seed, explicit_chance=explicit_chance)
                    if explicit_chance:
                        state.apply_action(state.legal_actions()[seed % 6])
                except RulesRuntimeError as error:
                    seen.append(("failed", str(error), error.diagnostic.span))
                    continue
                seen.append(("ran", state.to_json(), state.work))
            assert seen[0] == seen[1], (seed, budget)
            failures.update(str(outcome[2]) for outcome in seen if outcome[0] == "failed")
    assert len(failures) >= 3   # (the budget, at several statements, and the division by zero)


UNBOUND = """\
    game "U" { players 2 }
    var n: int = 0
    phase p {
      repeat {
        choose x in [1, 2, 3] by players[0]
        for i in [] { }
        for j in [1, x, 2] {
          n += j
          if n % 7 == 0 { choose w in [1, 2] by players[1] }
        }
        if x == 3 and n > 12 { n += i }
        if n > 40 { end game }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
def test_a_local_read_before_it_has_a_value_fails_as_one_by_one_without_its_try(tmp_path: Path) -> None:
    # (the function compiled locates no error: its reads of the environment keep no 'try')
    path = tmp_path / "unbound.rules"
    path.write_text(textwrap.dedent(UNBOUND), encoding="utf-8")
    fast, slow = rulelang.load(path), one_by_one(rulelang.load(path))
    run = fast.program.generated.units[fast.program.code["p"].ops.run.__name__]
    assert "env[" in run and "raise _unbound" not in run
    failures = {f[0].split(": ", 1)[1][:30] for f in failures_where_all_agree((fast, slow), 6, range(1, 80))}
    assert "E602 'i' has no value here (in" in failures and any(f.startswith("E603") for f in failures)


def test_a_compiled_run_that_fails_where_the_run_one_by_one_does_not_is_a_bug_and_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a bug of rulelang can make the two runs disagree: the action is refused with E900,
    the state is as it was, and nothing enters the history that a later replay would meet (a
    state loaded from its data, so that putting it back replays nothing through the fault)."""
    game = rulelang.load(ROOT / "games" / "tic_tac_toe.rules")
    played = game.new_initial_state()
    played.apply_action(played.legal_actions()[0])
    state = game.state_from_json(played.to_json())
    before, action = state.to_json(), state.legal_actions()[0]

    def broken(*args: object) -> int:
        raise ValueError("a fault of the compiled code")

    monkeypatch.setattr(state.frames[-1].code, "run", broken)
    with pytest.raises(InternalError) as raised:
        state.apply_action(action)
    assert raised.value.diagnostic.code == "E900" and "a fault of the compiled code" in raised.value.diagnostic.message
    assert raised.value.diagnostic.span is not None   # (located in the rules, where the compiled run was)
    assert state.to_json() == before and len(state.history()) == 1
    monkeypatch.undo()
    state.apply_action(action)   # (the same action, the code mended: applied)
    assert len(state.history()) == 2


def test_every_way_back_gets_the_budgets_test_or_the_function_is_refused() -> None:
    """A 'continue' of the function's own loop that the budget's test could not precede (on a
    line of its own) would let a runaway loop of the rules run for good: compiling refuses it."""
    head = [("def _r1(st, fr, steps, limit):", None), ("    while True:", None)]
    tested = untested([*head, ("        steps += 1", None), ("        continue", None)])
    assert [line for line, _ in tested][-2:] == ["        " + OVERRUN, "        continue"]
    for hidden in ("        if pc == 3: continue", "        continue  # (back)", "        pc = 2; continue"):
        with pytest.raises(AssertionError, match="way back"):
            untested([*head, (hidden, None)])
