"""The load test of ``rulelang serve`` (test_server.py's 100 concurrent games with malformed
requests) with slow clients, idle clients and one heavy agent request mixed in (issue 25):
every game still ends as its replay, the slow clients are served, the idle ones are closed
after the idle timeout (P013), and the heavy search ends within its budget."""
from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_server import GAMES, HANG, ROOT, server_command
from test_server_tcp import plans, play_through_server, tcp_ask

import rulelang

AGENT_SECONDS = 2.0
IDLE_SECONDS = 6.0
SLOW_CLIENTS = 5
IDLE_CLIENTS = 10


@pytest.fixture
def tcp_server() -> Iterator[int]:
    """A server in a process of its own, with a short agent budget and idle timeout; its port."""
    process = subprocess.Popen(server_command("--port", "0", "--agent-seconds", str(AGENT_SECONDS),
                                              "--idle-timeout", str(IDLE_SECONDS), "--read-timeout", "5"),
                               cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        assert process.stderr is not None
        found = re.fullmatch(r"rulelang serve: listening on 127\.0\.0\.1:(\d+)\n", process.stderr.readline().decode())
        assert found
        yield int(found.group(1))
        assert process.poll() is None, "the server stopped"
        process.terminate()
        assert process.wait(timeout=HANG) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=HANG)


async def slow_client(port: int, seed: int) -> list[tuple[int, int]]:
    """A tic-tac-toe game whose every request comes in pieces, with pauses between them."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    chooser = random.Random(seed)

    async def ask(**request: Any) -> dict[str, Any]:
        line = json.dumps(request).encode() + b"\n"
        for start in range(0, len(line), 8):
            writer.write(line[start:start + 8])
            await writer.drain()
            await asyncio.sleep(0.02)
        reply: dict[str, Any] = json.loads(await reader.readuntil(b"\n"))
        assert reply["ok"], reply
        found: dict[str, Any] = reply["result"]
        return found

    await ask(op="load", path="games/tic_tac_toe.rules")
    progress = await ask(op="new_game", game="g1", seed=seed)
    played = []
    while not progress["terminal"]:
        player = progress["to_act"][0]
        action = chooser.choice((await ask(op="legal_actions", state="s2", player=player))["actions"])[0]
        progress = await ask(op="apply", state="s2", action=action, player=player)
        played.append((player, action))
    writer.close()
    return played


async def idle_client(port: int) -> tuple[float, dict[str, Any]]:
    """A client that sends nothing: how long until the server closes it, and what it says."""
    began = time.monotonic()   # (before the server's accept, where its clock starts: a busy loop of
    # this process may take its time to go on after the connection, never to begin it)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    told: dict[str, Any] = json.loads(await reader.readuntil(b"\n"))
    assert await reader.read() == b""
    writer.close()
    return time.monotonic() - began, told


async def heavy_client(port: int) -> tuple[float, dict[str, Any]]:
    """One agent request of the most iterations allowed, on Tobago for 4: its time and reply."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def ask(request: dict[str, Any]) -> dict[str, Any]:
        return await tcp_ask(reader, writer, request)

    loaded = await ask({"op": "load", "path": "games/tobago.rules", "players": 4})
    assert "result" in loaded, f"the load failed (on a machine loaded by other work, its 10 s budget?): {loaded}"
    to_act = (await ask({"op": "new_game", "game": "g1", "seed": 5}))["result"]["to_act"]
    began = time.monotonic()
    reply = await ask({"op": "agent_action", "state": "s2", "player": to_act[0], "agent": "mcts:20000"})
    writer.close()
    return time.monotonic() - began, reply


def test_100_games_with_slow_idle_and_heavy_clients_mixed_in(tcp_server: int) -> None:
    load_plans = plans()

    async def everyone() -> tuple[list[Any], list[Any], list[Any], Any]:
        games = asyncio.gather(*(play_through_server(tcp_server, plan) for plan in load_plans))
        slow = asyncio.gather(*(slow_client(tcp_server, 500 + n) for n in range(SLOW_CLIENTS)))
        idle = asyncio.gather(*(idle_client(tcp_server) for _ in range(IDLE_CLIENTS)))
        heavy = heavy_client(tcp_server)
        return tuple(await asyncio.gather(games, slow, idle, heavy))   # type: ignore[return-value]

    began = time.monotonic()
    saved, slow, idle, (heavy_took, heavy) = asyncio.run(asyncio.wait_for(everyone(), timeout=HANG))
    took = time.monotonic() - began
    replayed_games: dict[tuple[str, int], rulelang.Game] = {}
    for plan, data in zip(load_plans, saved, strict=True):
        key = (plan.ruleset, plan.players)
        game = replayed_games.setdefault(key, rulelang.load(GAMES / f"{plan.ruleset}.rules", players=plan.players))
        replayed = game.new_initial_state(seed=plan.seed)
        for player, action in plan.history:
            replayed.apply_action(action, player=player)
        assert data == replayed.to_json(), f"game {plan.number} ({plan.ruleset}) differs from its replay"
        assert {"P001", "P003", "P004", "P005", "E607"} <= set(plan.errors), plan.errors
    assert all(len(played) >= 5 for played in slow)
    for waited, told in idle:   # (the client's clock starts before the server's accept)
        assert IDLE_SECONDS - 0.1 <= waited < IDLE_SECONDS + 30 and told["error"]["code"] == "P013"
    assert heavy["ok"], heavy
    assert heavy_took < AGENT_SECONDS + 10, heavy_took
    requests = sum(plan.replies for plan in load_plans)
    print(f"\nload: {len(load_plans)} games, {requests} requests, {SLOW_CLIENTS} slow, {IDLE_CLIENTS} idle, "
          f"1 heavy ({heavy_took:.1f} s) in {took:.1f} s; idle closed after "
          f"{min(w for w, _ in idle):.1f}..{max(w for w, _ in idle):.1f} s")
