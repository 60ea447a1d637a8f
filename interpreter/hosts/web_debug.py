"""The requests of the web page's debug panel (``POST /api/debug`` of ``rulelang web``),
beside the protocol's (``POST /api``): small ops on a session's states, each request
checked before anything is done, so that a bad one gets an error reply (protocol-shaped:
``P003`` for a bad field, ``P004`` for an unknown op, ``P005`` for an unknown handle) and
leaves the session as it was.

- ``agents``: the agents the panel may ask for a move (``agent_action``), as examples, and
  their syntax (docs/agents.md).
- ``rewind`` (``state``, ``seq``): a new state, the game as it was once the event ``seq``
  of the state's log had happened: its history replayed from the start up to the first
  decision at which that event is recorded (the panel's time travel from a log line).
- ``full_state`` (``state``): the whole state as data, every seat's secrets included (the
  saved state, with each component in a zone given with its label). Only the host's page
  may ask for it (the session opened with the server's host token, web.py); any other page
  gets ``P010``: a seat's page sees its seat's view only.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from rulelang.errors import IllegalActionError

from ..agents.spec import AGENT_KINDS, SPEC_SYNTAX
from ..state.state import State
from .protocol import JSON, ProtocolError, shorten
from .sessions import Session, fresh_start, progress

DebugOp = Callable[[Session, JSON], JSON]
AGENT_BUDGETS = {"mcts": "mcts:200"}   # a kind that needs a budget, with one the panel offers


def op_agents(session: Session, request: JSON) -> JSON:
    """'agents': a spec of each agent kind, and the syntax of every spec."""
    return {"agents": [AGENT_BUDGETS.get(kind, kind) for kind in AGENT_KINDS], "syntax": SPEC_SYNTAX}


def op_rewind(session: Session, request: JSON) -> JSON:
    """'rewind': a new state, the game once the event ``seq`` had happened."""
    state, seq = session.state(request["state"]), request["seq"]
    if state.event_log is None:
        raise IllegalActionError("this state records no events: start it with 'new_game' and \"events\": true")
    if seq >= state.event_count():
        raise ProtocolError("P003", f"request.seq must be below {state.event_count()}, the events of this state")
    history = state.history()
    rewound = fresh_start(state)
    step = 0
    while rewound.event_count() <= seq and step < len(history):
        player, action_id = history[step]
        rewound.apply_action(action_id, player=player)
        step += 1
    handle = session.add_state(session.game_of(request["state"]), rewound)
    return {"state": handle, "step": step, "steps": len(history), **progress(rewound)}


def op_full_state(session: Session, request: JSON) -> JSON:
    """'full_state': the whole state as data (the host's page only: checked by the caller)."""
    state = session.state(request["state"])
    return {"state": labelled_zones(state, state.to_json()), "seats": [str(p) for p in state.game.catalog.players]}


def labelled_zones(state: State, saved: dict[str, Any]) -> dict[str, Any]:
    """The saved state with each zone's component ids given as ``{component, label}``."""
    components = state.game.catalog.components
    zones = {name: [{"component": c, "label": components[c].label} for c in ids]
             for name, ids in saved.get("zones", {}).items()}
    return {**saved, "zones": zones}


# ---------------------------------------------------------------- requests, checked

DEBUG_OPS: dict[str, DebugOp] = {"agents": op_agents, "rewind": op_rewind, "full_state": op_full_state}
HOST_ONLY = frozenset({"full_state"})
FIELDS: dict[str, dict[str, str]] = {   # op -> its fields (beyond id and op) -> their kind; all required
    "agents": {}, "rewind": {"state": "handle", "seq": "count"}, "full_state": {"state": "handle"},
}
MAX_HANDLE = 40


def check_debug_request(op: str, request: JSON, *, host: bool) -> None:
    """P003 for a field the op does not take, one it lacks, or one of the wrong kind; P010
    for an op only the host's page may ask for, unless ``host``."""
    fields = FIELDS[op]
    unknown = sorted(set(request) - set(fields) - {"id", "op"})
    if unknown:
        raise ProtocolError("P003", f"'{op}' takes no field {', '.join(repr(shorten(n, 40)) for n in unknown[:5])}; "
                                    f"its fields: {', '.join(sorted([*fields, 'id', 'op']))}")
    for name, kind in fields.items():
        if name not in request:
            raise ProtocolError("P003", f"'{op}' needs the field {name!r}")
        value = request[name]
        if kind == "handle" and not (isinstance(value, str) and 0 < len(value) <= MAX_HANDLE):
            raise ProtocolError("P003", f"request.{name} must be a handle (a string such as \"s1\"), "
                                        f"not {shorten(repr(value))}")
        if kind == "count" and not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            raise ProtocolError("P003", f"request.{name} must be an integer of 0 or more, not {shorten(repr(value))}")
    if op in HOST_ONLY and not host:
        raise ProtocolError("P010", f"'{op}' shows every seat's secrets: only the host's page may ask for it "
                                    "(the address that 'rulelang web' prints with ?host=)")


def answer_debug(session: Session, body: bytes, *, host: bool) -> JSON:
    """The reply to one request of the debug panel (``host``: the session is the host's page),
    answered as the session answers the protocol's (``Session.handle_by``); never raises."""
    read = session.read_line(body)
    if read.refusal is not None:
        return read.refusal
    return session.handle_by(DEBUG_OPS, partial(check_debug_request, host=host), read.request,
                             text_checked=read.text_checked)
