"""Connections time out (issue 25): a TCP or HTTP connection idle past its timeout, or slow to
send one whole request, is closed (with P013 over TCP), so that 128 connections holding every
slot keep a new client out for no longer than the timeouts (configured short here)."""
from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_server import ROOT
from test_web_api import serving

from rulelang.interpreter.hosts.budgets import ConnectionTimeouts
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.server import start_tcp
from rulelang.interpreter.hosts.web import make_server

HANG = 120   # seconds: only to catch a hang
SHORT = ConnectionTimeouts(idle_seconds=1.0, read_seconds=1.0, write_seconds=2.0)
SLOTS = 128
SLACK = 10.0   # seconds past a timeout that a loaded machine may take to act on it


def hold(port: int, count: int, first: bytes) -> list[socket.socket]:
    """``count`` connections that each send ``first`` (maybe nothing) and wait."""
    held = []
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port), timeout=HANG)
        if first:
            client.sendall(first)
        held.append(client)
    return held


def closed_within(client: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing ``client``, or None if it is still open after ``seconds``."""
    client.settimeout(seconds)
    received = b""
    try:
        while chunk := client.recv(4096):
            received += chunk
    except TimeoutError:
        return None
    except ConnectionError:
        pass
    return received


def cut_after(client: socket.socket, data: bytes, gap: float = 0.1) -> tuple[float | None, bytes]:
    """Send ``data`` a byte every ``gap`` seconds (each gap below the read timeout): the
    seconds after which the server cut the connection (None: it never did, in SLACK
    seconds), and what it sent."""
    began, received = time.monotonic(), b""
    for byte in data:
        if time.monotonic() - began > SLACK:
            return None, received
        try:
            client.sendall(bytes([byte]))
            time.sleep(gap)
            client.setblocking(False)
            chunk = client.recv(4096)
        except BlockingIOError:
            client.setblocking(True)
            continue
        except OSError:   # closed by the server
            return time.monotonic() - began, received
        received += chunk
        client.setblocking(True)
        if not chunk or b"\n" in received:
            return time.monotonic() - began, received
    return None, received


# ---------------------------------------------------------------- TCP

def tcp_hello(port: int) -> dict[str, Any]:
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as client:
        client.sendall(b'{"id": 1, "op": "hello"}\n')
        reply: dict[str, Any] = json.loads(client.makefile("rb").readline())
        return reply


@pytest.fixture
def tcp() -> Iterator[int]:
    """A TCP server in a thread of its own, with SLOTS connections and SHORT timeouts; its port."""
    ready, stop = threading.Event(), threading.Event()
    ports: list[int] = []

    async def run() -> None:
        server = await start_tcp("127.0.0.1", 0, GameLibrary(ROOT), SLOTS, timeouts=SHORT)
        ports.append(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            while not stop.is_set():
                await asyncio.sleep(0.02)

    thread = threading.Thread(target=asyncio.run, args=(run(),), daemon=True)
    thread.start()
    assert ready.wait(HANG)
    try:
        yield ports[0]
    finally:
        stop.set()
        thread.join(HANG)


@pytest.mark.parametrize("first", [b"", b"{"], ids=["idle", "one-byte"])
def test_128_connections_keep_a_new_tcp_client_out_no_longer_than_the_timeout(tcp: int, first: bytes) -> None:
    held = hold(tcp, SLOTS, first)
    try:
        assert tcp_hello(tcp)["error"]["code"] == "P006"   # every slot is taken
        told = [closed_within(client, SHORT.idle_seconds + SLACK) for client in held]
        began = time.monotonic()
        assert tcp_hello(tcp)["ok"]
        assert time.monotonic() - began < 1.0
    finally:
        for client in held:
            client.close()
    assert all(t is not None for t in told), "a connection outlived its timeout"
    replies = [json.loads(t) for t in told if t]
    assert len(replies) == SLOTS and {r["error"]["code"] for r in replies} == {"P013"}
    reason = "sent nothing for 1 s" if not first else "sent no whole request within 1 s"
    assert reason in replies[0]["error"]["message"]


def test_a_tcp_client_that_sends_a_byte_at_a_time_is_cut_at_the_read_timeout(tcp: int) -> None:
    with socket.create_connection(("127.0.0.1", tcp), timeout=HANG) as client:
        client.sendall(b'{"id": 1, "op": "hello"}\n')
        assert json.loads(client.makefile("rb").readline())["ok"]   # a whole line is answered at once
        took, told = cut_after(client, b'{"id": 2, "op": "hello"' + b" " * 1000)
    assert took is not None, "a client sending a byte at a time was never cut"
    assert took >= SHORT.read_seconds
    if told:   # (unless the connection was reset before the reply was read)
        assert b'"code":"P013"' in told and b"no whole request" in told


# ---------------------------------------------------------------- HTTP

@pytest.fixture
def web() -> Iterator[int]:
    server, _ = make_server(ROOT, "127.0.0.1", 0, max_connections=SLOTS, timeouts=SHORT)
    with serving(server):
        yield server.server_address[1]


def http_status(port: int) -> int:
    """The status of a request for a new session (503 also when the refusal came as a reset)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    try:
        connection.request("POST", "/api/session", b"{}", {"Content-Type": "application/json",
                                                            "Host": f"127.0.0.1:{port}"})
        return connection.getresponse().status
    except ConnectionError:
        return 503
    finally:
        connection.close()


def refused_once_all_are_taken(port: int) -> bool:
    """Whether a new client gets 503 once the server has taken the held connections (it
    takes them one at a time: on a loaded machine that may take a while, so ask again
    within half the idle timeout, before the first of them can time out)."""
    deadline = time.monotonic() + SHORT.idle_seconds / 2
    while True:
        if http_status(port) == 503:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


@pytest.mark.parametrize("first", [b"", b"P"], ids=["idle", "one-byte"])
def test_128_connections_keep_a_new_http_client_out_no_longer_than_the_timeout(web: int, first: bytes) -> None:
    held = hold(web, SLOTS, first)
    try:
        assert refused_once_all_are_taken(web)   # every connection is taken by the server
        closed = [closed_within(client, SHORT.idle_seconds + SLACK) for client in held]
        began = time.monotonic()
        assert http_status(web) == 200
        assert time.monotonic() - began < 1.0
    finally:
        for client in held:
            client.close()
    assert all(c is not None for c in closed), "a connection outlived its timeout"


def test_an_http_client_that_sends_a_byte_at_a_time_is_cut_at_the_read_timeout(web: int) -> None:
    request = f"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:{web}\r\n" + "X-Slow: 1\r\n" * 100
    with socket.create_connection(("127.0.0.1", web), timeout=HANG) as client:
        took, _ = cut_after(client, request.encode())
    assert took is not None and took >= SHORT.read_seconds, took
