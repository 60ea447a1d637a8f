"""The step budget running out where a procedure returns (its frame past its last operation)
is located at the procedure's last operation (a statement of its body), as everywhere else
at a statement: it had no span. A random game of test_walks_and_counts' ruleset found it (a 'for' whose body may pause,
the procedure's last statement)."""
from __future__ import annotations

import random

from test_walks_and_counts import WALKED

import rulelang
from rulelang.errors import RulesRuntimeError


def _failure(game: rulelang.Game, seed: int) -> tuple[int | None, str] | None:
    """(line, message) of the E603 of a random game of ``game``, if it stops with one."""
    chooser = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
    except RulesRuntimeError as error:
        (diagnostic,) = error.diagnostics
        assert diagnostic.code == "E603"
        return (diagnostic.span.line if diagnostic.span else None), diagnostic.message
    return None


def test_every_budget_that_runs_out_is_located() -> None:
    text = WALKED.replace("FAILS", "4")
    failures = [failure for steps in range(1, 30) for seed in range(4)
                if (failure := _failure(rulelang.load(text.replace("STEPS", str(steps))), seed))]
    assert all(line is not None for line, _ in failures), [f for f in failures if f[0] is None]
    lines = text.splitlines()
    body = range(lines.index("procedure round() {") + 2, lines.index("phase play {"))   # (its lines, 1-based)
    returning = "the rules ran 7 steps without reaching a decision (in round)"
    at_return = [line for line, message in failures if message == returning]
    assert at_return and all(line in body for line in at_return), at_return
