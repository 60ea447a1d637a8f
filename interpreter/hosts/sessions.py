"""A client's session of ``rulelang serve``: the games and states it made, by handle (``g1``,
``s1``), and the turning of one request into one reply, by one function per op.

A ``Session`` never raises: a request the protocol refuses, an engine error and a failure of
rulelang itself all become error replies (``protocol.py``). Its games come from the server's
``GameLibrary`` (``library.py``), which every session of a server shares.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.check.variants import read_source
from rulelang.diagnostics import Diagnostic
from rulelang.errors import IllegalActionError, RulelangError, RulesetError
from rulelang.files import MAX_RULESET_BYTES
from rulelang.loader import lint_text

from ..game import Game
from ..state.state import State
from .budgets import AgentBudget
from .library import GAMES_CACHED, GameLibrary, shown_file, write_ruleset
from .memory import MemoryBudget, game_size, state_size
from .protocol import (
    JSON,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    TooLong,
    as_object,
    check_request,
    encodable_id,
    error_reply,
    internal_error,
    may_hold_surrogates,
    op_of,
    parse_json,
    refuse_lone_surrogates,
    request_id_of,
    shorten,
)

if TYPE_CHECKING:
    from .seat_view import SeatData

MAX_GAMES = 16                 # rulesets loaded at once by one session
MAX_STATES = 1000              # states held at once by one session

Handler = Callable[["Session", JSON], JSON]
Check = Callable[[str, JSON], None]
"""What refuses the fields of a request that do not fit its op (ProtocolError P003)."""


class Session:
    """The games and states of one client, and the handling of its requests."""

    def __init__(self, library: GameLibrary | None = None, *, max_games: int = MAX_GAMES,
                 max_states: int = MAX_STATES, allow_write: bool = False,
                 agent_budget: AgentBudget | None = None, memory: MemoryBudget | None = None):
        self.library = library if library is not None else GameLibrary()
        self.agent_budget = agent_budget if agent_budget is not None else AgentBudget()
        self.allow_write = allow_write   # may 'save_source' write ruleset files (the web server's sessions)
        self.max_games = max_games
        self.max_states = max_states
        self.games: dict[str, Game] = {}
        self.states: dict[str, tuple[str, State]] = {}   # handle -> (its game's handle, state)
        self.made = 0   # handles given so far: each handle is used once
        self.from_text: set[str] = set()   # the games loaded from a client's text (its rules may be slow)
        self.memory = memory               # the server's budget across sessions (None: no budget)
        self.charged: dict[str, int] = {}  # handle -> bytes counted against the memory budget
        self.reclaimed: str | None = None  # why this session's games and states went, if they did

    def handle_line(self, line: bytes | str | TooLong) -> JSON:
        """The reply to one line of the protocol."""
        return self.answer(self.read_line(line))

    def read_line(self, line: bytes | str | TooLong) -> ReadLine:
        """One line of the protocol read: its request, or the reply that refuses it."""
        if isinstance(line, TooLong):
            return ReadLine(refusal=error_reply(None, None, ProtocolError(
                "P002", f"the line is longer than {MAX_LINE_BYTES} bytes")))
        try:
            return ReadLine(parse_json(line), text_checked=not may_hold_surrogates(line))
        except ProtocolError as error:
            return ReadLine(refusal=error_reply(None, None, error))

    def answer(self, read: ReadLine) -> JSON:
        """The reply to a line read (``read_line``)."""
        if read.refusal is not None:
            return read.refusal
        return self.handle(read.request, text_checked=read.text_checked)

    def may_take_long(self, read: ReadLine) -> bool:
        """Whether the request of ``read`` may take long (a transport then answers it in a
        worker thread): an op whose work has no small bound (LONG_OPS), or any op on a game
        whose rules came from a client's text (bounded only by the server's steps)."""
        request = read.request
        if read.refusal is not None or not isinstance(request, dict):
            return False
        if request.get("op") in LONG_OPS:
            return True
        handle = request.get("state", request.get("game"))
        if not isinstance(handle, str):
            return False
        held = self.states.get(handle)
        return (held[0] if held is not None else handle) in self.from_text

    def handle(self, request: object, *, text_checked: bool = False) -> JSON:
        """The reply to one request of the protocol (a decoded JSON value); never raises.
        ``text_checked``: its strings are known to hold no lone surrogate (P011)."""
        return self.handle_by(OPS, check_request, request, text_checked=text_checked)

    def handle_by(self, ops: Mapping[str, Handler], check: Check, request: object, *,
                  text_checked: bool = False) -> JSON:
        """The reply to one request for one of ``ops`` (``check`` refuses its fields if they
        do not fit its op), counted against the memory budget; never raises. The protocol's
        requests and those of the web page's debug panel (web_debug.py) are answered so."""
        if self.memory is None:
            return self.handle_request(ops, check, request, text_checked)
        self.memory.begin(self)
        try:
            return self.handle_request(ops, check, request, text_checked)
        finally:
            self.memory.end(self)

    def handle_request(self, ops: Mapping[str, Handler], check: Check, request: object, text_checked: bool) -> JSON:
        """The reply to one request; never raises."""
        request_id, op = None, None
        try:
            fields = as_object(request)
            request_id = request_id_of(fields)
            if not text_checked:
                request_id = encodable_id(request_id)
                refuse_lone_surrogates(fields)
            op = op_of(fields, ops)
            check(op, fields)
            return {"id": request_id, "op": op, "ok": True, "result": ops[op](self, fields)}
        except ProtocolError as error:
            return error_reply(request_id, op, error)
        except RulesetError as error:
            return error_reply(request_id, op, self.library.as_client_error(error))
        except RulelangError as error:
            return error_reply(request_id, op, error)
        except Exception as error:
            return error_reply(request_id, op, internal_error(error))

    # ---- handles ----
    def game(self, handle: str) -> Game:
        """The game of ``handle``; P005 when the session holds none."""
        try:
            return self.games[handle]
        except KeyError:
            raise ProtocolError("P005", f"no game {handle!r} in this session{self.why_gone()}") from None

    def state(self, handle: str) -> State:
        """The state of ``handle``; P005 when the session holds none."""
        try:
            return self.states[handle][1]
        except KeyError:
            raise ProtocolError("P005", f"no state {handle!r} in this session{self.why_gone()}") from None

    def why_gone(self) -> str:
        """What a P005 adds when the session's games and states were reclaimed."""
        return "" if self.reclaimed is None else f" (its games and states were {self.reclaimed})"

    def game_of(self, handle: str) -> str:
        """The handle of the game that the state ``handle`` belongs to."""
        self.state(handle)
        return self.states[handle][0]

    def new_handle(self, prefix: str) -> str:
        """A handle never given before in this session: ``prefix`` and a number."""
        self.made += 1
        return f"{prefix}{self.made}"

    def add_game(self, game: Game, from_text: bool = False) -> str:
        """Hold ``game`` under a new handle; P006 beyond the session's limit, P014 beyond the
        memory budget (a game from a client's text is counted: the others are shared)."""
        if len(self.games) >= self.max_games:
            raise ProtocolError("P006", f"this session holds {self.max_games} games, its limit: close one first")
        size = game_size(game) if from_text and self.memory is not None else 0
        if self.memory is not None and size:
            self.memory.charge(self, size, "the game")
        handle = self.new_handle("g")
        self.games[handle] = game
        if from_text:
            self.from_text.add(handle)
        if size:
            self.charged[handle] = size
        return handle

    def add_state(self, game_handle: str, state: State) -> str:
        """Hold ``state`` of the game ``game_handle`` under a new handle; P006 beyond the limit."""
        if len(self.states) >= self.max_states:
            raise ProtocolError("P006", f"this session holds {self.max_states} states, its limit: close some first")
        size = state_size(state) if self.memory is not None else 0
        if self.memory is not None:
            self.memory.charge(self, size, "the state")
        handle = self.new_handle("s")
        self.states[handle] = (game_handle, state)
        if size:
            self.charged[handle] = size
        return handle

    def close(self, handle: str) -> list[str]:
        """Forget a state, or a game and every state of it; the handles closed."""
        if handle in self.states:
            del self.states[handle]
            self.release([handle])
            return [handle]
        self.game(handle)
        closed = [h for h, (g, _) in self.states.items() if g == handle]
        for state_handle in closed:
            del self.states[state_handle]
        del self.games[handle]
        self.from_text.discard(handle)
        self.release([handle, *closed])
        return [handle, *closed]

    def release(self, handles: list[str]) -> None:
        """Give back to the memory budget what ``handles`` were counted for."""
        size = sum(self.charged.pop(handle, 0) for handle in handles)
        if self.memory is not None and size:
            self.memory.release(self, size)

    def forget_everything(self, reason: str) -> None:
        """(The memory budget's, for an idle session.) Drop every game and state, saying why."""
        self.states.clear()
        self.games.clear()
        self.from_text.clear()
        self.charged.clear()
        self.reclaimed = reason


@dataclass(frozen=True)
class ReadLine:
    """A line of the protocol read: its request (a decoded JSON value), or the reply that
    refuses it; ``text_checked``: its strings are known to hold no lone surrogate."""

    request: object = None
    text_checked: bool = False
    refusal: JSON | None = None


# ---------------------------------------------------------------- requests, one function each

def op_hello(session: Session, request: JSON) -> JSON:
    """'hello': the protocol's version, rulelang's, the ops and the session's limits."""
    return {"protocol": PROTOCOL_VERSION, "rulelang": rulelang_version(), "ops": sorted(OPS),
            "limits": {"max_line_bytes": MAX_LINE_BYTES, "max_games": session.max_games,
                       "max_states": session.max_states}}


def op_load(session: Session, request: JSON) -> JSON:
    """'load': a ruleset file (or an editor's text as that file) loaded as a new game handle."""
    library, players = session.library, request.get("players")
    if "text" in request:
        game = library.game_of_text(request["path"], request["text"], players)
    else:
        game = library.game(request["path"], players)
    handle = session.add_game(game, from_text="text" in request)
    low, high = game.settings.players
    return {"game": handle, "title": game.title, "players": game.num_players,
            "num_distinct_actions": game.num_distinct_actions(), "min_players": low, "max_players": high,
            "seats": seat_names(game)}


def seat_names(game: Game) -> list[str]:
    """How messages name each seat ("player 1"...)."""
    return [str(seat["name"]) for seat in game.catalog_info()["seats"]]


def op_new_game(session: Session, request: JSON) -> JSON:
    """'new_game': a new state of a game, from its seed."""
    game = session.game(request["game"])
    state = game.new_initial_state(seed=request.get("seed", 0),
                                   explicit_chance=request.get("explicit_chance", False),
                                   events=request.get("events", False))
    return {"state": session.add_state(request["game"], state), **progress(state)}


def op_status(session: Session, request: JSON) -> JSON:
    """'status': who is to act, whether the game is over, its returns and winners."""
    state = session.state(request["state"])
    over = state.is_terminal()
    return {**progress(state), "returns": state.returns() if over else None, "winners": state.winners(),
            "history_length": len(state.history())}


def op_decision(session: Session, request: JSON) -> JSON:
    """'decision': the question a state asks a player, with its options (null: none)."""
    context = session.state(request["state"]).decision(request.get("player"))
    return {"decision": None if context is None else context.to_json()}


def op_legal_actions(session: Session, request: JSON) -> JSON:
    """'legal_actions': the actions a player may take, as ``[id, label]`` pairs."""
    actions = session.state(request["state"]).legal_actions(request.get("player"))
    return {"actions": [[action.id, action.label] for action in actions]}


def op_apply(session: Session, request: JSON) -> JSON:
    """'apply': one action applied to a state, which changes in place."""
    state = session.state(request["state"])
    state.apply_action(request["action"], player=request.get("player"))
    return progress(state)


def op_observe(session: Session, request: JSON) -> JSON:
    """'observe': what a player sees of a state."""
    return {"observation": session.state(request["state"]).observation(request["player"])}


def op_narration(session: Session, request: JSON) -> JSON:
    """'narration': the narrated log a player may see (-1: what everyone sees), from event
    ``since`` on, and the number of the next event."""
    state = session.state(request["state"])
    if state.event_log is None:
        raise IllegalActionError("this state records no events: start it with 'new_game' and \"events\": true")
    lines = state.narration(request["player"], request.get("since", 0))
    return {"lines": lines, "next": state.event_count()}


def op_resample(session: Session, request: JSON) -> JSON:
    """'resample': a new state that a player could not tell from this one."""
    state = session.state(request["state"])
    sample = state.resample_from_infostate(request["player"], request["seed"])
    return {"state": session.add_state(session.game_of(request["state"]), sample)}


def op_clone(session: Session, request: JSON) -> JSON:
    """'clone': a copy of a state, under a handle of its own."""
    state = session.state(request["state"])
    return {"state": session.add_state(session.game_of(request["state"]), state.clone())}


def op_save(session: Session, request: JSON) -> JSON:
    """'save': the state as saved-state JSON (or as its text)."""
    data = session.state(request["state"]).to_json()
    if request.get("text", False):   # for clients whose JSON loses integers past 2^53
        return {"text": json.dumps(data, ensure_ascii=False, separators=(",", ":"))}
    return {"data": data}


def op_restore(session: Session, request: JSON) -> JSON:
    """'restore': a state read back from saved-state JSON (or its text)."""
    data = request["data"] if "data" in request else parse_json(request["text"])
    state = session.game(request["game"]).state_from_json(data)
    return {"state": session.add_state(request["game"], state), **progress(state)}


def op_close(session: Session, request: JSON) -> JSON:
    """'close': a state, or a game and its states, forgotten."""
    return {"closed": session.close(request["handle"])}


def op_rulesets(session: Session, request: JSON) -> JSON:
    """'rulesets': the ruleset files under the root, with their titles and player ranges."""
    return {"rulesets": session.library.rulesets()}


def op_source(session: Session, request: JSON) -> JSON:
    """'source': the text of a ruleset file under the root."""
    path = session.library.ruleset_file(request["path"])
    return {"path": request["path"], "text": read_source(path, request["path"])}


def op_lint(session: Session, request: JSON) -> JSON:
    """'lint': the diagnostics of an editor's text, read as the file it names."""
    name, library = request["path"], session.library
    path = library.path_of(name)
    library.budget.check_size(request["text"])
    found = library.budget.within_load_time(f"linting {shorten(name)}",
                                            lambda: lint_text(request["text"], str(path), root=library.root))
    return {"diagnostics": [lint_data(library.relative_diagnostic(d), str(path), name, library.root) for d in found]}


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


def op_save_source(session: Session, request: JSON) -> JSON:
    """'save_source': an editor's text written to a ruleset file (only sessions allowed to write)."""
    if not session.allow_write:
        raise ProtocolError("P008", "this server does not write files (only 'rulelang web' does)")
    path = session.library.ruleset_file(request["path"])
    data = request["text"].encode("utf-8")
    if len(data) > MAX_RULESET_BYTES:
        raise ProtocolError("P003", f"request.text is larger than a ruleset may be ({MAX_RULESET_BYTES} bytes)")
    if not path.parent.is_dir():
        raise ProtocolError("P007", f"{shorten(request['path'])}: no such folder")
    try:
        write_ruleset(path, data)
    except OSError as error:
        raise ProtocolError("P007", f"{shorten(request['path'])}: cannot be written "
                                    f"({error.strerror or type(error).__name__})") from None
    return {"path": request["path"], "bytes": len(data)}


def op_graph(session: Session, request: JSON) -> JSON:
    """'graph': the phase graph of a game, laid out."""
    from rulelang.check.graph import graph_layout, phase_graph
    return graph_layout(phase_graph(session.game(request["game"]).catalog.decls))


def op_boards(session: Session, request: JSON) -> JSON:
    """'boards': every board of a game, laid out for drawing."""
    from .board_layout import board_layout
    boards = session.game(request["game"]).catalog.boards.values()
    return {"boards": [board_layout(board) for board in boards]}


def op_view(session: Session, request: JSON) -> JSON:
    """'view': what one seat (or -1, everything) sees of a state, for the page."""
    from .present_view import presented_view_data
    state = session.state(request["state"])
    player = request["player"]
    if player != -1 and player >= state.game.num_players:
        raise IllegalActionError(f"there is no seat {player} (player {player + 1}): "
                                 f"the game has {state.game.num_players}")
    return presented_view_data(seat_data(state.game), state, player)


@functools.lru_cache(maxsize=GAMES_CACHED)
def seat_data(game: Game) -> SeatData:
    """What the views of a game's seats share (its catalog info, read once)."""
    from .seat_view import SeatData
    return SeatData(game)


def op_agent_action(session: Session, request: JSON) -> JSON:
    """'agent_action': the action an agent chooses for a player, within the server's budget."""
    from ..agents import AgentSpecError, parse_agents
    state, player = session.state(request["state"]), request["player"]
    try:
        spec = parse_agents(request["agent"], 1)[0]
        session.agent_budget.check(spec)
        agent = session.agent_budget.capped(spec.build(state.game, request.get("seed", 0)), spec)
    except AgentSpecError as error:
        raise ProtocolError("P003", f"request.agent: {shorten(error.diagnostic.message)}") from None
    if state.is_terminal() or player not in state.current_players():
        acting = ", ".join(f"player {p + 1}" if p >= 0 else "chance" for p in state.current_players())
        raise IllegalActionError(f"player {player + 1} is not to act; to act: {acting or 'nobody'}")
    copy = state.clone()
    action = session.agent_budget.choice(lambda: agent.choose(copy, player))
    return {"action": [action.id, action.label]}


def op_replay(session: Session, request: JSON) -> JSON:
    """'replay': a new state after the first ``step`` actions of a state's history."""
    state, step = session.state(request["state"]), request["step"]
    history = state.history()
    if step > len(history):
        raise ProtocolError("P003", f"request.step must be at most {len(history)}, the actions of this game")
    replayed = fresh_start(state)
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


def fresh_start(state: State) -> State:
    """A new state of the game of ``state``, as it started: its seed, chance and events."""
    return state.game.new_initial_state(seed=state.seed, explicit_chance=state.explicit_chance,
                                        events=state.event_log is not None)


def progress(state: State) -> JSON:
    """Who is to act and whether the game is over: what a client needs after each move."""
    return {"to_act": state.current_players(), "terminal": state.is_terminal()}


LONG_OPS = frozenset({"load", "lint", "rulesets", "source", "save_source", "restore", "replay", "agent_action"})

OPS: dict[str, Handler] = {
    "hello": op_hello, "load": op_load, "new_game": op_new_game, "status": op_status,
    "decision": op_decision, "legal_actions": op_legal_actions, "apply": op_apply,
    "observe": op_observe, "resample": op_resample, "clone": op_clone, "save": op_save,
    "restore": op_restore, "close": op_close, "rulesets": op_rulesets, "source": op_source, "lint": op_lint,
    "save_source": op_save_source, "graph": op_graph, "boards": op_boards, "view": op_view,
    "agent_action": op_agent_action, "replay": op_replay, "narration": op_narration,
}


@functools.cache
def rulelang_version() -> str:
    """The installed rulelang's version, as 'hello' tells it ("unknown" when not installed)."""
    try:
        from importlib.metadata import version
        return version("rulelang")
    except Exception:
        return "unknown"
