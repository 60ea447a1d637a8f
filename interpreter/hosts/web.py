"""The web page's server (``rulelang web``): the protocol of ``rulelang serve`` over HTTP.

``GET /`` gives the page (``index.html``, ``style.css`` and its scripts: ES modules, from
``app.js`` on; package data in ``interpreter/hosts/web/``, but for ``keywords.js``, made from
the grammar's keywords: ``rulelang.syntax.keywords``, which the TextMate grammar of the
editors reads too); ``POST /api/session`` gives a
token for a new protocol ``Session``; ``POST /api`` with the header ``X-Rulelang-Session:
TOKEN`` and one request as its JSON body gives the reply, as ``Session.handle`` makes it
(HTTP 200 even for a protocol error); ``POST /api/debug`` the same for the requests of the
page's debug panel (``web_debug.py``).

The page opened at the address with ``?host=TOKEN`` (the token the server makes when it
starts, printed with that address and opened in the browser) is the host's: its session
is made with ``{"host": TOKEN}`` and may see a state whole, every seat's secrets included
(the debug panel's ``full_state``); no other page may.

A server on localhost must not be driven by other web sites: a request whose ``Host`` is not
this server's (DNS rebinding), a POST whose ``Origin`` is another site's, or that is not
``application/json`` (a cross-site form) is refused with 403 or 415. Every path a request
names is confined to the root folder, and the sessions may write ``.rules`` files there
(``save_source``). The requests of one session run one at a time (a lock per session);
those of different sessions run side by side, each in its connection's thread.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.resources
import json
import re
import secrets
import sys
import threading
import webbrowser
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.syntax.keywords import ruleset_keywords

from .budgets import AgentBudget, ConnectionTimeouts
from .http_server import MAX_CONNECTIONS, TimedHandler, WebServer
from .library import GameLibrary
from .memory import MemoryBudget
from .protocol import JSON, MAX_LINE_BYTES, ProtocolError, encode, error_reply
from .server import READ_CHUNK
from .sessions import Session
from .web_debug import answer_debug

if TYPE_CHECKING:
    from importlib.abc import Traversable

DEFAULT_PORT = 7371
MAX_SESSIONS = 16              # pages served at once; the least recently used session goes
MAX_DRAINED = 4 * MAX_LINE_BYTES   # a body too long but below this is read and dropped before the 413
SESSION_HEADER = "X-Rulelang-Session"
STATIC_FILES = {"/": "index.html", "/index.html": "index.html", "/style.css": "style.css", "/debug.css": "debug.css"}
KEYWORDS_SCRIPT = "keywords.js"   # the page's module of the language's keywords, made from the grammar
SCRIPT_PATH = re.compile(r"/([a-z][a-z0-9_]*\.js)")   # the page's modules: /app.js, /editor.js...
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8"}
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                    # the page's own scripts only: text that a ruleset puts on the page never runs
                    "Content-Security-Policy": "default-src 'self'; script-src 'self'; "
                                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                               "connect-src 'self'; base-uri 'none'; form-action 'none'; "
                                               "frame-ancestors 'none'",
                    "Referrer-Policy": "no-referrer",
                    "Cache-Control": "no-store"}


def package_files() -> Traversable:
    """The page's files, as installed with the package."""
    return importlib.resources.files("rulelang.interpreter.hosts").joinpath("web")


@dataclass
class WebApp:
    """What the HTTP handlers share: the rulesets, the sessions by token (each with its own
    lock; ``lock`` guards the table), the page."""

    library: GameLibrary
    static: Traversable = field(default_factory=package_files)
    sessions: OrderedDict[str, tuple[Session, threading.Lock]] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    agent_budget: AgentBudget = field(default_factory=AgentBudget)
    memory: MemoryBudget = field(default_factory=MemoryBudget)
    hosts: frozenset[str] = frozenset()
    host_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    host_sessions: set[str] = field(default_factory=set)   # the tokens of the sessions of the host's page

    def listen_on(self, host: str, port: int) -> None:
        """Accept the ``Host`` headers that name this server: its address, localhost, 127.0.0.1."""
        names = {host, "localhost", "127.0.0.1", "[::1]"} if host in ("127.0.0.1", "localhost", "::1") else {host}
        self.hosts = frozenset(f"{name}:{port}" for name in names)

    def new_session(self, host: bool = False) -> str:
        """The token of a new session (which may write ruleset files under the root);
        ``host``: the host's page."""
        token = secrets.token_urlsafe(24)
        with self.lock:
            self.sessions[token] = (Session(self.library, allow_write=True, agent_budget=self.agent_budget,
                                            memory=self.memory), threading.Lock())
            if host:
                self.host_sessions.add(token)
            while len(self.sessions) > MAX_SESSIONS:
                gone, (session, _) = self.sessions.popitem(last=False)
                self.host_sessions.discard(gone)
                self.memory.leave(session)
        return token

    def is_host_token(self, offered: object) -> bool:
        """Whether ``offered`` is this server's host token."""
        return isinstance(offered, str) and secrets.compare_digest(offered.encode(), self.host_token.encode())

    def answer(self, token: str, body: bytes, *, debug: bool = False) -> JSON | None:
        """The reply to one request of the session ``token`` (``debug``: of the debug panel);
        None for an unknown session."""
        with self.lock:
            held = self.sessions.get(token)
            if held is None:
                return None
            self.sessions.move_to_end(token)
            host = token in self.host_sessions
        session, session_lock = held
        with session_lock:
            return answer_debug(session, body, host=host) if debug else session.handle_line(body)

    def static_file(self, name: str) -> bytes | None:
        """A file of the page, or None when it is not there."""
        if name == KEYWORDS_SCRIPT:
            return keywords_script()
        try:
            data: bytes = self.static.joinpath(name).read_bytes()
        except OSError:
            return None
        return data


@functools.cache
def keywords_script() -> bytes:
    """The module ``keywords.js`` of the page: the keywords of rulesets, read from the grammar,
    which the editor colours."""
    words = json.dumps(list(ruleset_keywords().all))
    return (f"// The keywords of rulesets, made by the server from the grammar (rulelang.syntax.keywords).\n"
            f"export const KEYWORDS = {words};\n").encode()


def static_name(route: str) -> str | None:
    """The file of the page that ``route`` names (a script of the page's folder, not below
    it), or None."""
    script = SCRIPT_PATH.fullmatch(route)
    return script.group(1) if script is not None else STATIC_FILES.get(route)


def refusal(code: str, message: str) -> JSON:
    """A protocol-shaped error reply for a request HTTP refuses."""
    return error_reply(None, None, ProtocolError(code, message))


class Handler(TimedHandler):
    """One HTTP request: the page's files, a new session, or a protocol request."""

    app: WebApp   # set on the subclass that make_server builds
    server_version = "rulelang-web"
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True   # a reply goes out in two writes: without this, each waits ~40 ms

    def do_GET(self) -> None:
        if not self.host_allowed():
            return
        name = static_name(self.path.split("?", 1)[0])
        data = None if name is None else self.app.static_file(name)
        if name is None or data is None:
            self.send(404, b"not found\n", "text/plain; charset=utf-8")
            return
        self.send(200, data, CONTENT_TYPES[Path(name).suffix])

    def do_POST(self) -> None:
        if not self.host_allowed() or not self.origin_allowed():
            return
        route = self.path.split("?", 1)[0]
        if route not in ("/api", "/api/session", "/api/debug"):
            self.send_json(404, refusal("P010", f"no such page: {route[:100]}"))
            return
        body = self.body()
        if body is None:
            return
        if route == "/api/session":
            self.open_session(body)
            return
        reply = self.app.answer(self.headers.get(SESSION_HEADER, ""), body, debug=route == "/api/debug")
        if reply is None:
            self.send_json(403, refusal("P009", "unknown session: reload the page"))
        else:
            self.send_json(200, reply)

    def open_session(self, body: bytes) -> None:
        """A new session: the host's page's when the body is ``{"host": TOKEN}`` with this
        server's token (another token: 403, ``P010``), else a seat's page's."""
        try:
            asked = json.loads(body or b"{}")
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            self.send_json(400, refusal("P001", "the body of /api/session is a JSON object: {} or {\"host\": TOKEN}"))
            return
        if "host" in asked and not self.app.is_host_token(asked["host"]):
            self.send_json(403, refusal("P010", "not this server's host token: open the address that "
                                                "'rulelang web' printed"))
            return
        host = "host" in asked
        self.send_json(200, {"session": self.app.new_session(host), "host": host})

    # -- checks ----------------------------------------------------------

    def host_allowed(self) -> bool:
        """Whether the Host header names this server (else a 403 is sent)."""
        named = self.headers.get_all("Host") or []
        if len(named) == 1 and named[0] in self.app.hosts:   # one Host header, naming this server
            return True
        self.send_json(403, refusal("P010", "this server answers only requests addressed to it (Host)"))
        return False

    def origin_allowed(self) -> bool:
        """Whether a POST comes from this server's page (no Origin, or this server's) and is
        JSON (else a 403 or 415 is sent)."""
        origin = self.headers.get("Origin")
        if origin is not None and origin.removeprefix("http://") not in self.app.hosts:
            self.send_json(403, refusal("P010", "requests from another site are refused (Origin)"))
            return False
        if self.headers.get_content_type() != "application/json":
            self.send_json(415, refusal("P010", "a request's Content-Type must be application/json"))
            return False
        return True

    def body(self) -> bytes | None:
        """The request's body, at most the protocol's line limit (else a 411 or 413 is sent)."""
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            self.send_json(411, refusal("P010", "a request needs a Content-Length"))
            return None
        if int(length) > MAX_LINE_BYTES:
            drained = int(length) <= MAX_DRAINED   # read, so that the client sees the reply, not a broken pipe
            for start in range(0, int(length) if drained else 0, READ_CHUNK):
                self.rfile.read(min(READ_CHUNK, int(length) - start))
            self.send_json(413, refusal("P002", f"the request is longer than {MAX_LINE_BYTES} bytes"),
                           close=not drained)
            return None
        return self.rfile.read(int(length))

    # -- replies ---------------------------------------------------------

    def send_json(self, status: int, reply: JSON, *, close: bool | None = None) -> None:
        """A reply; ``close``: close the connection after it (default: for a refusal, whose
        body is not read)."""
        self.send(status, encode(reply), "application/json; charset=utf-8",
                  close=status >= 400 and status != 404 if close is None else close)

    def send(self, status: int, data: bytes, content_type: str, *, close: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged: the terminal shows the address only."""


def make_server(root: Path, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                static: Traversable | None = None, *, max_connections: int = MAX_CONNECTIONS,
                timeouts: ConnectionTimeouts | None = None, agent_budget: AgentBudget | None = None,
                memory: MemoryBudget | None = None) -> tuple[WebServer, WebApp]:
    """A server bound to ``host:port`` (0: any free port) for the rulesets under ``root``,
    not yet serving; ``static`` replaces the page's files (tests); at most
    ``max_connections`` at once, each held to ``timeouts`` (http_server.py); its sessions'
    agents held to ``agent_budget``, and all of them to ``memory`` (defaults: budgets.py, memory.py)."""
    app = WebApp(GameLibrary(root), static if static is not None else package_files(),
                 agent_budget=agent_budget or AgentBudget(), memory=memory or MemoryBudget())
    handler = type("BoundHandler", (Handler,), {"app": app})
    server = WebServer((host, port), handler, max_connections, timeouts)
    app.listen_on(host, server.server_address[1])
    return server, app


def address(server: WebServer, host: str) -> str:
    """The page's address."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{server.server_address[1]}/"


def host_address(server: WebServer, app: WebApp, host: str) -> str:
    """The address of the host's page: the page's, with the host token."""
    return f"{address(server, host)}?host={app.host_token}"


def serve(root: str = ".", host: str = "127.0.0.1", port: int = DEFAULT_PORT, open_browser: bool = True,
          echo: Callable[[str], None] = print, *, agent_budget: AgentBudget | None = None,
          timeouts: ConnectionTimeouts | None = None, memory: MemoryBudget | None = None) -> None:
    """Serve the page for the rulesets under ``root`` until Ctrl-C (the budgets and timeouts
    as ``make_server`` takes them)."""
    server, app = make_server(Path(root), host, port, timeouts=timeouts, agent_budget=agent_budget, memory=memory)
    url = address(server, host)
    echo(f"rulelang web: {url}")
    echo(f"the host's page (every seat's secrets in its debug panel): {host_address(server, app, host)}")
    sys.stdout.flush()
    if open_browser:
        with contextlib.suppress(Exception):   # no browser here: the addresses are printed
            webbrowser.open(host_address(server, app, host))
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
