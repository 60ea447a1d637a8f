"""The TCP server under load (docs/protocol.md): 100 concurrent games with malformed requests
mixed in go through one server without a crash, a lost game or a corrupted one; a client that
vanishes mid-line does not stop it; a connection beyond the limit gets one error reply."""
from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_server import HANG, server_command

import rulelang
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.protocol import MAX_LINE_BYTES, validator
from rulelang.interpreter.hosts.server import start_tcp

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

check_reply = validator("reply")

# ---------------------------------------------------------------- load: 100 games through one TCP server

@dataclass
class Plan:
    """One client of the load test: what it plays and the malformed requests it sends."""

    number: int
    ruleset: str
    players: int
    seed: int
    history: list[tuple[int, int]] = field(default_factory=list)
    replies: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def plans() -> list[Plan]:
    rulesets = [("tic_tac_toe", 2)] * 45 + [("kuhn_poker", 2)] * 40 \
        + [("jolly_roger", 3)] * 10 + [("jolly_roger", 4)] * 5
    return [Plan(n, name, players, seed=1000 + n) for n, (name, players) in enumerate(rulesets)]


async def tcp_ask(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  request: dict[str, Any]) -> dict[str, Any]:
    """One request as a line over TCP, and the line of its reply."""
    writer.write(json.dumps(request).encode() + b"\n")
    reply: dict[str, Any] = json.loads(await reader.readuntil(b"\n"))
    return reply


class Connection:
    """A client connection that checks each reply against the schema and its request's id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, plan: Plan):
        self.reader, self.writer, self.plan = reader, writer, plan
        self.count = 0

    async def send(self, line: bytes, expected_id: object) -> dict[str, Any]:
        self.writer.write(line + b"\n")
        await self.writer.drain()
        reply: dict[str, Any] = json.loads(await self.reader.readuntil(b"\n"))
        check_reply(reply)
        assert reply["id"] == expected_id, (reply, expected_id)
        self.plan.replies += 1
        if not reply["ok"]:
            code = reply["error"]["code"]
            self.plan.errors[code] = self.plan.errors.get(code, 0) + 1
        return reply

    async def request(self, op: str, **fields: object) -> dict[str, Any]:
        self.count += 1
        request_id = f"{self.plan.number}-{self.count}"
        return await self.send(json.dumps({"id": request_id, "op": op, **fields}).encode(), request_id)

    async def ok(self, op: str, **fields: object) -> dict[str, Any]:
        reply = await self.request(op, **fields)
        assert reply["ok"], reply
        found: dict[str, Any] = reply["result"]
        return found

    async def refused(self, code: str, op: str, **fields: object) -> None:
        reply = await self.request(op, **fields)
        assert not reply["ok"] and reply["error"]["code"] == code, reply


def malformed(connection: Connection, state: str, chooser: random.Random) -> Iterator[Callable[[], Any]]:
    """The malformed requests a client mixes into its game, one kind at a time."""
    yield lambda: connection.send(b'{"id": 1, "op": "apply", "state": ' + state.encode(), None)   # bad JSON
    yield lambda: connection.refused("P003", "apply", state=state, action="4")
    yield lambda: connection.refused("P005", "apply", state="s999999", action=1)
    yield lambda: connection.refused("E607", "apply", state=state, action=10**6)
    yield lambda: connection.refused("P004", "explode", state=state)
    yield lambda: connection.refused("P003", "observe", state=state)
    if connection.plan.number % 10 == 0:
        yield lambda: connection.send(b"[" * (MAX_LINE_BYTES + chooser.randrange(1, 5000)), None)   # too long


async def play_through_server(port: int, plan: Plan) -> dict[str, Any]:
    """One client: a game of random legal actions with malformed requests mixed in; the
    saved state at the end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=4 * MAX_LINE_BYTES)
    connection = Connection(reader, writer, plan)
    chooser = random.Random(plan.seed)
    try:
        await connection.ok("hello")
        game = (await connection.ok("load", path=f"games/{plan.ruleset}.rules", players=plan.players))["game"]
        state = (await connection.ok("new_game", game=game, seed=plan.seed))["state"]
        mistakes = list(malformed(connection, state, chooser))
        progress = await connection.ok("status", state=state)
        while not progress["terminal"]:
            if mistakes and chooser.random() < 0.3:
                await mistakes.pop(chooser.randrange(len(mistakes)))()
            player = chooser.choice(progress["to_act"])
            actions = (await connection.ok("legal_actions", state=state, player=player))["actions"]
            action = chooser.choice(actions)[0]
            progress = await connection.ok("apply", state=state, action=action, player=player)
            plan.history.append((player, action))
            await asyncio.sleep(0)
        for mistake in mistakes:
            await mistake()
        saved: dict[str, Any] = (await connection.ok("save", state=state))["data"]
        await connection.ok("close", handle=game)
        return saved
    finally:
        writer.close()


async def run_load(port: int, plans: list[Plan]) -> list[dict[str, Any]]:
    return list(await asyncio.gather(*(play_through_server(port, plan) for plan in plans)))


@pytest.fixture
def tcp_server() -> Iterator[int]:
    """A server on a free local port, in a process of its own; its port."""
    process = subprocess.Popen(server_command("--port", "0"), cwd=ROOT, stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL)
    try:
        assert process.stderr is not None
        banner = process.stderr.readline().decode()
        found = re.fullmatch(r"rulelang serve: listening on 127\.0\.0\.1:(\d+)\n", banner)
        assert found, banner
        yield int(found.group(1))
        assert process.poll() is None, "the server stopped"
        process.terminate()
        assert process.wait(timeout=HANG) == 0   # SIGTERM stops it cleanly
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=HANG)


def test_100_concurrent_games_with_malformed_requests_through_one_server(tcp_server: int) -> None:
    load_plans = plans()
    saved = asyncio.run(asyncio.wait_for(run_load(tcp_server, load_plans), timeout=HANG))
    games: dict[tuple[str, int], rulelang.Game] = {}
    for plan, data in zip(load_plans, saved, strict=True):
        key = (plan.ruleset, plan.players)
        if key not in games:
            games[key] = rulelang.load(GAMES / f"{plan.ruleset}.rules", players=plan.players)
        replayed = games[key].new_initial_state(seed=plan.seed)
        for player, action in plan.history:
            replayed.apply_action(action, player=player)
        assert replayed.is_terminal()
        assert data == replayed.to_json(), f"game {plan.number} ({plan.ruleset}) differs from its replay"
        assert [tuple(move) for move in data["history"]] == plan.history
        assert {"P001", "P003", "P004", "P005", "E607"} <= set(plan.errors), plan.errors
        assert ("P002" in plan.errors) == (plan.number % 10 == 0)
    assert sum(len(plan.history) for plan in load_plans) > 1000


def test_a_server_serves_a_client_after_a_client_that_vanished_mid_line(tcp_server: int) -> None:
    async def vanish_then_play() -> dict[str, Any]:
        _, writer = await asyncio.open_connection("127.0.0.1", tcp_server)
        writer.write(b'{"id": 1, "op": "load", "path": "games/tic')
        await writer.drain()
        writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", tcp_server)
        writer.write(b'{"id": 2, "op": "hello"}\n')
        reply: dict[str, Any] = json.loads(await reader.readuntil(b"\n"))
        writer.close()
        return reply

    reply = asyncio.run(asyncio.wait_for(vanish_then_play(), timeout=HANG))
    assert reply["id"] == 2 and reply["ok"]


def test_a_connection_beyond_the_limit_gets_one_error_reply_and_is_closed() -> None:
    async def two_clients() -> tuple[dict[str, Any], dict[str, Any], bytes]:
        server = await start_tcp("127.0.0.1", 0, GameLibrary(ROOT), max_connections=1)
        port = server.sockets[0].getsockname()[1]
        async with server:
            first_reader, first = await asyncio.open_connection("127.0.0.1", port)
            first.write(b'{"id": 1, "op": "hello"}\n')
            served = json.loads(await first_reader.readuntil(b"\n"))
            second_reader, second = await asyncio.open_connection("127.0.0.1", port)
            refused = json.loads(await second_reader.readuntil(b"\n"))
            rest = await second_reader.read()
            first.close()
            second.close()
        return served, refused, rest

    served, refused, rest = asyncio.run(asyncio.wait_for(two_clients(), timeout=HANG))
    check_reply(served)
    check_reply(refused)
    assert served["ok"] and rest == b""
    assert refused["error"] == {"code": "P006", "message": "the server serves at most 1 connections at once"}
