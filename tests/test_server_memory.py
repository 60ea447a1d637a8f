"""The memory budget across the sessions of a server (issue 25): states, and games loaded from
a client's text, are counted by their size in memory; when the budget is reached, the sessions
idle the longest give theirs back first, then a clean P014 reply refuses the request."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from test_server import ROOT, error, result, started
from test_server_budgets import ENDLESS

import rulelang
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.memory import MemoryBudget, state_size
from rulelang.interpreter.hosts.sessions import Session

LIMIT = 2 * 1024 * 1024


def clone_until_refused(session: Session, state: str, most: int = 1000) -> tuple[int, dict[str, Any]]:
    """Clones of ``state`` until one is refused: how many were made, and the refusal."""
    for made in range(most):
        reply = session.handle({"id": made, "op": "clone", "state": state})
        if not reply["ok"]:
            return made, reply["error"]
    raise AssertionError(f"{most} clones and no refusal")


def test_the_budget_reached_gives_a_clean_reply_and_closing_frees_it() -> None:
    memory = MemoryBudget(limit=LIMIT)
    session = Session(GameLibrary(ROOT), memory=memory)
    _, state = started(session, "games/tobago.rules", players=4, seed=2)
    made, refused = clone_until_refused(session, state)
    size = state_size(session.state(state))
    assert refused["code"] == "P014" and "memory budget" in refused["message"], refused
    assert made == LIMIT // size - 1   # the first state and its clones, each counted
    assert memory.used() <= LIMIT
    assert result(session, "close", handle="s3")["closed"] == ["s3"]
    assert result(session, "clone", state=state)["state"]   # room for one again
    assert result(session, "status", state=state)["terminal"] is False   # the session goes on


def test_a_game_from_a_clients_text_is_counted_too() -> None:
    memory = MemoryBudget(limit=LIMIT)
    session = Session(GameLibrary(ROOT), memory=memory)
    result(session, "load", path="games/t.rules", text=ENDLESS)
    assert memory.used() > 0
    result(session, "close", handle="g1")
    assert memory.used() == 0


def test_the_sessions_idle_longest_give_back_their_states_first() -> None:
    memory = MemoryBudget(limit=LIMIT, reclaim_idle_seconds=0)
    library = GameLibrary(ROOT)
    oldest, newer, asking = (Session(library, memory=memory) for _ in range(3))
    third = 0
    for session in (oldest, newer):   # each holds a third of what the budget takes
        _, state = started(session, "games/tobago.rules", players=4, seed=2)
        third = third or LIMIT // state_size(session.state(state)) // 3
        for _ in range(third - 1):
            result(session, "clone", state=state)
    _, state = started(asking, "games/tobago.rules", players=4, seed=2)
    for _ in range(third + 2):   # more than is free: the oldest idle session gives its states back
        result(asking, "clone", state=state)
    gone = error(oldest, "status", state="s2")
    assert gone["code"] == "P005" and "reclaimed for memory" in gone["message"], gone
    assert result(newer, "status", state="s2")["terminal"] is False
    _, refused = clone_until_refused(asking, state)
    assert refused["code"] == "P014" and error(newer, "status", state="s2")["code"] == "P005"
    assert memory.used() <= LIMIT


RSS_BUDGET_MIB = 64
RSS_MARGIN_MIB = 16   # beyond the budget: the allocator's free lists and arenas, the sessions' tables
RSS_WORKLOAD = """
import json, resource, sys
from pathlib import Path
import rulelang
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.memory import MemoryBudget
from rulelang.interpreter.hosts.sessions import Session

def ask(session, op, **fields):
    return session.handle({"id": 1, "op": op, **fields})

def peak_kib():
    # the process's peak RSS: VmHWM, its own (ru_maxrss also holds the peak of the process
    # it was started from, carried over exec on Linux, and is below pytest's there)
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def clones(session, most):
    game = ask(session, "load", path="games/tobago.rules", players=4)["result"]["game"]
    reply = ask(session, "new_game", game=game, seed=2)
    state = reply["result"]["state"] if reply["ok"] else None
    for _ in range(most if reply["ok"] else 0):
        reply = ask(session, "clone", state=state)
        if not reply["ok"]:
            break
    return reply

library = GameLibrary(Path("."))
clones(Session(library), 3)   # the runtime imported, the game compiled, its state measured
before = peak_kib()
memory = MemoryBudget(limit=int(sys.argv[1]) * 2**20)
sessions, refusal = [], None
while refusal is None and len(sessions) < 8:   # 8 sessions of 1,000 states: far past the budget
    sessions.append(Session(library, memory=memory))
    reply = clones(sessions[-1], 999)
    refusal = None if reply["ok"] else reply["error"]
after = peak_kib()
states = sum(len(session.states) for session in sessions)
print(json.dumps({"refusal": refusal, "before_kib": before, "growth_kib": after - before, "states": states,
                  "used": memory.used()}))
"""


def test_the_budget_bounds_the_servers_rss() -> None:
    """Sessions cloning states until refused, in a process of their own: the peak RSS grows
    by at most the budget and a margin (a state is counted at about twice its real size,
    docs/protocol.md, "Limits"; the peak as Linux's VmHWM, in KiB)."""
    done = subprocess.run([sys.executable, "-c", RSS_WORKLOAD, str(RSS_BUDGET_MIB)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["refusal"] is not None and found["refusal"]["code"] == "P014", found
    assert "memory budget" in found["refusal"]["message"] and found["used"] <= RSS_BUDGET_MIB * 2**20
    assert found["states"] > 1000   # more than one session's worth: the budget is the bound, not a session's cap
    assert 0 < found["growth_kib"] <= (RSS_BUDGET_MIB + RSS_MARGIN_MIB) * 1024, found


FIELDS = """
game "F" { players 2 }
component chip { FIELDS }
zone box: chip visible all
deck chips: chip in box = [chip(VALUES) for k in 1..200]
phase p { choose c in list(box) by players[0]  end game }
"""


def test_a_states_size_leaves_out_the_components_every_state_of_its_game_shares() -> None:
    """Components are the game's, frozen, shared by every state: 200 chips of one field or of
    six, the state that holds them in a zone takes the same bytes."""
    def size(fields: int) -> int:
        names = [f"f{i}" for i in range(fields)]
        rules = FIELDS.replace("FIELDS", "  ".join(f"{n}: int" for n in names)).replace(
            "VALUES", ", ".join(f"{n}: k" for n in names))
        return state_size(rulelang.load(rules).new_initial_state())
    assert size(1) == size(6) > 0
