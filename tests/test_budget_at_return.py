"""The step budget running out where a procedure returns (its frame past its last operation)
is located at the procedure's last operation (a statement of its body), as everywhere else
at a statement: it had no span. A random game of test_walks_and_counts' ruleset found it (a
'for' whose body may pause, the procedure's last statement)."""
from __future__ import annotations

from conftest import states_or_error
from test_walks_and_counts import WALKED


def test_every_budget_that_runs_out_is_located() -> None:
    text = WALKED.replace("FAILS", "4")
    lines = text.splitlines()
    body = range(lines.index("procedure round() {") + 2, lines.index("phase play {"))   # (its lines, 1-based)
    # (states_or_error gives an error's code, message, line and column: it had no line to give)
    errors = [found for steps in range(1, 30) if len(found := states_or_error(text.replace("STEPS", str(steps)))) == 4
              and found[0] == "E603"]
    returning = [line for _, message, line, _ in errors
                 if message == "the rules ran 7 steps without reaching a decision (in round)"]
    assert returning and all(line in body for line in returning), errors
