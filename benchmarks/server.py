"""Requests per second of the JSON-lines server (``rulelang serve``, docs/protocol.md).

    python benchmarks/server.py [--seconds 3] [--ruleset games/tic_tac_toe.rules]

The server runs in a process of its own (``python -m rulelang.interpreter.hosts.server``), over
stdin/stdout and over TCP; this process is its client. Three figures per transport:

- **round trips**: random playouts, one request at a time (legal_actions, then apply with
  one of them), each waiting for its reply, as an interactive client plays;
- **pipelined**: batches of 500 legal_actions requests written at once, then their 500
  replies read, as a client that pipelines does;
- and, for reference, the same playouts through ``Session.handle`` in this process (no
  JSON, no I/O).

Wall-clock time, and (on Linux) the CPU time the server process spent, which a shared,
busy machine disturbs less: a benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulelang.interpreter.hosts.library import GameLibrary  # noqa: E402
from rulelang.interpreter.hosts.sessions import Session  # noqa: E402

BATCH = 500
Ask = Callable[[dict[str, Any]], dict[str, Any]]
Figure = tuple[float, float]   # requests per second of wall-clock time, and per second of server CPU


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) that process ``pid`` has spent; 0 where /proc is missing."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(pid: int, run: Callable[[], int]) -> Figure:
    """``run`` gives a count of requests; their rate by the clock and by the server's CPU."""
    cpu, start = cpu_seconds(pid), time.perf_counter()
    requests = run()
    wall, used = time.perf_counter() - start, cpu_seconds(pid) - cpu
    return requests / wall, requests / used if used > 0 else float("nan")


class LineClient:
    """Writes request lines and reads reply lines on a pair of byte streams."""

    def __init__(self, sink: BinaryIO, source: BinaryIO):
        self.sink, self.source = sink, source
        self.count = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.send([request])
        return self.receive(1)[0]

    def send(self, requests: list[dict[str, Any]]) -> None:
        self.sink.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        self.sink.flush()

    def receive(self, count: int) -> list[dict[str, Any]]:
        replies = [json.loads(self.source.readline()) for _ in range(count)]
        if not all(reply["ok"] for reply in replies):
            raise RuntimeError(f"a request failed: {replies}")
        return replies


def playouts(ask: Ask, ruleset: str, seconds: float) -> int:
    """Requests of random playouts, one request at a time, for ``seconds``."""
    game = ask({"id": 0, "op": "load", "path": ruleset})["result"]["game"]
    chooser = random.Random(1)
    requests, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = ask({"id": 1, "op": "new_game", "game": game, "seed": requests})["result"]["state"]
        terminal = False
        while not terminal:
            actions = ask({"id": 2, "op": "legal_actions", "state": state})["result"]["actions"]
            action = chooser.choice(actions)[0]
            terminal = ask({"id": 3, "op": "apply", "state": state, "action": action})["result"]["terminal"]
            requests += 2
        ask({"id": 4, "op": "close", "handle": state})
        requests += 2
    return requests


def pipelined(client: LineClient, ruleset: str, seconds: float) -> int:
    """Requests of batches of legal_actions written at once, for ``seconds``."""
    game = client.ask({"id": 0, "op": "load", "path": ruleset})["result"]["game"]
    state = client.ask({"id": 1, "op": "new_game", "game": game})["result"]["state"]
    batch = [{"id": n, "op": "legal_actions", "state": state} for n in range(BATCH)]
    requests, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        client.send(batch)
        client.receive(BATCH)
        requests += BATCH
    return requests


def both(pid: int, client: LineClient, ruleset: str, seconds: float) -> tuple[Figure, Figure]:
    return (measured(pid, lambda: playouts(client.ask, ruleset, seconds)),
            measured(pid, lambda: pipelined(client, ruleset, seconds)))


def over_stdio(ruleset: str, seconds: float) -> tuple[Figure, Figure]:
    server = subprocess.Popen([sys.executable, "-m", "rulelang.interpreter.hosts.server"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    client = LineClient(server.stdin, server.stdout)
    try:
        return both(server.pid, client, ruleset, seconds)
    finally:
        server.stdin.close()
        server.wait()


def over_tcp(ruleset: str, seconds: float) -> tuple[Figure, Figure]:
    server = subprocess.Popen([sys.executable, "-m", "rulelang.interpreter.hosts.server", "--port", "0"], cwd=ROOT,
                              stderr=subprocess.PIPE)
    assert server.stderr is not None
    try:
        port = int(server.stderr.readline().decode().rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            stream = connection.makefile("rwb")
            return both(server.pid, LineClient(stream, stream), ruleset, seconds)
    finally:
        server.terminate()
        server.wait()


def in_process(ruleset: str, seconds: float) -> float:
    session = Session(GameLibrary(ROOT))
    start = time.process_time()
    return playouts(session.handle, ruleset, seconds) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each figure")
    parser.add_argument("--ruleset", default="games/tic_tac_toe.rules", help="relative to the repository")
    arguments = parser.parse_args()
    print("requests/s       one at a time (by the clock, by server CPU)   pipelined (by the clock, by server CPU)")
    for name, measure in (("stdio", over_stdio), ("TCP", over_tcp)):
        (trips, trips_cpu), (batches, batches_cpu) = measure(arguments.ruleset, arguments.seconds)
        print(f"{name:<16} {trips:8.0f} {trips_cpu:8.0f}                          "
              f"{batches:8.0f} {batches_cpu:8.0f}")
    print(f"{'in process':<16} {in_process(arguments.ruleset, arguments.seconds):8.0f} "
          "(Session.handle, no JSON and no I/O; by CPU)")


if __name__ == "__main__":
    main()
