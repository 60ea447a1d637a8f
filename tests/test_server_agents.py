"""Agents for clients of ``rulelang serve`` and ``rulelang web`` (issue 25): a search is held to
the server's iterations and seconds, whichever comes first; a bad spec is a clean P003; and a
long search of one session never holds up another session's requests."""
from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_server import ROOT, error, result, started
from test_server_tcp import tcp_ask
from test_web_api import api, new_session, serving

from rulelang.interpreter.agents import AgentSpec, MctsAgent
from rulelang.interpreter.hosts.budgets import AgentBudget
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.server import start_tcp
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.hosts.web import make_server

HANG = 120   # seconds: only to catch a hang
SEARCH = 1.0   # seconds the server gives an agent in these tests
HEAVY = "mcts:20000"   # the most iterations a server allows: far more than SEARCH seconds on Tobago


@pytest.mark.parametrize("spec", ["mcts:²", "mcts:" + "9" * 5000, "mcts:10:depth=³", "mcts:٣", "mcts:1e3"])
def test_a_bad_agent_spec_is_a_clean_p003(spec: str) -> None:
    session = Session(GameLibrary(ROOT))
    _, state = started(session)
    refused = error(session, "agent_action", state=state, player=0, agent=spec)
    assert refused["code"] == "P003" and refused["message"].startswith("request.agent"), refused


def test_an_agents_iterations_are_cut_at_the_servers_seconds() -> None:
    session = Session(GameLibrary(ROOT), agent_budget=AgentBudget(max_seconds=SEARCH))
    _, state = started(session, "games/tobago.rules", players=4, seed=3)
    player = result(session, "status", state=state)["to_act"][0]
    begun = time.monotonic()
    chosen = result(session, "agent_action", state=state, player=player, agent=HEAVY, seed=1)["action"]
    took = time.monotonic() - begun
    assert took < SEARCH + 5, took
    legal = result(session, "legal_actions", state=state, player=player)["actions"]
    assert chosen in legal


def test_an_agents_seconds_are_cut_at_the_servers_iterations() -> None:
    budget = AgentBudget(max_iterations=5, max_seconds=SEARCH)
    session = Session(GameLibrary(ROOT), agent_budget=budget)
    _, state = started(session)
    assert error(session, "agent_action", state=state, player=0, agent="mcts:6")["code"] == "P003"
    result(session, "agent_action", state=state, player=0, agent="mcts:0.5s")
    spec = AgentSpec("mcts", seconds=0.5)
    capped = budget.capped(spec.build(session.game("g1"), 0), spec)
    assert isinstance(capped, MctsAgent)
    assert not capped.budget.allows(5, time.perf_counter()) and capped.budget.allows(4, time.perf_counter())


def test_a_long_search_over_tcp_holds_up_no_other_clients_hello() -> None:
    async def heavy_and_hello() -> tuple[dict[str, Any], float, float]:
        server = await start_tcp("127.0.0.1", 0, GameLibrary(ROOT), agent_budget=AgentBudget(max_seconds=SEARCH))
        port = server.sockets[0].getsockname()[1]
        async with server:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)

            async def ask(request: dict[str, Any]) -> dict[str, Any]:
                return await tcp_ask(reader, writer, request)

            await ask({"op": "load", "path": "games/tobago.rules", "players": 4})
            state = (await ask({"op": "new_game", "game": "g1", "seed": 3}))["result"]
            begun = time.monotonic()
            search = asyncio.create_task(ask({"id": "a", "op": "agent_action", "state": "s2",
                                              "player": state["to_act"][0], "agent": HEAVY}))
            await asyncio.sleep(0.2)   # the search is under way
            other_reader, other = await asyncio.open_connection("127.0.0.1", port)
            asked = time.monotonic()
            other.write(b'{"id": "h", "op": "hello"}\n')
            hello: dict[str, Any] = json.loads(await other_reader.readuntil(b"\n"))
            hello_took = time.monotonic() - asked
            assert hello["ok"] and not search.done()
            chosen = await search
            search_took = time.monotonic() - begun
            writer.close()
            other.close()
        return chosen, hello_took, search_took

    chosen, hello_took, search_took = asyncio.run(asyncio.wait_for(heavy_and_hello(), timeout=HANG))
    assert chosen["ok"], chosen
    assert hello_took < 1.0, hello_took
    assert search_took < SEARCH + 5, search_took


@pytest.fixture
def web() -> Iterator[str]:
    server, app = make_server(ROOT, "127.0.0.1", 0)
    app.agent_budget = AgentBudget(max_seconds=SEARCH)
    with serving(server) as address:
        yield address


def test_a_long_search_of_one_page_holds_up_no_other_pages_request(web: str) -> None:
    heavy, light = new_session(web), new_session(web)
    api(web, heavy, {"id": 1, "op": "load", "path": "games/tobago.rules", "players": 4})
    to_act = api(web, heavy, {"id": 2, "op": "new_game", "game": "g1", "seed": 3})[1]["result"]["to_act"]
    replies: list[dict[str, Any]] = []
    search = threading.Thread(target=lambda: replies.append(api(web, heavy, {
        "id": 3, "op": "agent_action", "state": "s2", "player": to_act[0], "agent": HEAVY})[1]))
    search.start()
    time.sleep(0.2)
    asked = time.monotonic()
    hello = api(web, light, {"id": 4, "op": "hello"})[1]
    hello_took = time.monotonic() - asked
    assert not replies   # the search is still under way
    search.join(HANG)
    assert hello["ok"] and hello_took < 1.0, hello_took
    assert replies and replies[0]["ok"], replies
