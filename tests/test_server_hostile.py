"""A hostile client against ``rulelang serve`` and ``rulelang web`` (issue 25): every line
gets a reply on every transport, text that is not text (lone surrogates) is refused with
P011 and never becomes a file name, and a client that goes away is logged in one line."""
from __future__ import annotations

import asyncio
import json
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import ROOT, check_reply, server_command
from test_web_api import DRAFT, api, new_session, serving

from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.protocol import ProtocolError, encode
from rulelang.interpreter.hosts.server import start_tcp
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.hosts.web import make_server

HANG = 120   # seconds: only to catch a hang
LONE_ID = b'{"id":"\\ud800","op":"hello"}'
HELLO = b'{"id":2,"op":"hello"}'


def refused_as_not_text(reply: dict[str, Any], request_id: object = None) -> None:
    check_reply(reply)
    assert reply["id"] == request_id and not reply["ok"], reply
    assert reply["error"]["code"] == "P011", reply


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "draft.rules").write_text(DRAFT, encoding="utf-8")
    return folder


# ---------------------------------------------------------------- lone surrogates

def test_a_lone_surrogate_in_the_id_gets_a_p011_reply_on_stdio_and_the_server_goes_on() -> None:
    done = subprocess.run(server_command(), input=LONE_ID + b"\n" + HELLO + b"\n", capture_output=True,
                          cwd=ROOT, timeout=HANG)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    refused_as_not_text(first)
    assert second["id"] == 2 and second["ok"]


@pytest.mark.parametrize("request_line", [
    pytest.param(b'{"id":7,"op":"load","path":"games/\\udcff.rules"}', id="path"),
    pytest.param(b'{"id":7,"op":"lint","path":"games/x.rules","text":"game \\"\\udfff\\" {}"}', id="text"),
    pytest.param(b'{"id":7,"op":"hello","\\ud83d":1}', id="key"),
    pytest.param(b'{"id":7,"op":"restore","game":"g1","data":[{"a":["\\uDC00"]}]}', id="nested"),
])
def test_a_lone_surrogate_anywhere_in_a_request_is_refused_with_its_id(request_line: bytes) -> None:
    refused_as_not_text(Session(GameLibrary(ROOT)).handle_line(request_line), 7)


def test_a_pair_of_surrogate_escapes_is_one_character_and_accepted() -> None:
    reply = Session(GameLibrary(ROOT)).handle_line(b'{"id":"\\ud83d\\ude00","op":"hello"}')
    assert reply["ok"] and reply["id"] == "\U0001f600"


def test_save_source_to_a_path_with_a_lone_surrogate_writes_no_file(root: Path) -> None:
    before = sorted(root.rglob("*"))
    line = b'{"id":1,"op":"save_source","path":"games/\\udcff.rules","text":"x"}'
    refused_as_not_text(Session(GameLibrary(root), allow_write=True).handle_line(line), 1)
    with pytest.raises(ProtocolError) as refused:   # the library, asked directly, names no such file either
        GameLibrary(root).ruleset_file("games/\udcff.rules")
    assert refused.value.code == "P011"
    assert sorted(root.rglob("*")) == before


def test_a_reply_that_cannot_be_written_as_utf8_is_a_p011_reply() -> None:
    line = encode({"id": "\udcff", "op": "source", "ok": True, "result": {"text": "\ud800"}})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    refused_as_not_text(json.loads(line))


def test_a_lone_surrogate_over_tcp_gets_a_reply_and_the_connection_goes_on() -> None:
    async def exchange() -> list[dict[str, Any]]:
        server = await start_tcp("127.0.0.1", 0, GameLibrary(ROOT))
        port = server.sockets[0].getsockname()[1]
        async with server:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(LONE_ID + b"\n" + HELLO + b"\n")
            replies = [json.loads(await reader.readuntil(b"\n")) for _ in range(2)]
            writer.close()
        return replies

    first, second = asyncio.run(asyncio.wait_for(exchange(), timeout=HANG))
    refused_as_not_text(first)
    assert second["id"] == 2 and second["ok"]


@pytest.fixture
def web(root: Path) -> Iterator[str]:
    server, _ = make_server(root, "127.0.0.1", 0)
    with serving(server) as address:
        yield address


def test_a_lone_surrogate_over_http_gets_a_p011_reply_and_writes_no_file(web: str, root: Path) -> None:
    token = new_session(web)
    status, reply = api(web, token, LONE_ID)
    assert status == 200
    refused_as_not_text(reply)
    before = sorted(root.rglob("*"))
    status, reply = api(web, token, b'{"id":3,"op":"save_source","path":"games/\\udcff.rules","text":"x"}')
    refused_as_not_text(reply, 3)
    assert sorted(root.rglob("*")) == before
    assert api(web, token, HELLO)[1]["ok"]



# ---------------------------------------------------------------- clients that go away

def vanish(port: int, request: bytes) -> None:
    """A client that sends ``request`` and resets the connection at once (SO_LINGER 0)."""
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.sendall(request)


def gone_lines(caplog: pytest.LogCaptureFixture, server: str) -> list[str]:
    """The log's lines about clients that went away, once there is one (or after a while)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = [r.getMessage() for r in caplog.records if "a client went away" in r.getMessage()]
        if lines:
            return lines
        time.sleep(0.02)
    return []


def test_a_browser_that_goes_away_is_one_line_on_the_web_servers_log(
        root: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    server, _ = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        vanish(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        lines = gone_lines(caplog, "rulelang web")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(HANG)
    assert len(lines) == 1 and lines[0].startswith("rulelang web: a client went away (127.0.0.1:"), lines
    assert "Traceback" not in capfd.readouterr().err


def test_a_tcp_client_that_goes_away_is_one_line_on_the_log(
        caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    async def vanish_then_hello() -> dict[str, Any]:
        server = await start_tcp("127.0.0.1", 0, GameLibrary(ROOT))
        port = server.sockets[0].getsockname()[1]
        async with server:
            await asyncio.to_thread(vanish, port, b'{"id":1,"op":"rulesets"}\n')
            await asyncio.to_thread(gone_lines, caplog, "rulelang serve")
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(HELLO + b"\n")
            reply: dict[str, Any] = json.loads(await reader.readuntil(b"\n"))
            writer.close()
        return reply

    assert asyncio.run(asyncio.wait_for(vanish_then_hello(), timeout=HANG))["ok"]
    lines = gone_lines(caplog, "rulelang serve")
    assert len(lines) == 1 and lines[0].startswith("rulelang serve: a client went away (127.0.0.1:"), lines
    assert "Traceback" not in capfd.readouterr().err


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
