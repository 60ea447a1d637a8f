"""The requests of the web page's debug panel (``POST /api/debug``, web_debug.py; issue 27):
``rewind`` (the game as it was after a log line), ``full_state`` (the host's page only) and
``agents``; each bad request refused with a clear error, leaving the session as it was; the
host's page opened with the server's host token. (Beside tests/test_web_api.py, which holds
the protocol ops of the page and is near the size a file may have.)"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import result
from test_web_api import HANG, JSON_TYPE, fetch, new_session, play, serving

from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulesetError
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.hosts.web import WebApp, host_address, make_server
from rulelang.interpreter.hosts.web_debug import answer_debug

ROOT = Path(__file__).resolve().parent.parent


def debug(session: Session, op: str, *, host: bool = False, **fields: object) -> dict[str, Any]:
    reply: dict[str, Any] = answer_debug(session, json.dumps({"id": 7, "op": op, **fields}).encode(), host=host)
    assert reply["id"] == 7 or not reply["ok"]
    return reply


def poker(seed: int = 4, moves: int = 2) -> tuple[Session, str]:
    """A session with a game of Kuhn poker (events recorded), ``moves`` random moves in."""
    session = Session(GameLibrary(ROOT))
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=seed, events=True)["state"]
    play(session, state, moves, seed=seed)
    return session, state


def test_rewind_gives_the_game_at_the_first_decision_after_an_event() -> None:
    session = Session(GameLibrary(ROOT))
    game = result(session, "load", path="games/jolly_roger.rules", players=3)["game"]
    state = result(session, "new_game", game=game, seed=6, events=True)["state"]
    played = play(session, state, 12, seed=6)
    lines = result(session, "narration", state=state, player=0)["lines"]
    whole = result(session, "save", state=state)["data"]
    chosen = next(line for line in lines if line["text"].startswith("player 2 chooses"))
    reply = debug(session, "rewind", state=state, seq=chosen["seq"])
    assert reply["ok"], reply
    rewound = reply["result"]
    # the state just after that choice: its history is the game's up to that choice, no further
    step = rewound["step"]
    assert played[step - 1][0] == 1 and 0 < step < len(played) and rewound["steps"] == len(played)
    assert result(session, "status", state=rewound["state"])["history_length"] == step
    seen = result(session, "narration", state=rewound["state"], player=0)["lines"]
    assert seen[-1]["seq"] >= chosen["seq"] and chosen in seen and seen == lines[:len(seen)]
    before = result(session, "replay", state=state, step=step - 1)["state"]
    assert chosen not in result(session, "narration", state=before, player=0)["lines"]
    assert {k: rewound[k] for k in ("to_act", "terminal")} == {
        "to_act": result(session, "status", state=rewound["state"])["to_act"], "terminal": False}
    assert result(session, "save", state=state)["data"] == whole   # the game itself goes on as it was
    first = debug(session, "rewind", state=state, seq=0)["result"]
    assert first["step"] == 0


@pytest.mark.parametrize(("fields", "code", "words"), [
    ({"seq": 10 ** 6}, "P003", "request.seq must be below"),
    ({"seq": -1}, "P003", "request.seq must be an integer of 0 or more"),
    ({"seq": True}, "P003", "request.seq must be an integer"),
    ({"seq": 1.0}, "P003", "request.seq must be an integer"),
    ({"seq": 0, "player": 1}, "P003", "'rewind' takes no field 'player'"),
    ({}, "P003", "'rewind' needs the field 'seq'"),
    ({"seq": 0, "state": "s99"}, "P005", "no state 's99'"),
    ({"seq": 0, "state": 5}, "P003", "request.state must be a handle"),
])
def test_a_bad_rewind_is_refused_and_leaves_the_session_as_it_was(fields: dict[str, object], code: str,
                                                                   words: str) -> None:
    session, state = poker()
    held, made = dict(session.states), session.made
    body = json.dumps({"op": "rewind", "state": state, **fields}).encode()
    reply = answer_debug(session, body, host=True)
    assert not reply["ok"] and reply["op"] == "rewind"
    assert reply["error"]["code"] == code and words in reply["error"]["message"], reply
    assert session.states == held and session.made == made


def test_a_rewind_of_a_state_without_events_and_an_unknown_op_are_refused() -> None:
    session = Session(GameLibrary(ROOT))
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=1)["state"]
    silent = debug(session, "rewind", state=state, seq=0)
    assert not silent["ok"] and "records no events" in silent["error"]["message"]
    unknown = debug(session, "undo_all")
    assert unknown["error"]["code"] == "P004" and "agents, full_state, rewind" in unknown["error"]["message"]
    broken = answer_debug(session, b"{not json", host=True)
    assert broken["error"]["code"] == "P001" and len(session.states) == 1


def test_full_state_shows_every_seats_secrets_to_the_host_only() -> None:
    session, state = poker(moves=0)
    refused = debug(session, "full_state", state=state)
    assert refused["error"]["code"] == "P010" and "host" in refused["error"]["message"]
    whole = debug(session, "full_state", state=state, host=True)["result"]
    saved = result(session, "save", state=state)["data"]
    assert set(whole["state"]) == set(saved) and whole["state"]["history"] == saved["history"]
    assert whole["seats"] == ["player 1", "player 2"]
    # each seat's hand, labelled, though the view of player 1 hides player 2's
    hands = {name: cards for name, cards in whole["state"]["zones"].items() if name.startswith("hand")}
    assert hands and all(len(cards) == 1 and cards[0]["label"] for cards in hands.values())
    assert [c["component"] for c in hands["hand/1"]] == saved["zones"]["hand/1"]
    view = result(session, "view", state=state, player=0)["observation"]
    assert view["players"][1]["hand"] == {"count": 1}


def test_agents_offers_a_spec_of_each_agent_kind() -> None:
    session, _ = poker(moves=0)
    agents = debug(session, "agents")["result"]
    assert agents["agents"] == ["random", "greedy", "mcts:200"] and "greedy:FUNCTION" in agents["syntax"]
    state = next(iter(session.states))
    for spec in agents["agents"]:   # each one the server takes
        assert result(session, "agent_action", state=state, player=0, agent=spec)["action"]


# ---------------------------------------------------------------- over HTTP: the host's page

@pytest.fixture
def served() -> Iterator[tuple[str, WebApp]]:
    server, app = make_server(ROOT, "127.0.0.1", 0)
    with serving(server) as address:
        yield address, app


def post(url: str, body: dict[str, object], token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {**JSON_TYPE, **({"X-Rulelang-Session": token} if token else {})}
    status, _, data = fetch(url, json.dumps(body).encode(), headers)
    reply: dict[str, Any] = json.loads(data)
    return status, reply


def test_the_host_token_opens_the_hosts_page_and_only_it_sees_the_full_state(served: tuple[str, WebApp]) -> None:
    web, app = served
    status, opened = post(f"{web}/api/session", {"host": app.host_token})
    assert status == 200 and opened["host"] is True
    host, seat = opened["session"], new_session(web)
    for token in (host, seat):
        post(f"{web}/api", {"op": "load", "path": "games/kuhn_poker.rules", "players": 2}, token)
        post(f"{web}/api", {"op": "new_game", "game": "g1", "seed": 2, "events": True}, token)
    status, whole = post(f"{web}/api/debug", {"id": 1, "op": "full_state", "state": "s2"}, host)
    assert status == 200 and whole["ok"] and len(whole["result"]["state"]["zones"]["hand/1"]) == 1
    status, refused = post(f"{web}/api/debug", {"id": 2, "op": "full_state", "state": "s2"}, seat)
    assert status == 200 and refused["error"]["code"] == "P010"
    _, rewound = post(f"{web}/api/debug", {"id": 3, "op": "rewind", "state": "s2", "seq": 0}, seat)
    assert rewound["ok"] and rewound["result"]["state"] == "s3"
    status, unknown = post(f"{web}/api/debug", {"op": "agents"}, "made-up")
    assert status == 403 and unknown["error"]["code"] == "P009"


def test_a_wrong_host_token_or_body_opens_no_session(served: tuple[str, WebApp]) -> None:
    web, app = served
    bodies: list[dict[str, object]] = [{"host": "guess"}, {"host": None}, {"host": app.host_token[:-1]}]
    for body in bodies:
        status, refused = post(f"{web}/api/session", body)
        assert status == 403 and refused["error"]["code"] == "P010" and "host token" in refused["error"]["message"]
    status, _, data = fetch(f"{web}/api/session", b"[1]", JSON_TYPE)
    assert status == 400 and json.loads(data)["error"]["code"] == "P001"
    assert len(app.sessions) == 0 and not app.host_sessions
    status, plain = post(f"{web}/api/session", {})
    assert status == 200 and plain["host"] is False and not app.host_sessions


def test_the_host_address_carries_the_token_and_each_server_has_its_own() -> None:
    server, app = make_server(ROOT, "127.0.0.1", 0)
    other, other_app = make_server(ROOT, "127.0.0.1", 0)
    try:
        assert host_address(server, app, "127.0.0.1") == \
            f"http://127.0.0.1:{server.server_address[1]}/?host={app.host_token}"
        assert len(app.host_token) >= 20 and app.host_token != other_app.host_token
    finally:
        server.server_close()
        other.server_close()



def test_rulelang_web_prints_the_hosts_address_after_its_own(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "rulelang", "web", str(tmp_path), "--no-browser", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
        page = re.fullmatch(r"rulelang web: (http://127\.0\.0\.1:\d+)/\n", first)
        assert page, (first, second)
        host = re.fullmatch(rf"the host's page \(every seat's secrets in its debug panel\): "
                            rf"{re.escape(page.group(1))}/\?host=([A-Za-z0-9_-]{{20,}})\n", second)
        assert host, second
        status, opened = post(f"{page.group(1)}/api/session", {"host": host.group(1)})
        assert status == 200 and opened["host"] is True
    finally:
        process.terminate()
        process.wait(HANG)


def test_a_debug_request_that_meets_a_ruleset_error_gets_the_protocols_error(tmp_path: Path) -> None:
    root = tmp_path / "served root"
    (root / "games").mkdir(parents=True)
    (root / "games" / "kuhn_poker.rules").write_text((ROOT / "games" / "kuhn_poker.rules").read_text("utf-8"), "utf-8")
    session = Session(GameLibrary(root))
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=1, events=True)["state"]
    play(session, state, 1, seed=1)
    where = str(root / "games" / "kuhn_poker.rules")

    def broken(*args: object, **kwargs: object) -> None:   # (the game's data went bad since it was loaded)
        raise RulesetError([Diagnostic("E401", f"cannot read {where}", Span.point(where, 1, 1))])

    session.games[game].new_initial_state = broken   # type: ignore[method-assign]
    reply = debug(session, "rewind", state=state, seq=0)
    assert not reply["ok"] and "served root" not in json.dumps(reply), reply
    assert reply["error"] == session.handle({"id": 7, "op": "new_game", "game": game})["error"]
