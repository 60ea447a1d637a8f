"""The budgets of ``rulelang serve`` (issue 25): a ruleset a client loads is held to the size
of a ruleset file, to the server's bound on steps and to a load time; a request that runs out
gets an error reply with its code, and the session goes on."""
from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest
from test_server import error, result

from rulelang.interpreter.hosts.budgets import MAX_SERVED_STEPS, RulesetBudget, time_limit, within
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.protocol import ProtocolError
from rulelang.interpreter.hosts.sessions import Session

ENDLESS = ('game "T" {\n  players 1\n  max_steps 10000000\n}\n\n'
           'var n: int = 0\n\nphase main {\n  repeat {\n    n += 1\n  }\n}\n')


def chained(procedures: int) -> str:
    """A ruleset of ``procedures`` procedures, each calling the next: slow to load."""
    calls = [f"procedure p{i}() {{\n  call p{i + 1}()\n}}\n" for i in range(procedures - 1)]
    return ('game "C" {\n  players 1\n}\n\nvar n: int = 0\n' + "".join(calls)
            + f"procedure p{procedures - 1}() {{\n  n += 1\n}}\nphase main {{\n  call p0()\n  end game\n}}\n")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "games").mkdir()
    return tmp_path


def test_the_endless_loop_of_a_client_stops_within_the_servers_bound_on_steps(root: Path) -> None:
    session = Session(GameLibrary(root))
    game = result(session, "load", path="games/t.rules", text=ENDLESS)["game"]
    started = time.monotonic()
    stopped = error(session, "new_game", game=game)
    assert stopped["code"] == "E603" and f"ran {MAX_SERVED_STEPS} steps" in stopped["message"], stopped
    assert time.monotonic() - started < 60   # 10,000,000 steps would take about ten times as long as this bound
    assert result(session, "hello")["protocol"] == 1


def test_a_ruleset_file_a_client_wrote_is_held_to_the_same_bound(root: Path) -> None:
    (root / "games" / "t.rules").write_text(ENDLESS, encoding="utf-8")
    session = Session(GameLibrary(root, RulesetBudget(max_steps=1000)))
    game = result(session, "load", path="games/t.rules")["game"]
    assert "ran 1000 steps" in error(session, "new_game", game=game)["message"]


def test_a_text_larger_than_a_ruleset_file_is_refused_before_it_is_read(root: Path) -> None:
    session = Session(GameLibrary(root))
    text = ENDLESS + "#" * (256 * 1024)
    for op in ("load", "lint"):
        refused = error(session, op, path="games/big.rules", text=text)
        assert refused["code"] == "P003" and "larger than a ruleset" in refused["message"], refused
    linted = result(session, "lint", path="games/t.rules", text=ENDLESS)["diagnostics"]
    assert linted and all(d["severity"] == "warning" for d in linted)


@pytest.mark.parametrize("op", ["load", "lint"])
def test_a_ruleset_slow_to_load_is_stopped_within_its_budget_and_the_session_goes_on(root: Path, op: str) -> None:
    # the small ruleset compiled once beforehand, so that loading it again after the refusal
    # takes milliseconds, however loaded the machine: a cold compile can pass 0.2 s under load
    assert result(Session(GameLibrary(root)), "load", path="games/t.rules", text=ENDLESS)["title"] == "T"
    session = Session(GameLibrary(root, RulesetBudget(max_load_seconds=0.2)))
    started = time.monotonic()
    refused = error(session, op, path="games/c.rules", text=chained(6000))
    took = time.monotonic() - started
    assert refused["code"] == "P012" and "longer than 0.2 s" in refused["message"], refused
    assert took < 5, took   # loading it whole takes several seconds
    assert gc.isenabled()   # the front end pauses the cycle collector; the refusal switched it back on
    assert result(session, "load", path="games/t.rules", text=ENDLESS)["title"] == "T"


def test_a_time_limit_stops_python_work_and_never_fires_after_its_block() -> None:
    def spin() -> None:
        while True:
            pass

    with pytest.raises(ProtocolError) as refused:
        within(0.05, "spinning", spin)
    assert refused.value.code == "P012"
    with time_limit(0.05):
        done = sum(range(1000))
    time.sleep(0.2)   # past the limit: nothing is raised here
    assert done == 499500
    assert within(5, "adding", lambda: 1 + 1) == 2
