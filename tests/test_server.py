"""The JSON-lines server (``rulelang serve``, docs/protocol.md): a session answers every
request with a reply that fits the protocol's schema, every bad request with an error code;
the stdin/stdout loop carries it; the Node.js client plays Jamaica to the end. The TCP
server under load: tests/test_server_tcp.py."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from formatted_places import place_when_formatted
from hypothesis import given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.protocol import MAX_LINE_BYTES, TOO_LONG, encode, schema, validator
from rulelang.interpreter.hosts.server import LineSplitter
from rulelang.interpreter.hosts.sessions import OPS, Session

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
HANG = 120   # seconds: only to catch a hang, never to time anything

check_reply = validator("reply")
check_request = validator("request")


@pytest.fixture
def session() -> Session:
    return Session(GameLibrary(ROOT))


def ask(session: Session, op: str, **fields: object) -> dict[str, Any]:
    """The reply to one request, after checking it fits the schema and echoes the id."""
    reply = session.handle({"id": f"r-{op}", "op": op, **fields})
    check_reply(reply)
    assert reply["id"] == f"r-{op}"
    return reply


def result(session: Session, op: str, **fields: object) -> dict[str, Any]:
    reply = ask(session, op, **fields)
    assert reply["ok"], reply
    found: dict[str, Any] = reply["result"]
    return found


def error(session: Session, op: str, **fields: object) -> dict[str, Any]:
    reply = ask(session, op, **fields)
    assert not reply["ok"], reply
    found: dict[str, Any] = reply["error"]
    return found


def started(session: Session, ruleset: str = "games/tic_tac_toe.rules", players: int | None = None,
            seed: int = 0) -> tuple[str, str]:
    game = result(session, "load", path=ruleset, players=players)["game"]
    return game, result(session, "new_game", game=game, seed=seed)["state"]


# ---------------------------------------------------------------- the schema

def test_the_schema_is_a_valid_draft_7_schema_and_defines_every_op() -> None:
    import jsonschema
    jsonschema.Draft7Validator.check_schema(schema())
    definitions = schema()["definitions"]
    assert set(definitions["op"]["enum"]) == set(OPS)
    assert {f"request_{op}" for op in OPS} <= set(definitions)


def test_every_exchange_in_the_docs_gives_the_reply_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/protocol.md shows requests (``> ``) and their replies (``< ``): run in order in
    one session from the repository root, each gives exactly the reply shown, which fits the
    schema; every op is shown succeeding, but those whose result depends on the files of the
    repository (tests/test_web_api.py runs them): rulesets, source and save_source (which
    only the web server's sessions may do: shown refused). A decision's place (``at``) in the
    ruleset last loaded is shown as it is once the ruleset is formatted (formatted_places.py)."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    exchanges = re.findall(r"^> (.*)\n< (.*)$", text, re.M)
    session = Session(GameLibrary())
    succeeded = set()
    ruleset = ROOT / "games" / "tic_tac_toe.rules"
    for request, shown in exchanges:
        reply = session.handle_line(request.encode())
        check_reply(reply)
        if reply["ok"] and reply["op"] == "load" and "text" not in json.loads(request):
            ruleset = ROOT / json.loads(request)["path"]
        decision = reply.get("result", {}).get("decision") if reply["ok"] else None
        if decision is not None:
            decision["at"] = place_when_formatted(ruleset, decision["at"])
        assert reply == json.loads(shown), request
        if reply["ok"]:
            check_request(json.loads(request))
            succeeded.add(reply["op"])
    assert succeeded == set(OPS) - {"rulesets", "source", "save_source"}
    assert '"op": "save_source", "ok": false, "error": {"code": "P008"' in text
    assert len(exchanges) == text.count("\n> ") == text.count("\n< ")


# ---------------------------------------------------------------- a session

def test_hello_names_the_protocol_the_ops_and_the_limits(session: Session) -> None:
    hello = result(session, "hello")
    assert hello["protocol"] == 1 and hello["ops"] == sorted(OPS)
    assert hello["limits"] == {"max_line_bytes": MAX_LINE_BYTES, "max_games": 16, "max_states": 1000}


def test_a_whole_game_through_a_session_is_the_game_the_engine_plays(session: Session) -> None:
    _, state = started(session, seed=3)
    moves = [0, 3, 1, 4, 2]   # the first player takes the top row
    for action in moves:
        to_act = result(session, "status", state=state)["to_act"]
        progress = result(session, "apply", state=state, action=action, player=to_act[0])
    assert progress == {"to_act": [], "terminal": True}
    status = result(session, "status", state=state)
    engine = rulelang.load(GAMES / "tic_tac_toe.rules").new_initial_state(seed=3)
    for action in moves:
        engine.apply_action(action)
    assert status == {"to_act": [], "terminal": True, "returns": engine.returns(), "winners": engine.winners(),
                      "history_length": 5}
    assert result(session, "save", state=state)["data"] == engine.to_json()


def test_decision_legal_actions_and_observation_are_the_engines(session: Session) -> None:
    _, state = started(session, "games/kuhn_poker.rules", players=2, seed=5)
    engine = rulelang.load(GAMES / "kuhn_poker.rules", players=2).new_initial_state(seed=5)
    asked = engine.decision(0)
    assert asked is not None
    assert result(session, "decision", state=state, player=0)["decision"] == asked.to_json()
    assert result(session, "decision", state=state, player=1)["decision"] is None
    assert result(session, "legal_actions", state=state)["actions"] == [[a.id, a.label] for a in
                                                                        engine.legal_actions()]
    assert result(session, "observe", state=state, player=1)["observation"] == engine.observation(1)
    assert result(session, "observe", state=state, player=-1)["observation"] == engine.observation(-1)


def test_explicit_chance_is_played_as_player_minus_one(session: Session) -> None:
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=1, explicit_chance=True)["state"]
    assert result(session, "status", state=state)["to_act"] == [-1]
    outcome = result(session, "decision", state=state, player=-1)["decision"]
    assert outcome["kind"] == "chance" and outcome["player"] == -1
    first = outcome["actions"][0][0]
    assert result(session, "apply", state=state, action=first, player=-1)["to_act"] == [-1]


def test_resample_and_clone_give_new_states_and_leave_the_first_unchanged(session: Session) -> None:
    _, state = started(session, "games/kuhn_poker.rules", players=2, seed=1)
    before = result(session, "save", state=state)["data"]
    samples = [result(session, "resample", state=state, player=0, seed=s)["state"] for s in range(12)]
    assert len(set(samples)) == 12 and state not in samples
    seen = {result(session, "save", state=s)["data"]["zones"]["hand/1"][0] for s in samples}
    assert len(seen) == 2   # the other seat's card is either card seat 0 lacks
    views = {json.dumps(result(session, "observe", state=s, player=0)["observation"]) for s in samples}
    assert views == {json.dumps(result(session, "observe", state=state, player=0)["observation"])}
    copy = result(session, "clone", state=state)["state"]
    result(session, "apply", state=copy, action=result(session, "legal_actions", state=copy)["actions"][0][0])
    assert result(session, "save", state=state)["data"] == before


def test_save_and_restore_as_data_and_as_text(session: Session) -> None:
    game, state = started(session, "games/jolly_roger.rules", players=3, seed=9)
    for _ in range(5):
        to_act = result(session, "status", state=state)["to_act"]
        action = result(session, "legal_actions", state=state, player=to_act[0])["actions"][-1][0]
        result(session, "apply", state=state, action=action, player=to_act[0])
    data = result(session, "save", state=state)["data"]
    text = result(session, "save", state=state, text=True)["text"]
    assert json.loads(text) == data
    from_data = result(session, "restore", game=game, data=data)["state"]
    from_text = result(session, "restore", game=game, text=text)["state"]
    assert result(session, "save", state=from_data)["data"] == data
    assert result(session, "save", state=from_text)["data"] == data


def test_close_forgets_a_state_or_a_game_with_its_states(session: Session) -> None:
    game, state = started(session)
    other = result(session, "new_game", game=game, seed=1)["state"]
    assert result(session, "close", handle=state)["closed"] == [state]
    assert error(session, "status", state=state)["code"] == "P005"
    assert result(session, "close", handle=game)["closed"] == [game, other]
    assert error(session, "status", state=other)["code"] == "P005"
    assert error(session, "new_game", game=game)["code"] == "P005"
    assert error(session, "close", handle=game)["code"] == "P005"


def test_a_refused_action_changes_nothing(session: Session) -> None:
    _, state = started(session, seed=2)
    before = result(session, "save", state=state)["data"]
    refused = error(session, "apply", state=state, action=42)
    assert refused["code"] == "E607" and refused["message"].startswith("action 42 is not legal for player 1")
    assert error(session, "apply", state=state, action=0, player=1)["code"] == "E607"
    assert error(session, "apply", state=state, action=0, player=7)["code"] == "E607"
    assert result(session, "save", state=state)["data"] == before


def test_a_broken_ruleset_gives_every_diagnostic_with_its_location(session: Session, tmp_path: Path) -> None:
    (tmp_path / "broken.rules").write_text('game "B" { players 2 }\nphase p {\n  let a = x\n  let b = y\n}\n',
                                           encoding="utf-8")
    confined = Session(GameLibrary(tmp_path))
    found = error(confined, "load", path="broken.rules")
    assert found["code"] == "E101" and found["location"] == "broken.rules:3:11"   # relative to the root (issue 25)
    assert [(d["code"], d["location"].rsplit(":", 2)[1]) for d in found["diagnostics"]] == [("E101", "3"),
                                                                                             ("E101", "4")]
    assert error(confined, "load", path="missing.rules")["code"] == "E001"
    assert error(session, "load", path="games/tic_tac_toe.rules", players=9)["code"] == "E601"


def test_a_root_refuses_paths_that_lead_out_of_it(tmp_path: Path) -> None:
    inside = tmp_path / "inside"
    inside.mkdir()
    shutil.copy(GAMES / "tic_tac_toe.rules", inside / "ttt.rules")
    shutil.copy(GAMES / "tic_tac_toe.rules", tmp_path / "outside.rules")
    (inside / "link.rules").symlink_to(tmp_path / "outside.rules")
    confined = Session(GameLibrary(inside))
    assert result(confined, "load", path="ttt.rules")["title"] == "Tic-tac-toe"
    for name in ("../outside.rules", str(tmp_path / "outside.rules"), "link.rules", "/etc/passwd", "a\0b"):
        refused = error(confined, "load", path=name)
        assert refused["code"] == "P007", name
        assert "root" in refused["message"] or "not a file name" in refused["message"]


def test_a_ruleset_file_is_loaded_once_and_again_when_it_changes(tmp_path: Path) -> None:
    ruleset = tmp_path / "g.rules"
    ruleset.write_text('game "One" { players 1 }\nphase p { end game }\n', encoding="utf-8")
    library = GameLibrary(tmp_path)
    first, second = Session(library), Session(library)
    result(first, "load", path="g.rules")
    assert len(library.cached) == 1
    assert result(second, "load", path="g.rules")["title"] == "One" and len(library.cached) == 1
    ruleset.write_text('game "Two!" { players 1 }\nphase p { end game }\n', encoding="utf-8")
    assert result(second, "load", path="g.rules")["title"] == "Two!"


def test_a_session_holds_at_most_its_limits(tmp_path: Path) -> None:
    small = Session(GameLibrary(ROOT), max_games=2, max_states=3)
    games = [result(small, "load", path="games/tic_tac_toe.rules")["game"] for _ in range(2)]
    assert error(small, "load", path="games/tic_tac_toe.rules")["code"] == "P006"
    states = [result(small, "new_game", game=games[0])["state"] for _ in range(3)]
    assert error(small, "new_game", game=games[1])["code"] == "P006"
    assert error(small, "clone", state=states[0])["code"] == "P006"
    assert error(small, "resample", state=states[0], player=0, seed=1)["code"] == "P006"
    result(small, "close", handle=states[0])
    assert result(small, "new_game", game=games[1])["to_act"] == [0]


BAD_LINES = [
    pytest.param(b"{not json", "P001", id="not-json"),
    pytest.param(b"[NaN]", "P001", id="nan"),
    pytest.param(b'{"id": 1, "op": "new_game", "game": "g1", "seed": 1' + b"0" * 5000 + b"}", "P001",
                 id="integer-too-long"),
    pytest.param(b"\xff\xfe{}", "P001", id="not-utf8"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, "P001", id="nested-too-deep"),
    pytest.param(b"[1, 2]", "P003", id="not-an-object"),
    pytest.param(b'{"id": 1}', "P003", id="no-op"),
    pytest.param(b'{"id": {"a": 1}, "op": "hello"}', "P003", id="id-an-object"),
    pytest.param(b'{"id": true, "op": "hello"}', "P003", id="id-a-boolean"),
    pytest.param(b'{"id": 1.5, "op": "hello"}', "P003", id="id-a-float"),
    pytest.param(b'{"id": 1, "op": "teleport"}', "P004", id="unknown-op"),
    pytest.param(b'{"id": 1, "op": 7}', "P003", id="op-a-number"),
    pytest.param(b'{"id": 1, "op": "load"}', "P003", id="missing-field"),
    pytest.param(b'{"id": 1, "op": "load", "path": 3}', "P003", id="path-a-number"),
    pytest.param(b'{"id": 1, "op": "load", "path": "games/tic_tac_toe.rules", "players": "2"}', "P003",
                 id="players-a-string"),
    pytest.param(b'{"id": 1, "op": "load", "path": "games/tic_tac_toe.rules", "players": true}', "P003",
                 id="players-a-boolean"),
    pytest.param(b'{"id": 1, "op": "hello", "verbose": true}', "P003", id="unknown-field"),
    pytest.param(b'{"id": 1, "op": "apply", "state": "s1", "action": 1.0}', "P003", id="action-a-float"),
    pytest.param(b'{"id": 1, "op": "apply", "state": 1, "action": 1}', "P003", id="handle-a-number"),
    pytest.param(b'{"id": 1, "op": "apply", "state": "g1", "action": 1}', "P003", id="game-handle-for-state"),
    pytest.param(b'{"id": 1, "op": "apply", "state": "s99", "action": 1}', "P005", id="unknown-state"),
    pytest.param(b'{"id": 1, "op": "new_game", "game": "g99"}', "P005", id="unknown-game"),
    pytest.param(b'{"id": 1, "op": "observe", "state": "s99", "player": -2}', "P003", id="player-below-chance"),
    pytest.param(b'{"id": 1, "op": "restore", "game": "g99", "data": {}, "text": "{}"}', "P003",
                 id="restore-data-and-text"),
]


@pytest.mark.parametrize("line,code", BAD_LINES)
def test_every_bad_line_gets_an_error_reply_with_its_code(session: Session, line: bytes, code: str) -> None:
    reply = session.handle_line(line)
    check_reply(reply)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    assert reply["id"] in (None, 1)
    assert encode(reply).endswith(b"\n") and encode(reply).count(b"\n") == 1


def test_a_line_too_long_gets_an_error_reply(session: Session) -> None:
    reply = session.handle_line(TOO_LONG)
    check_reply(reply)
    assert reply == {"id": None, "ok": False,
                     "error": {"code": "P002", "message": f"the line is longer than {MAX_LINE_BYTES} bytes"}}


def test_engine_errors_in_a_game_keep_their_codes(session: Session) -> None:
    game, state = started(session)
    assert error(session, "observe", state=state, player=5)["code"] == "E607"
    assert error(session, "resample", state=state, player=-1, seed=1)["code"] == "E607"
    assert error(session, "restore", game=game, data={"format": 3})["code"] == "E606"
    assert error(session, "restore", game=game, text="{oops")["code"] == "P001"


# ---------------------------------------------------------------- lines

def test_lines_are_split_and_a_line_too_long_is_dropped_up_to_its_newline() -> None:
    splitter = LineSplitter(limit=10)
    found = list(splitter.feed(b'{"a": 1}\n  \n0123456789'))
    assert found == [b'{"a": 1}']
    assert list(splitter.feed(b"X")) == [TOO_LONG]            # told as soon as it is too long
    assert list(splitter.feed(b"more of it" * 5)) == []       # ...and only once
    assert list(splitter.feed(b'tail\n{"b": 2}\n{"c"')) == [b'{"b": 2}']
    assert list(splitter.finish()) == [b'{"c"']                 # a last line without newline
    assert list(LineSplitter(limit=4).feed(b"12345\n1234\n")) == [TOO_LONG, b"1234"]


# ---------------------------------------------------------------- stdin/stdout

def server_command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "rulelang.interpreter.hosts.server", *arguments]


def test_stdio_answers_pipelined_requests_in_order_and_ends_with_its_input() -> None:
    requests = [
        {"id": 1, "op": "load", "path": "games/tic_tac_toe.rules"},
        {"id": 2, "op": "new_game", "game": "g1", "seed": 4},
        {"id": "three", "op": "apply", "state": "s2", "action": 4},
        {"id": 4, "op": "apply", "state": "s2", "action": 4},
    ]
    lines = [json.dumps(r).encode() for r in requests]
    lines.insert(2, b'{"id": 99, "op": "hello", "pad": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}')
    lines.insert(3, b"\x00garbage")
    lines.append(b'{"id": 5, "op": "status", "state": "s2"}')   # no newline after the last line
    run = subprocess.run(server_command("--root", str(ROOT)), input=b"\n".join(lines), capture_output=True,
                         timeout=HANG, cwd="/")
    assert run.returncode == 0 and run.stderr == b""
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    for reply in replies:
        check_reply(reply)
    assert [r["id"] for r in replies] == [1, 2, None, None, "three", 4, 5]
    assert [r["ok"] for r in replies] == [True, True, False, False, True, False, True]
    assert [r["error"]["code"] for r in replies if not r["ok"]] == ["P002", "P001", "E607"]
    assert replies[-1]["result"]["history_length"] == 1


def test_the_server_refuses_a_root_that_is_not_a_folder(tmp_path: Path) -> None:
    run = subprocess.run(server_command("--root", str(tmp_path / "none")), capture_output=True, timeout=HANG)
    assert run.returncode == 2 and b"not a folder" in run.stderr


# ---------------------------------------------------------------- the Node.js client

@pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js 18 or later) is not installed")
@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2)])
def test_the_node_client_plays_jamaica_to_the_end(players: int, seed: int) -> None:
    node = shutil.which("node")
    assert node is not None
    run = subprocess.run([node, str(ROOT / "examples" / "node" / "play_jamaica.js"), "--players", str(players),
                          "--seed", str(seed)], capture_output=True, text=True, timeout=HANG,
                         env={"PATH": "/usr/bin:/bin", "RULELANG_PYTHON": sys.executable})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"Jamaica, {players} players, seed {seed}: ")
    assert re.fullmatch(r"\d+ decisions \(\d+ simultaneous\)", lines[0].split(": ", 1)[1])
    assert int(lines[0].split("(")[1].split()[0]) > 0   # simultaneous choices were answered
    scores = re.fullmatch(r"scores: (.*)", lines[1])
    assert scores is not None and len(scores.group(1).split(", ")) == players
    assert re.fullmatch(r"winners: player \d( *, player \d)*", lines[2])


# ---------------------------------------------------------------- any request at all

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.integers(), st.floats(allow_nan=False),
                    st.sampled_from(["g1", "s2", "s3", "g9", "games/kuhn_poker.rules", "", "x", "random", "mcts:2"]),
                    st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
FIELDS = st.sampled_from(["id", "path", "players", "game", "seed", "explicit_chance", "state", "player", "action",
                          "handle", "data", "text", "agent", "step", "extra"])
REQUESTS = st.builds(lambda op, fields: {"op": op, **fields},
                     st.one_of(st.sampled_from(sorted(OPS)), VALUES),
                     st.dictionaries(FIELDS, VALUES, max_size=5))


@pytest.fixture(scope="module")
def loaded() -> GameLibrary:
    """A library that has loaded Kuhn poker already, so that each example only finds it."""
    library = GameLibrary(ROOT)
    library.game("games/kuhn_poker.rules", 2)
    return library


@settings(max_examples=150, deadline=None)
@given(requests=st.lists(st.one_of(REQUESTS, VALUES), min_size=1, max_size=6))
def test_any_json_request_gets_a_reply_that_fits_the_schema(loaded: GameLibrary, requests: list[object]) -> None:
    session = Session(loaded)
    session.handle({"id": 0, "op": "load", "path": "games/kuhn_poker.rules", "players": 2})
    session.handle({"id": 0, "op": "new_game", "game": "g1", "seed": 1})
    for request in requests:
        reply = session.handle(request)
        check_reply(reply)
        assert reply["ok"] or reply["error"]["code"] != "E900", reply
        assert encode(reply).count(b"\n") == 1


def test_narration_reads_on_from_next_and_view_and_replay_carry_it(session: Session) -> None:
    game = result(session, "load", path="games/jolly_roger.rules", players=3)["game"]
    state = result(session, "new_game", game=game, seed=2, events=True)["state"]
    first = result(session, "narration", state=state, player=1)
    assert first["lines"] and all(line["seq"] < first["next"] for line in first["lines"])
    pick = result(session, "legal_actions", state=state, player=0)["actions"][0]
    result(session, "apply", state=state, action=pick[0], player=0)
    later = result(session, "narration", state=state, player=1, since=first["next"])
    assert later["lines"][0] == {"seq": first["next"], "text": "player 1's turn", "heading": 3}
    assert {"seq": first["next"], "text": f"player 1 chooses {pick[1]}"} in later["lines"]
    view = result(session, "view", state=state, player=1)
    assert view["narration"] == first["lines"] + later["lines"]
    replayed = result(session, "replay", state=state, step=1)["state"]
    assert result(session, "narration", state=replayed, player=1)["lines"] == view["narration"]
    assert error(session, "narration", state=state, player=1, since=-1)["code"] == "P003"
