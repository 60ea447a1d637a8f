"""The JSON-lines server (``rulelang serve``): the host API for programs in other languages.

One request per line, one reply per line, over stdin/stdout or a local TCP port. This module
is the transport: it splits the lines, hands each to the connection's ``Session``
(``sessions.py``) and writes the replies. The protocol, its error codes and its limits are in
``docs/protocol.md`` and ``protocol.py``; requests and replies are described by
``rulelang/schemas/protocol.schema.json``.

    python -m rulelang.interpreter.hosts.server                 # stdin/stdout
    python -m rulelang.interpreter.hosts.server --port 7370     # TCP on 127.0.0.1

Every connection has its own session; the rulesets loaded are shared by every session of a
server (a ``GameLibrary``: a ``Game`` never changes). Over TCP the requests of a connection
run one after the other; those that may take long (``Session.may_take_long``: an agent's
search, a load, a game whose rules a client sent) run in a bounded pool of worker threads
(WORKERS), so that they never hold up another connection's requests, and the others on the
event loop (a hand-over to a thread costs more than they do).
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from rulelang.limits import (
    IDLE_SECONDS,
    MAX_AGENT_ITERATIONS,
    MAX_AGENT_SECONDS,
    MAX_MEMORY_BYTES,
    READ_SECONDS,
    WRITE_SECONDS,
)

from .budgets import AgentBudget, ConnectionTimeouts
from .library import GameLibrary
from .memory import MemoryBudget
from .protocol import MAX_LINE_BYTES, TOO_LONG, ProtocolError, TooLong, encode, error_reply, log_gone
from .sessions import ReadLine, Session

MAX_CONNECTIONS = 128          # TCP clients served at once
WORKERS = 8                    # TCP requests answered at once (by threads; the others wait their turn)
READ_CHUNK = 64 * 1024
WRITE_CHUNK = 256 * 1024       # replies gathered before they are sent
DEFAULT_HOST = "127.0.0.1"


# ---------------------------------------------------------------- lines

class LineSplitter:
    """Splits a byte stream into lines of at most ``limit`` bytes (the newline not counted);
    a longer line is dropped and stands as TOO_LONG, told as soon as it passes the limit."""

    def __init__(self, limit: int = MAX_LINE_BYTES):
        self.limit = limit
        self.buffer = bytearray()
        self.dropping = False   # inside a line that was too long, until its newline

    def feed(self, data: bytes) -> Iterator[bytes | TooLong]:
        """The lines that ``data`` completes (blank lines left out)."""
        self.buffer += data
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                break
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            if self.dropping:
                self.dropping = False
            elif len(line) > self.limit:
                yield TOO_LONG
            elif line.strip():
                yield line
        if len(self.buffer) > self.limit:
            self.buffer.clear()
            if not self.dropping:
                self.dropping = True
                yield TOO_LONG

    def finish(self) -> Iterator[bytes | TooLong]:
        """A last line that no newline ended."""
        line, dropping = bytes(self.buffer), self.dropping
        self.buffer.clear()
        self.dropping = False
        if not dropping and line.strip():
            yield line


# ---------------------------------------------------------------- stdin/stdout

def serve_stream(source: BinaryIO, sink: BinaryIO, session: Session | None = None) -> None:
    """Answer every line of ``source`` on ``sink`` until the end of ``source``; the replies
    to the lines of one read are written and flushed together."""
    session = session if session is not None else Session()
    splitter = LineSplitter()
    read = getattr(source, "read1", source.read)
    with contextlib.suppress(BrokenPipeError):   # the client went away
        while True:
            data = read(READ_CHUNK)
            for line in splitter.feed(data) if data else splitter.finish():
                sink.write(encode(session.handle_line(line)))
            sink.flush()
            if not data:
                return


# ---------------------------------------------------------------- TCP

@dataclass
class TcpServer:
    """Serves every connection with a session of its own; the rulesets are shared."""

    library: GameLibrary
    max_connections: int = MAX_CONNECTIONS
    agent_budget: AgentBudget = field(default_factory=AgentBudget)
    workers: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(WORKERS, "rulelang-serve"))
    timeouts: ConnectionTimeouts = field(default_factory=ConnectionTimeouts)
    memory: MemoryBudget = field(default_factory=MemoryBudget)
    connections: int = 0

    async def serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection to its end, or refuse it (P006) beyond ``max_connections``."""
        self.connections += 1
        try:
            if self.connections > self.max_connections:
                refusal = ProtocolError("P006", f"the server serves at most {self.max_connections} connections at once")
                writer.write(encode(error_reply(None, None, refusal)))
            else:
                session = Session(self.library, agent_budget=self.agent_budget, memory=self.memory)
                try:
                    await self.answer(reader, writer, session)
                finally:
                    self.memory.leave(session)
            await asyncio.wait_for(writer.drain(), self.timeouts.write_seconds)
        except (OSError, asyncio.TimeoutError) as error:   # the client went away, stopped reading, or its socket failed
            log_gone("rulelang serve", writer.get_extra_info("peername"), error)
        finally:
            self.connections -= 1
            writer.close()

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: Session) -> None:
        """Answer every line the client sends with ``session`` (in a worker thread), until it
        stops sending."""
        splitter = LineSplitter()
        loop = asyncio.get_running_loop()
        line_started: float | None = None   # when the line under way began to arrive
        while True:
            data = await self.read(reader, writer, line_started)
            if data is None:
                return
            replies: list[bytes] = []
            size = 0
            for line in splitter.feed(data) if data else splitter.finish():
                read = session.read_line(line)
                if session.may_take_long(read):   # in a worker, so that the other connections go on
                    replies.append(await loop.run_in_executor(self.workers, reply_line, session, read))
                else:
                    replies.append(reply_line(session, read))
                size += len(replies[-1])
                if size >= WRITE_CHUNK:   # the replies to one read are sent together, up to a bound
                    await self.send(writer, replies)
                    replies, size = [], 0
            await self.send(writer, replies)
            if not data:
                return
            pending = bool(splitter.buffer) or splitter.dropping
            line_started = (line_started or loop.time()) if pending else None

    async def read(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                   line_started: float | None) -> bytes | None:
        """The next bytes of the client; None when it waited past its timeout (idle, or in
        the middle of a line), after telling it so (P013)."""
        idle = line_started is None
        timeout = self.timeouts.idle_seconds
        if line_started is not None:
            timeout = line_started + self.timeouts.read_seconds - asyncio.get_running_loop().time()
        try:
            return await asyncio.wait_for(reader.read(READ_CHUNK), max(timeout, 0))
        except asyncio.TimeoutError:
            waited = (f"sent nothing for {self.timeouts.idle_seconds:g} s" if idle
                      else f"sent no whole request within {self.timeouts.read_seconds:g} s")
            writer.write(encode(error_reply(None, None, ProtocolError("P013", f"the connection {waited}: closed"))))
            return None

    async def send(self, writer: asyncio.StreamWriter, replies: list[bytes]) -> None:
        """Write replies in one call; a client that does not read them for the write timeout
        is given up (asyncio.TimeoutError)."""
        if replies:
            writer.write(b"".join(replies))
            await asyncio.wait_for(writer.drain(), self.timeouts.write_seconds)


def reply_line(session: Session, read: ReadLine) -> bytes:
    """The encoded reply to a line read."""
    return encode(session.answer(read))


async def start_tcp(host: str, port: int, library: GameLibrary, max_connections: int = MAX_CONNECTIONS,
                    *, agent_budget: AgentBudget | None = None, workers: int = WORKERS,
                    timeouts: ConnectionTimeouts | None = None, memory: MemoryBudget | None = None) -> asyncio.Server:
    """A started TCP server (``port`` 0: any free port; ``server.sockets`` tells which)."""
    tcp = TcpServer(library, max_connections, agent_budget or AgentBudget(),
                    ThreadPoolExecutor(workers, "rulelang-serve"), timeouts or ConnectionTimeouts(),
                    memory or MemoryBudget())
    return await asyncio.start_server(tcp.serve_connection, host, port, backlog=max(max_connections, 100))


async def _serve_tcp_until_stopped(host: str, port: int, library: GameLibrary, agent_budget: AgentBudget,
                                   timeouts: ConnectionTimeouts, memory: MemoryBudget) -> None:
    """Serve until SIGTERM or SIGINT (Ctrl-C), then close every connection and return."""
    server = await start_tcp(host, port, library, agent_budget=agent_budget, timeouts=timeouts, memory=memory)
    bound = server.sockets[0].getsockname()
    print(f"rulelang serve: listening on {bound[0]}:{bound[1]}", file=sys.stderr, flush=True)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, ValueError):   # no signal handlers here (Windows)
            loop.add_signal_handler(signal_number, stopped.set)
    async with server:
        await stopped.wait()


# ---------------------------------------------------------------- the command

def serve(port: int | None = None, host: str = DEFAULT_HOST, root: str | None = None, *,
          agent_budget: AgentBudget | None = None, timeouts: ConnectionTimeouts | None = None,
          memory: MemoryBudget | None = None) -> None:
    """Serve the protocol: on TCP ``host:port`` when a port is given, else on stdin/stdout.
    ``root`` confines the rulesets clients may load (and the files they name); the budgets
    and timeouts are the defaults of budgets.py and memory.py unless given (the timeouts
    are for TCP; the memory budget holds for the one session of stdin/stdout too)."""
    library = GameLibrary(Path(root) if root is not None else None)
    agent_budget = agent_budget or AgentBudget()
    memory = memory or MemoryBudget()
    with contextlib.suppress(KeyboardInterrupt):
        if port is None:
            session = Session(library, agent_budget=agent_budget, memory=memory)
            serve_stream(sys.stdin.buffer, sys.stdout.buffer, session)
        else:
            asyncio.run(_serve_tcp_until_stopped(host, port, library, agent_budget, timeouts or ConnectionTimeouts(),
                                                 memory))


def positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` above zero."""
    def parse(text: str) -> float:
        value = kind(text)
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{text}: must be a number above 0")
        return value
    parse.__name__ = kind.__name__   # argparse names the type in its error
    return parse


def main(argv: list[str] | None = None) -> int:
    """``rulelang serve [--port N] [--host H] [--root DIR] [budgets and timeouts]`` without
    click, for ``python -m``."""
    parser = argparse.ArgumentParser(prog="python -m rulelang.interpreter.hosts.server",
                                     description="Serve the rulelang JSON-lines protocol (docs/protocol.md).")
    parser.add_argument("--port", type=int, default=None, help="TCP port (0: any free port); default: stdin/stdout")
    parser.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--root", default=None, help="the folder that rulesets must lie in")
    parser.add_argument("--agent-iterations", type=positive(int), default=MAX_AGENT_ITERATIONS,
                        help=f"an agent's iterations per decision at most (default {MAX_AGENT_ITERATIONS})")
    parser.add_argument("--agent-seconds", type=positive(float), default=MAX_AGENT_SECONDS,
                        help=f"an agent's seconds per decision at most (default {MAX_AGENT_SECONDS:g})")
    parser.add_argument("--idle-timeout", type=positive(float), default=IDLE_SECONDS,
                        help=f"seconds a TCP connection may send nothing (default {IDLE_SECONDS:g})")
    parser.add_argument("--read-timeout", type=positive(float), default=READ_SECONDS,
                        help=f"seconds a request line may take to arrive whole (default {READ_SECONDS:g})")
    parser.add_argument("--write-timeout", type=positive(float), default=WRITE_SECONDS,
                        help=f"seconds a client may take to read a reply (default {WRITE_SECONDS:g})")
    parser.add_argument("--memory-mib", type=positive(int), default=MAX_MEMORY_BYTES // 2**20,
                        help=f"MiB the sessions may hold together (default {MAX_MEMORY_BYTES // 2**20})")
    arguments = parser.parse_args(argv)
    if arguments.root is not None and not Path(arguments.root).is_dir():
        parser.error(f"--root {arguments.root}: not a folder")
    try:
        serve(arguments.port, arguments.host, arguments.root,
              agent_budget=AgentBudget(arguments.agent_iterations, arguments.agent_seconds),
              timeouts=ConnectionTimeouts(arguments.idle_timeout, arguments.read_timeout, arguments.write_timeout),
              memory=MemoryBudget(limit=arguments.memory_mib * 2**20))
    except OSError as error:   # the port is taken, the address is not local...
        print(f"rulelang serve: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
