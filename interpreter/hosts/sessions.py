"""The JSON-lines server (``rulelang serve``): the host API for programs in other languages.

One request per line, one reply per line, over stdin/stdout or a local TCP port. A
``Session`` turns one request into one reply and holds the games and states that its
client made, by handle (``g1``, ``s1``); the loops around it only split lines and write
replies. The protocol, its error codes and its limits are in ``docs/protocol.md``; requests
and replies are described by ``rulelang/schemas/protocol.schema.json``.

    python -m rulelang.interpreter.hosts.server                 # stdin/stdout
    python -m rulelang.interpreter.hosts.server --port 7370     # TCP on 127.0.0.1

Every connection has its own session; the rulesets loaded are shared by every session of a
server (a ``Game`` never changes). Requests run one at a time on the server's one thread,
so no two of them ever touch the engine at once.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib.resources
import json
import os
import signal
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from rulelang.check.settings import read_settings
from rulelang.check.variants import read_source
from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, IllegalActionError, RulelangError, RulesetError
from rulelang.files import MAX_RULESET_BYTES, inside, resolved
from rulelang.loader import lint_text, load, read_ruleset

from ..game import Game
from ..state.state import State

if TYPE_CHECKING:
    from ..agents.agents import AgentSpec
    from .seat_view import SeatData

PROTOCOL_VERSION = 1
SCHEMA = "schemas/protocol.schema.json"
MAX_LINE_BYTES = 1024 * 1024   # a request line, without its newline: ten times the largest saved state of games/
MAX_GAMES = 16                 # rulesets loaded at once by one session
MAX_STATES = 1000              # states held at once by one session
MAX_CONNECTIONS = 128          # TCP clients served at once
GAMES_CACHED = 32              # loaded rulesets a server keeps for its sessions
MAX_ID_LENGTH = 200            # characters of a request id that is a string
READ_CHUNK = 64 * 1024
WRITE_CHUNK = 256 * 1024       # replies gathered before they are sent
DEFAULT_HOST = "127.0.0.1"
MAX_RULESETS = 500             # ruleset files 'rulesets' lists at most
MAX_FOLDERS_SCANNED = 5000     # folders 'rulesets' looks in at most
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
RULESET_SUFFIX = ".rules"
MAX_AGENT_ITERATIONS = 20_000  # an agent's budget per decision ('agent_action'): requests run one at a time
MAX_AGENT_SECONDS = 10.0

JSON = dict[str, Any]
Handler = Callable[["Session", JSON], JSON]


class ProtocolError(Exception):
    """A request the protocol refuses (code ``Pnnn``, docs/protocol.md) before the engine sees it."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class TooLong:
    """Stands in the stream of lines for a line longer than the limit (which was dropped)."""


TOO_LONG = TooLong()


# ---------------------------------------------------------------- the rulesets a server shares

@dataclass
class GameLibrary:
    """The rulesets a server has loaded, shared by its sessions: a ruleset file is read again
    only when its size or time changes. ``root`` confines the paths clients may name."""

    root: Path | None = None
    cached: OrderedDict[tuple[str, int, int, int | None], Game] = field(default_factory=OrderedDict)
    summaries: dict[tuple[str, int, int], JSON] = field(default_factory=dict)

    def game(self, name: str, players: int | None) -> Game:
        """The Game of the ruleset file ``name`` (relative to the root, or to the server's
        folder without one) for ``players``; RulesetError or ProtocolError P007 if refused."""
        path = self.path_of(name)
        try:
            info = os.stat(path)
        except OSError:
            return load(path, players, root=self.root)   # the engine says why it cannot be read
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size, players)
        if key not in self.cached:
            self.cached[key] = load(path, players, root=self.root)
            if len(self.cached) > GAMES_CACHED:
                self.cached.popitem(last=False)
        self.cached.move_to_end(key)
        return self.cached[key]

    def path_of(self, name: str) -> Path:
        """The path the client names; P007 when it leads out of the root."""
        if "\0" in name or not name:
            raise ProtocolError("P007", f"{name!r} is not a file name")
        path = (self.root or Path()) / name
        if self.root is not None and not inside(resolved(path), resolved(self.root)):
            raise ProtocolError("P007", f"{name}: the path leads out of the server's root folder")
        return path

    def game_of_text(self, name: str, text: str, players: int | None) -> Game:
        """The Game of ``text`` read as the ruleset file ``name`` (its ``extends`` and boards
        resolve from that file's folder); never cached: an editor's text changes."""
        path = self.path_of(name)
        try:
            return load(text, players, path=str(path), root=self.root)
        except RulesetError as error:   # located as the client named the files, as 'lint' does
            raise RulesetError([self.as_named(d, str(path), name) for d in error.diagnostics]) from None

    def as_named(self, diagnostic: Diagnostic, full: str, name: str) -> Diagnostic:
        """``diagnostic`` with its file as a client of the root names it (``shown_file``)."""
        if diagnostic.span is None:
            return diagnostic
        file = shown_file(diagnostic.span.file, full, name, self.root)
        return replace(diagnostic, span=replace(diagnostic.span, file=file))

    def ruleset_file(self, name: str) -> Path:
        """The path of the ruleset file ``name``: P007 unless it names a ``.rules`` file in the root."""
        if not name.endswith(RULESET_SUFFIX):
            raise ProtocolError("P007", f"{_short(name)}: not a ruleset file (*{RULESET_SUFFIX})")
        return self.path_of(name)

    def rulesets(self) -> list[JSON]:
        """Every ruleset file under the root (or the working folder), sorted, at most
        MAX_RULESETS: its path relative to the root, its title and its player range."""
        top = self.root or Path()
        return [self.summary(top, name) for name in ruleset_names(top)]

    def summary(self, top: Path, name: str) -> JSON:
        """A ruleset's path, title and player range (None when it does not read), kept
        until its file changes."""
        path = top / name
        info = os.stat(path)
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
        if key not in self.summaries:
            if len(self.summaries) >= 4 * MAX_RULESETS:   # mostly files that changed since
                self.summaries.clear()
            self.summaries[key] = ruleset_summary(path, self.root)
        return {"path": name, **self.summaries[key]}


def ruleset_names(top: Path) -> list[str]:
    """The ``.rules`` files under ``top`` as paths relative to it with "/", sorted; hidden
    folders, virtual environments and links out of ``top`` skipped; at most MAX_RULESETS."""
    found: list[str] = []
    real_top = resolved(top)
    for scanned, (folder, folders, files) in enumerate(os.walk(top)):
        if scanned >= MAX_FOLDERS_SCANNED:   # a root far too large (a home folder): what was found so far
            break
        folders[:] = sorted(f for f in folders if not skipped_folder(Path(folder) / f))
        for file in files:
            path = Path(folder) / file
            if file.endswith(RULESET_SUFFIX) and not file.startswith(".") and inside(resolved(path), real_top) \
                    and path.is_file():
                found.append(path.relative_to(top).as_posix())
    return sorted(found)[:MAX_RULESETS]


def skipped_folder(folder: Path) -> bool:
    """A folder 'rulesets' does not look in: hidden, a virtual environment, installed packages."""
    return folder.name.startswith(".") or folder.name in SKIPPED_FOLDERS or (folder / "pyvenv.cfg").exists()


def ruleset_summary(path: Path, root: Path | None) -> JSON:
    """The title and player range of a ruleset file; its file name and None when it does not read."""
    try:
        declarations, _, shown = read_ruleset(path, root=root)
        settings, problems = read_settings(declarations, shown)
    except Exception:   # any problem of the file: the list shows it as not loading
        return {"title": path.stem, "players": None}
    if any(problem.severity == "error" for problem in problems):
        return {"title": settings.title or path.stem, "players": None}
    return {"title": settings.title or path.stem, "players": list(settings.players)}


# ---------------------------------------------------------------- one client's session

class Session:
    """The games and states of one client, and the handling of its requests."""

    def __init__(self, library: GameLibrary | None = None, *, max_games: int = MAX_GAMES,
                 max_states: int = MAX_STATES, allow_write: bool = False):
        self.library = library if library is not None else GameLibrary()
        self.allow_write = allow_write   # may 'save_source' write ruleset files (the web server's sessions)
        self.max_games = max_games
        self.max_states = max_states
        self.games: dict[str, Game] = {}
        self.states: dict[str, tuple[str, State]] = {}   # handle -> (its game's handle, state)
        self.made = 0   # handles given so far: each handle is used once

    def handle_line(self, line: bytes | str | TooLong) -> JSON:
        """The reply to one line of the protocol."""
        if isinstance(line, TooLong):
            return error_reply(None, None, ProtocolError("P002", f"the line is longer than {MAX_LINE_BYTES} bytes"))
        try:
            request = parse_json(line)
        except ProtocolError as error:
            return error_reply(None, None, error)
        return self.handle(request)

    def handle(self, request: object) -> JSON:
        """The reply to one request (a decoded JSON value); never raises."""
        request_id, op = None, None
        try:
            fields = as_object(request)
            request_id = request_id_of(fields)
            op = op_of(fields)
            check_request(op, fields)
            return {"id": request_id, "op": op, "ok": True, "result": OPS[op](self, fields)}
        except ProtocolError as error:
            return error_reply(request_id, op, error)
        except RulelangError as error:
            return error_reply(request_id, op, error)
        except Exception as error:
            return error_reply(request_id, op, internal_error(error))

    # ---- handles ----
    def game(self, handle: str) -> Game:
        try:
            return self.games[handle]
        except KeyError:
            raise ProtocolError("P005", f"no game {handle!r} in this session") from None

    def state(self, handle: str) -> State:
        try:
            return self.states[handle][1]
        except KeyError:
            raise ProtocolError("P005", f"no state {handle!r} in this session") from None

    def game_of(self, handle: str) -> str:
        self.state(handle)
        return self.states[handle][0]

    def new_handle(self, prefix: str) -> str:
        self.made += 1
        return f"{prefix}{self.made}"

    def add_game(self, game: Game) -> str:
        if len(self.games) >= self.max_games:
            raise ProtocolError("P006", f"this session holds {self.max_games} games, its limit: close one first")
        handle = self.new_handle("g")
        self.games[handle] = game
        return handle

    def add_state(self, game_handle: str, state: State) -> str:
        if len(self.states) >= self.max_states:
            raise ProtocolError("P006", f"this session holds {self.max_states} states, its limit: close some first")
        handle = self.new_handle("s")
        self.states[handle] = (game_handle, state)
        return handle

    def close(self, handle: str) -> list[str]:
        """Forget a state, or a game and every state of it; the handles closed."""
        if handle in self.states:
            del self.states[handle]
            return [handle]
        self.game(handle)
        closed = [h for h, (g, _) in self.states.items() if g == handle]
        for state_handle in closed:
            del self.states[state_handle]
        del self.games[handle]
        return [handle, *closed]


# ---------------------------------------------------------------- requests, one function each

def op_hello(session: Session, request: JSON) -> JSON:
    return {"protocol": PROTOCOL_VERSION, "rulelang": _version(), "ops": sorted(OPS),
            "limits": {"max_line_bytes": MAX_LINE_BYTES, "max_games": session.max_games,
                       "max_states": session.max_states}}


def op_load(session: Session, request: JSON) -> JSON:
    library, players = session.library, request.get("players")
    if "text" in request:
        game = library.game_of_text(request["path"], request["text"], players)
    else:
        game = library.game(request["path"], players)
    handle = session.add_game(game)
    low, high = game.settings.players
    return {"game": handle, "title": game.title, "players": game.num_players,
            "num_distinct_actions": game.num_distinct_actions(), "min_players": low, "max_players": high,
            "seats": seat_names(game)}


def seat_names(game: Game) -> list[str]:
    """How messages name each seat ("player 1"...)."""
    return [str(seat["name"]) for seat in game.catalog_info()["seats"]]


def op_new_game(session: Session, request: JSON) -> JSON:
    game = session.game(request["game"])
    state = game.new_initial_state(seed=request.get("seed", 0),
                                   explicit_chance=request.get("explicit_chance", False))
    return {"state": session.add_state(request["game"], state), **progress(state)}


def op_status(session: Session, request: JSON) -> JSON:
    state = session.state(request["state"])
    over = state.is_terminal()
    return {**progress(state), "returns": state.returns() if over else None, "winners": state.winners(),
            "history_length": len(state.history())}


def op_decision(session: Session, request: JSON) -> JSON:
    context = session.state(request["state"]).decision(request.get("player"))
    return {"decision": None if context is None else context.to_json()}


def op_legal_actions(session: Session, request: JSON) -> JSON:
    actions = session.state(request["state"]).legal_actions(request.get("player"))
    return {"actions": [[action.id, action.label] for action in actions]}


def op_apply(session: Session, request: JSON) -> JSON:
    state = session.state(request["state"])
    state.apply_action(request["action"], player=request.get("player"))
    return progress(state)


def op_observe(session: Session, request: JSON) -> JSON:
    return {"observation": session.state(request["state"]).observation(request["player"])}


def op_resample(session: Session, request: JSON) -> JSON:
    state = session.state(request["state"])
    sample = state.resample_from_infostate(request["player"], request["seed"])
    return {"state": session.add_state(session.game_of(request["state"]), sample)}


def op_clone(session: Session, request: JSON) -> JSON:
    state = session.state(request["state"])
    return {"state": session.add_state(session.game_of(request["state"]), state.clone())}


def op_save(session: Session, request: JSON) -> JSON:
    data = session.state(request["state"]).to_json()
    if request.get("text", False):   # for clients whose JSON loses integers past 2^53
        return {"text": json.dumps(data, ensure_ascii=False, separators=(",", ":"))}
    return {"data": data}


def op_restore(session: Session, request: JSON) -> JSON:
    data = request["data"] if "data" in request else parse_json(request["text"])
    state = session.game(request["game"]).state_from_json(data)
    return {"state": session.add_state(request["game"], state), **progress(state)}


def op_close(session: Session, request: JSON) -> JSON:
    return {"closed": session.close(request["handle"])}


def op_rulesets(session: Session, request: JSON) -> JSON:
    return {"rulesets": session.library.rulesets()}


def op_source(session: Session, request: JSON) -> JSON:
    path = session.library.ruleset_file(request["path"])
    return {"path": request["path"], "text": read_source(path, request["path"])}


def op_lint(session: Session, request: JSON) -> JSON:
    name = request["path"]
    path = session.library.path_of(name)
    found = lint_text(request["text"], str(path), root=session.library.root)
    return {"diagnostics": [lint_data(d, str(path), name, session.library.root) for d in found]}


def lint_data(diagnostic: Diagnostic, full: str, name: str, root: Path | None) -> JSON:
    """A diagnostic of 'lint' as data: its file as the client named it (a file beside it,
    a board, relative to the root), its span 1-based."""
    span = diagnostic.location
    data: JSON = {"code": diagnostic.code, "severity": diagnostic.severity, "message": diagnostic.message,
                  "line": max(span.line, 1), "column": max(span.column, 1), "end_line": max(span.end_line, 1),
                  "end_column": max(span.end_column, 1), "file": shown_file(span.file, full, name, root)}
    if diagnostic.hint is not None:
        data["hint"] = diagnostic.hint
    return data


def shown_file(file: str, full: str, name: str, root: Path | None) -> str:
    """``file`` as a client of the root sees it: ``name`` for the linted file, a path
    relative to the root for another file in it."""
    if file == full:
        return name
    if root is not None and inside(resolved(Path(file)), resolved(root)):
        return resolved(Path(file)).relative_to(resolved(root)).as_posix()
    return file


def op_save_source(session: Session, request: JSON) -> JSON:
    if not session.allow_write:
        raise ProtocolError("P008", "this server does not write files (only 'rulelang web' does)")
    path = session.library.ruleset_file(request["path"])
    data = request["text"].encode("utf-8")
    if len(data) > MAX_RULESET_BYTES:
        raise ProtocolError("P003", f"request.text is larger than a ruleset may be ({MAX_RULESET_BYTES} bytes)")
    if not path.parent.is_dir():
        raise ProtocolError("P007", f"{_short(request['path'])}: no such folder")
    if path.exists() and not path.is_file():
        raise ProtocolError("P007", f"{_short(request['path'])}: not a regular file")
    path.write_bytes(data)
    return {"path": request["path"], "bytes": len(data)}


def op_graph(session: Session, request: JSON) -> JSON:
    from rulelang.check.graph import graph_layout, phase_graph
    return graph_layout(phase_graph(session.game(request["game"]).catalog.decls))


def op_boards(session: Session, request: JSON) -> JSON:
    from .board_layout import board_layout
    boards = session.game(request["game"]).catalog.boards.values()
    return {"boards": [board_layout(board) for board in boards]}


def op_view(session: Session, request: JSON) -> JSON:
    from .seat_view import view_data
    state = session.state(request["state"])
    player = request["player"]
    if player != -1 and player >= state.game.num_players:
        raise IllegalActionError(f"there is no seat {player} (player {player + 1}): "
                                 f"the game has {state.game.num_players}")
    return view_data(seat_data(state.game), state, player)


@functools.lru_cache(maxsize=GAMES_CACHED)
def seat_data(game: Game) -> SeatData:
    """What the views of a game's seats share (its catalog info, read once)."""
    from .seat_view import SeatData
    return SeatData(game)


def op_agent_action(session: Session, request: JSON) -> JSON:
    from ..agents.agents import AgentSpecError, parse_agents
    state, player = session.state(request["state"]), request["player"]
    try:
        spec = parse_agents(request["agent"], 1)[0]
        check_budget(spec)
        agent = spec.build(state.game, request.get("seed", 0))
    except AgentSpecError as error:
        raise ProtocolError("P003", f"request.agent: {_short(str(error))}") from None
    if state.is_terminal() or player not in state.current_players():
        acting = ", ".join(f"player {p + 1}" if p >= 0 else "chance" for p in state.current_players())
        raise IllegalActionError(f"player {player + 1} is not to act; to act: {acting or 'nobody'}")
    action = agent.choose(state.clone(), player)
    return {"action": [action.id, action.label]}


def check_budget(spec: AgentSpec) -> None:
    """AgentSpecError for an agent that would hold the server too long."""
    from ..agents.agents import AgentSpecError
    if (spec.iterations or 0) > MAX_AGENT_ITERATIONS or (spec.seconds or 0) > MAX_AGENT_SECONDS:
        raise AgentSpecError(f"a budget of at most {MAX_AGENT_ITERATIONS} iterations or "
                             f"{MAX_AGENT_SECONDS:g} seconds per decision, here")


def op_replay(session: Session, request: JSON) -> JSON:
    state, step = session.state(request["state"]), request["step"]
    history = state.history()
    if step > len(history):
        raise ProtocolError("P003", f"request.step must be at most {len(history)}, the actions of this game")
    replayed = state.game.new_initial_state(seed=state.seed, explicit_chance=state.explicit_chance)
    for player, action_id in history[:max(step - 1, 0)]:
        replayed.apply_action(action_id, player=player)
    last: JSON | None = None
    if step:   # the last action, labelled as it was offered
        player, action_id = history[step - 1]
        asked = replayed.decision(player)
        offered = asked.actions if asked is not None else ()
        label = next((a.label for a in offered if a.id == action_id), str(action_id))
        replayed.apply_action(action_id, player=player)
        last = {"player": player, "action": action_id, "label": label}
    handle = session.add_state(session.game_of(request["state"]), replayed)
    return {"state": handle, "step": step, "steps": len(history), **progress(replayed), "last": last}


def progress(state: State) -> JSON:
    """Who is to act and whether the game is over: what a client needs after each move."""
    return {"to_act": state.current_players(), "terminal": state.is_terminal()}


OPS: dict[str, Handler] = {
    "hello": op_hello, "load": op_load, "new_game": op_new_game, "status": op_status,
    "decision": op_decision, "legal_actions": op_legal_actions, "apply": op_apply,
    "observe": op_observe, "resample": op_resample, "clone": op_clone, "save": op_save,
    "restore": op_restore, "close": op_close, "rulesets": op_rulesets, "source": op_source, "lint": op_lint,
    "save_source": op_save_source, "graph": op_graph, "boards": op_boards, "view": op_view,
    "agent_action": op_agent_action, "replay": op_replay,
}


# ---------------------------------------------------------------- checking requests

def parse_json(line: bytes | str) -> object:
    """The JSON value of one line; P001 if it is not JSON (NaN and Infinity are not)."""
    try:
        return json.loads(line, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("P001", "the JSON nests too deeply") from None
    except ValueError as error:   # JSONDecodeError, UnicodeDecodeError, an integer too long
        raise ProtocolError("P001", f"not JSON: {_short(str(error))}") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def as_object(request: object) -> JSON:
    """The request, which must be a JSON object (P003)."""
    if not isinstance(request, dict):
        raise ProtocolError("P003", f"a request is a JSON object, not {_json_type(request)}")
    return request


def request_id_of(request: JSON) -> object:
    """The request's ``id`` (None when it has none); P003 for one that cannot be echoed."""
    request_id = request.get("id")
    if request_id is None or (isinstance(request_id, str) and len(request_id) <= MAX_ID_LENGTH):
        return request_id
    if isinstance(request_id, int) and not isinstance(request_id, bool) and abs(request_id) < 2**53:
        return request_id
    raise ProtocolError("P003", f"the id must be a string of at most {MAX_ID_LENGTH} characters, "
                                f"an integer below 2^53 in size, or null, not {_short(repr(request_id))}")


def op_of(request: JSON) -> str:
    """The request's ``op``: P003 if it has none, P004 if it names no operation."""
    op = request.get("op")
    if not isinstance(op, str):
        raise ProtocolError("P003", "a request needs an 'op': a string")
    if op not in OPS:
        raise ProtocolError("P004", f"unknown op {_short(repr(op))}; the ops are: {', '.join(sorted(OPS))}")
    return op


def check_request(op: str, request: JSON) -> None:
    """P003 when the fields of the request do not fit its op (the schema's definition). A
    field's number is never a float: JSON Schema takes 1.0 for an integer, the engine not."""
    from fastjsonschema import JsonSchemaValueException

    check_fields(op, request)
    for name, value in request.items():
        if isinstance(value, float):
            raise ProtocolError("P003", f"request.{_short(name, 40)} must be an integer, not {_short(repr(value))}")
    try:
        _request_validator(op)(request)
    except JsonSchemaValueException as error:
        where = "request" + str(error.name or "data")[len("data"):]
        message = str(error.message)
        if message.startswith(str(error.name) + " "):
            message = message[len(str(error.name)) + 1:]
        raise ProtocolError("P003", f"{where} {_short(message)}") from None


def check_fields(op: str, request: JSON) -> None:
    """P003 for a field the op does not take or one it needs, named in words."""
    definition = schema()["definitions"][f"request_{op}"]
    unknown = sorted(set(request) - set(definition["properties"]))
    if unknown:
        raise ProtocolError("P003", f"'{op}' takes no field {', '.join(repr(_short(n, 40)) for n in unknown[:5])}; "
                                    f"its fields: {', '.join(sorted(definition['properties']))}")
    missing = [name for name in definition["required"] if name not in request]
    if missing:
        fields = "the field" if len(missing) == 1 else "the fields"
        raise ProtocolError("P003", f"'{op}' needs {fields} {', '.join(map(repr, missing))}")
    alternatives = [case["required"][0] for case in definition.get("oneOf", [])]
    if alternatives and sum(name in request for name in alternatives) != 1:
        raise ProtocolError("P003", f"'{op}' needs exactly one of the fields {' and '.join(map(repr, alternatives))}")


@functools.cache
def schema() -> JSON:
    """The protocol's JSON Schema, as shipped in the package."""
    text = importlib.resources.files("rulelang").joinpath(SCHEMA).read_text(encoding="utf-8")
    loaded: JSON = json.loads(text)
    return loaded


@functools.cache
def _request_validator(op: str) -> Callable[[object], object]:
    return validator(f"request_{op}")


@functools.cache
def validator(definition: str) -> Callable[[object], object]:
    """A definition of the schema (``request``, ``reply``, ``request_apply``...) compiled once."""
    import fastjsonschema

    compiled: Callable[[object], object] = fastjsonschema.compile(
        {"$ref": f"#/definitions/{definition}", "definitions": schema()["definitions"]})
    return compiled


# ---------------------------------------------------------------- replies

def error_reply(request_id: object, op: str | None, error: ProtocolError | RulelangError) -> JSON:
    """``{"id", "ok": false, "error": {...}}``, with the op when the request named a known one."""
    reply: JSON = {"id": request_id}
    if op is not None:
        reply["op"] = op
    reply.update(ok=False, error=error_data(error))
    return reply


def error_data(error: ProtocolError | RulelangError) -> JSON:
    """An error as data: the first diagnostic's code, message, location and hint, and every
    diagnostic when the engine gave several (a ruleset with several problems)."""
    if isinstance(error, ProtocolError):
        return {"code": error.code, "message": error.message}
    data = diagnostic_data(error.diagnostic)
    if len(error.diagnostics) > 1:
        data["diagnostics"] = [diagnostic_data(d) for d in error.diagnostics]
    return data


def diagnostic_data(diagnostic: Diagnostic) -> JSON:
    data: JSON = {"code": diagnostic.code, "message": diagnostic.message}
    if diagnostic.span is not None:
        data["location"] = str(diagnostic.span)
    if diagnostic.hint is not None:
        data["hint"] = diagnostic.hint
    return data


def internal_error(error: BaseException) -> RulelangError:
    """A failure of rulelang itself (E900), reported instead of crashing the server."""
    return RulelangError([Diagnostic("E900", f"rulelang failed: {type(error).__name__}: {_short(str(error))}",
                                     hint=BUG_HINT)])


def encode(reply: JSON) -> bytes:
    """One reply line; an E900 reply if the result cannot be written as JSON."""
    try:
        text = json.dumps(reply, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError) as error:
        fallback = error_reply(reply.get("id"), reply.get("op"), internal_error(error))
        text = json.dumps(fallback, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


@functools.cache
def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulelang")
    except Exception:
        return "unknown"


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
    connections: int = 0

    async def serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            if self.connections > self.max_connections:
                refusal = ProtocolError("P006", f"the server serves at most {self.max_connections} connections at once")
                writer.write(encode(error_reply(None, None, refusal)))
            else:
                await self.answer(reader, writer, Session(self.library))
            await writer.drain()
        except (ConnectionError, OSError):
            pass   # the client went away
        finally:
            self.connections -= 1
            writer.close()

    @staticmethod
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: Session) -> None:
        splitter = LineSplitter()
        while True:
            data = await reader.read(READ_CHUNK)
            replies: list[bytes] = []
            size = 0
            for line in splitter.feed(data) if data else splitter.finish():
                replies.append(encode(session.handle_line(line)))
                size += len(replies[-1])
                if size >= WRITE_CHUNK:   # the replies to one read are sent together, up to a bound
                    await TcpServer.send(writer, replies)
                    replies, size = [], 0
            await TcpServer.send(writer, replies)
            if not data:
                return

    @staticmethod
    async def send(writer: asyncio.StreamWriter, replies: list[bytes]) -> None:
        """Write replies in one call; a client that does not read them waits here."""
        if replies:
            writer.write(b"".join(replies))
            await writer.drain()


async def start_tcp(host: str, port: int, library: GameLibrary,
                    max_connections: int = MAX_CONNECTIONS) -> asyncio.Server:
    """A started TCP server (``port`` 0: any free port; ``server.sockets`` tells which)."""
    tcp = TcpServer(library, max_connections)
    return await asyncio.start_server(tcp.serve_connection, host, port)


async def _serve_tcp_until_stopped(host: str, port: int, library: GameLibrary) -> None:
    """Serve until SIGTERM or SIGINT (Ctrl-C), then close every connection and return."""
    server = await start_tcp(host, port, library)
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

def serve(port: int | None = None, host: str = DEFAULT_HOST, root: str | None = None) -> None:
    """Serve the protocol: on TCP ``host:port`` when a port is given, else on stdin/stdout.
    ``root`` confines the rulesets clients may load (and the files they name)."""
    library = GameLibrary(Path(root) if root is not None else None)
    with contextlib.suppress(KeyboardInterrupt):
        if port is None:
            serve_stream(sys.stdin.buffer, sys.stdout.buffer, Session(library))
        else:
            asyncio.run(_serve_tcp_until_stopped(host, port, library))


def main(argv: list[str] | None = None) -> int:
    """``rulelang serve [--port N] [--host H] [--root DIR]`` without click, for ``python -m``."""
    parser = argparse.ArgumentParser(prog="python -m rulelang.interpreter.hosts.server",
                                     description="Serve the rulelang JSON-lines protocol (docs/protocol.md).")
    parser.add_argument("--port", type=int, default=None, help="TCP port (0: any free port); default: stdin/stdout")
    parser.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--root", default=None, help="the folder that rulesets must lie in")
    arguments = parser.parse_args(argv)
    if arguments.root is not None and not Path(arguments.root).is_dir():
        parser.error(f"--root {arguments.root}: not a folder")
    try:
        serve(arguments.port, arguments.host, arguments.root)
    except OSError as error:   # the port is taken, the address is not local...
        print(f"rulelang serve: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
