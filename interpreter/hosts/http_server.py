"""The HTTP server under ``rulelang web`` (``web.py`` holds its requests): a thread per
connection, at most ``max_connections`` of them (the next one gets 503 and ``P006``), and
the time a connection may take (``ConnectionTimeouts``): idle between requests, reading a
request from its first byte (the whole request, not each read: a client that sends a byte
at a time is cut at the same time), writing a reply. A client that goes away, or waits past
its time, is one line on the log.
"""
from __future__ import annotations

import io
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .budgets import ConnectionTimeouts
from .protocol import GONE, ProtocolError, encode, error_reply, log_gone

MAX_CONNECTIONS = 128          # HTTP connections (and threads) served at once
REFUSAL_SECONDS = 0.05         # the time a refusal waits for the request before its 503
READ_AHEAD = 64 * 1024


class WebServer(ThreadingHTTPServer):
    """A thread per connection, up to ``max_connections``; each held to ``timeouts``."""

    daemon_threads = True
    request_queue_size = MAX_CONNECTIONS   # connections waiting to be taken (Python's default: 5)

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler],
                 max_connections: int = MAX_CONNECTIONS, timeouts: ConnectionTimeouts | None = None):
        super().__init__(address, handler)
        self.max_connections = max_connections
        self.timeouts = timeouts or ConnectionTimeouts()
        self.slots = threading.BoundedSemaphore(max_connections)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection in a thread of its own, or refuse it when every slot is taken."""
        if not self.slots.acquire(blocking=False):
            self.refuse(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def refuse(self, request: socket.socket) -> None:
        """A 503 with P006 to a connection beyond the limit (given up if it does not take it at once)."""
        body = encode(error_reply(None, None, ProtocolError(
            "P006", f"the server serves at most {self.max_connections} connections at once")))
        head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("ascii")
        try:
            request.settimeout(REFUSAL_SECONDS)
            request.recv(READ_AHEAD)   # the request, when it came with the connection: then the client reads the 503
            request.sendall(head + body)
        except OSError:
            pass

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away mid-request (a browser closing a tab): one line, no traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, GONE):
            log_gone("rulelang web", client_address, error)
        else:
            super().handle_error(request, client_address)   # type: ignore[arg-type]


class RequestClock:
    """The deadline of a connection's next read: the idle timeout while it waits for a
    request, the read timeout from the request's first byte."""

    def __init__(self, timeouts: ConnectionTimeouts):
        self.timeouts = timeouts
        self.reading = False
        self.deadline = time.monotonic() + timeouts.idle_seconds

    def wait_for_request(self) -> None:
        self.reading = False
        self.deadline = time.monotonic() + self.timeouts.idle_seconds

    def arrived(self) -> None:
        """Bytes came: a request is under way (its deadline set by its first bytes)."""
        if not self.reading:
            self.reading = True
            self.deadline = time.monotonic() + self.timeouts.read_seconds

    def remaining(self) -> float:
        """Seconds left before the deadline; TimeoutError when none are."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            waited = "idle" if not self.reading else "reading a request"
            raise TimeoutError(f"past the time a connection may spend {waited}")
        return left


class TimedSocketReader(io.RawIOBase):
    """A socket read with the clock's deadline on every read (``rfile`` of a handler)."""

    def __init__(self, connection: socket.socket, clock: RequestClock):
        super().__init__()
        self.connection = connection
        self.clock = clock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.connection.settimeout(self.clock.remaining())
        count = self.connection.recv_into(buffer)
        if count:
            self.clock.arrived()
        return count


class TimedHandler(BaseHTTPRequestHandler):
    """A request handler whose reads keep to the server's timeouts, and whose writes wait at
    most its write timeout."""

    server: WebServer

    def setup(self) -> None:
        super().setup()
        self.clock = RequestClock(self.server.timeouts)
        self.rfile = io.BufferedReader(TimedSocketReader(self.connection, self.clock))

    def handle_one_request(self) -> None:
        self.clock.wait_for_request()
        super().handle_one_request()

    def end_headers(self) -> None:
        """The reply goes out with the write timeout (not what is left of the read's)."""
        self.connection.settimeout(self.server.timeouts.write_seconds)
        super().end_headers()
