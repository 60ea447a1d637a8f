"""The web page's backend (issue 15): the protocol ops an editor and a game table need
(rulesets, source, lint, save_source, load with a text, graph, boards, view, agent_action,
replay), each reply checked against the protocol's schema; and the HTTP server of
``rulelang web`` (rulelang.interpreter.hosts.web): sessions, the page's files, and the refusals
that keep other web sites and other folders out."""
from __future__ import annotations

import contextlib
import http.client
import json
import random
import re
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import error, result

import rulelang
from rulelang.check.graph import END, START, phase_graph
from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.protocol import MAX_LINE_BYTES, validator
from rulelang.interpreter.hosts.seat_view import SeatData
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.hosts.web import MAX_SESSIONS, WebServer, make_server
from rulelang.syntax.keywords import ruleset_keywords
from rulelang.syntax.parser import grammar_parser
from rulelang.syntax.syntax_errors import grammar_words

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
HANG = 120   # seconds: only to catch a hang

check_reply = validator("reply")

DRAFT = 'game "Draft" {\n  players 1..3\n}\n\nphase main {\n  choose n in [1, 2, 3] by players[0]\n  end game\n}\n'


@pytest.fixture
def session() -> Session:
    return Session(GameLibrary(ROOT))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A root folder: two games, a variant, a broken ruleset, and folders to leave out."""
    root = tmp_path / "root"
    (root / "games").mkdir(parents=True)
    for name in ("tic_tac_toe", "kuhn_poker"):
        shutil.copy(GAMES / f"{name}.rules", root / "games" / f"{name}.rules")
    (root / "games" / "short.rules").write_text('extends "tic_tac_toe.rules"\n', encoding="utf-8")
    (root / "broken.rules").write_text("game {\n", encoding="utf-8")
    for skipped in (".hidden", "venv", "node_modules"):
        (root / skipped).mkdir()
        shutil.copy(GAMES / "tic_tac_toe.rules", root / skipped / "ttt.rules")
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (tmp_path / "outside.rules").write_text(DRAFT, encoding="utf-8")
    (root / "link.rules").symlink_to(tmp_path / "outside.rules")
    return root


def writer(root: Path) -> Session:
    """A session that may write ruleset files, as the web server's are."""
    return Session(GameLibrary(root), allow_write=True)


def play(session: Session, state: str, moves: int, seed: int) -> list[tuple[int, int]]:
    """Up to ``moves`` random legal actions; the (player, action) pairs played."""
    chooser, played = random.Random(seed), []
    for _ in range(moves):
        status = result(session, "status", state=state)
        if status["terminal"]:
            break
        player = status["to_act"][0]
        action = chooser.choice(result(session, "legal_actions", state=state, player=player)["actions"])[0]
        result(session, "apply", state=state, action=action, player=player)
        played.append((player, action))
    return played


# ---------------------------------------------------------------- files: rulesets, source, lint, save_source

def test_rulesets_lists_the_ruleset_files_under_the_root_and_leaves_out_the_rest(folder: Path) -> None:
    found = result(Session(GameLibrary(folder)), "rulesets")["rulesets"]
    assert [r["path"] for r in found] == ["broken.rules", "games/kuhn_poker.rules", "games/short.rules",
                                          "games/tic_tac_toe.rules"]
    by_path = {r["path"]: r for r in found}
    assert by_path["games/tic_tac_toe.rules"] == {"path": "games/tic_tac_toe.rules", "title": "Tic-tac-toe",
                                                  "players": [2, 2]}
    assert by_path["games/short.rules"]["title"] == "Tic-tac-toe"       # a variant reads its base
    assert by_path["broken.rules"] == {"path": "broken.rules", "title": "broken", "players": None}


def test_rulesets_lists_at_most_its_limit(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rulelang.interpreter.hosts.library.MAX_RULESETS", 2)
    found = result(Session(GameLibrary(folder)), "rulesets")["rulesets"]
    assert [r["path"] for r in found] == ["broken.rules", "games/kuhn_poker.rules"]


def test_source_gives_the_text_of_a_ruleset_file_in_the_root_only(folder: Path) -> None:
    session = Session(GameLibrary(folder))
    text = (folder / "games" / "kuhn_poker.rules").read_text(encoding="utf-8")
    assert result(session, "source", path="games/kuhn_poker.rules") == {"path": "games/kuhn_poker.rules", "text": text}
    for name in ("../outside.rules", str(folder.parent / "outside.rules"), "link.rules", "venv/pyvenv.cfg",
                 "games/../../outside.rules"):
        assert error(session, "source", path=name)["code"] == "P007", name
    missing = error(session, "source", path="games/none.rules")
    assert missing["code"] == "E001" and "no such file" in missing["message"]


def test_lint_reads_the_text_as_the_file_at_its_path(folder: Path) -> None:
    session = Session(GameLibrary(folder))
    text = 'game "D" { players 2 }\nphase p {\n  let a = b\n}\n'
    broken = result(session, "lint", path="games/draft.rules", text=text)
    assert broken["diagnostics"] == [{"code": "E101", "severity": "error", "message": "unknown name 'b'", "line": 3,
                                      "column": 11, "end_line": 3, "end_column": 12, "file": "games/draft.rules"}]
    # a variant's base is found from the folder of its path, and a clean text has no diagnostic
    assert result(session, "lint", path="games/new.rules", text='extends "tic_tac_toe.rules"\n')["diagnostics"] == []
    elsewhere = result(session, "lint", path="new.rules", text='extends "tic_tac_toe.rules"\n')["diagnostics"]
    assert [d["code"] for d in elsewhere] == ["E501"]
    warned = result(session, "lint", path="games/w.rules", text=DRAFT + "procedure unused() {\n  end game\n}\n")
    assert [(d["code"], d["severity"], d["line"]) for d in warned["diagnostics"]] == [("W107", "warning", 9)]


def test_lint_keeps_the_file_of_a_diagnostic_in_a_board_file(folder: Path) -> None:
    (folder / "games" / "map.yaml").write_text("kind: graph\nspaces:\n  - {id: a, next: b}\n", encoding="utf-8")
    text = 'game "M" { players 2 }\nboard map = load_board("map.yaml")\nphase main {\n  log size(spaces(map))\n}\n'
    found = result(Session(GameLibrary(folder)), "lint", path="games/m.rules", text=text)["diagnostics"]
    assert [(d["code"], d["file"]) for d in found] == [("E401", "games/map.yaml")]
    assert found[0]["line"] == 3


def test_save_source_writes_a_ruleset_file_that_load_then_reads(folder: Path) -> None:
    session = writer(folder)
    assert result(session, "save_source", path="games/draft.rules", text=DRAFT) == {"path": "games/draft.rules",
                                                                                    "bytes": len(DRAFT.encode())}
    assert (folder / "games" / "draft.rules").read_text(encoding="utf-8") == DRAFT
    assert result(session, "load", path="games/draft.rules")["title"] == "Draft"
    assert result(session, "save_source", path="games/draft.rules", text="é")["bytes"] == 2   # bytes, not characters


def test_save_source_is_refused_outside_the_root_and_to_read_only_sessions(folder: Path) -> None:
    session = writer(folder)
    refused = {"../escape.rules": "P007", "link.rules": "P007", "games/notes.txt": "P007",
               "nowhere/new.rules": "P007", "games": "P007", str(folder.parent / "abs.rules"): "P007"}
    for name, code in refused.items():
        assert error(session, "save_source", path=name, text=DRAFT)["code"] == code, name
    assert not (folder.parent / "escape.rules").exists() and not (folder.parent / "abs.rules").exists()
    assert (folder.parent / "outside.rules").read_text(encoding="utf-8") == DRAFT   # the link's target is unchanged
    big = error(session, "save_source", path="games/big.rules", text="#" * (256 * 1024 + 1))
    assert big["code"] == "P003" and not (folder / "games" / "big.rules").exists()
    read_only = Session(GameLibrary(folder))
    assert error(read_only, "save_source", path="games/draft.rules", text=DRAFT)["code"] == "P008"
    assert not (folder / "games" / "draft.rules").exists()


def test_load_of_a_text_tells_the_player_range_and_the_seats(folder: Path) -> None:
    session = Session(GameLibrary(folder))
    loaded = result(session, "load", path="games/draft.rules", text=DRAFT, players=3)
    assert loaded["title"] == "Draft" and loaded["players"] == 3
    assert (loaded["min_players"], loaded["max_players"]) == (1, 3)
    assert loaded["seats"] == ["player 1", "player 2", "player 3"]
    assert not (folder / "games" / "draft.rules").exists()                     # nothing was written
    variant = result(session, "load", path="games/v.rules", text='extends "kuhn_poker.rules"\n')
    assert variant["title"] == "Kuhn poker" and variant["seats"] == ["player 1", "player 2"]
    bad = error(session, "load", path="games/bad.rules", text=DRAFT.replace("players[0]", "nobody"))
    assert bad["code"] == "E101" and bad["location"] == "games/bad.rules:6:28"   # as named, as 'lint' says it
    assert error(session, "load", path="../x.rules", text=DRAFT)["code"] == "P007"


# ---------------------------------------------------------------- graph and boards

def test_graph_is_the_phase_graph_in_layers(session: Session) -> None:
    game = result(session, "load", path="games/jamaica.rules", players=3)["game"]
    found = result(session, "graph", game=game)
    engine = phase_graph(rulelang.load(GAMES / "jamaica.rules", players=3).catalog.decls)
    nodes = {n["id"]: n for n in found["nodes"]}
    assert set(nodes) == set(engine.nodes)
    assert {(e["from"], e["to"], e["kind"]) for e in found["edges"]} == {(a, b, d["kind"]) for a, b, d in
                                                                         engine.edges(data=True)}
    assert nodes[START]["layer"] == 0 and nodes[END]["layer"] == max(n["layer"] for n in nodes.values())
    for edge in found["edges"]:   # a call or a next reached first from START goes one row down
        if edge["kind"] in ("start", "call") and edge["to"] != END:
            assert nodes[edge["to"]]["layer"] <= nodes[edge["from"]]["layer"] + 1
    rows: dict[int, list[int]] = {}
    for node in nodes.values():
        rows.setdefault(node["layer"], []).append(node["order"])
    assert all(sorted(orders) == list(range(len(orders))) for orders in rows.values())
    assert nodes["voyage"]["kind"] == "phase" and nodes["voyage"]["line"] > 0 and nodes[START]["line"] is None


def test_boards_lay_out_a_square_grid_with_row_1_at_the_bottom(session: Session) -> None:
    game = result(session, "load", path="games/tic_tac_toe.rules")["game"]
    [board] = result(session, "boards", game=game)["boards"]
    assert (board["name"], board["kind"], board["cell"], board["width"], board["height"]) == ("grid", "square",
                                                                                          "square", 3, 3)
    at = {s["name"]: (s["x"], s["y"]) for s in board["spaces"]}
    assert at["a1"] == (0.5, 2.5) and at["c1"] == (2.5, 2.5) and at["a3"] == (0.5, 0.5) and at["b2"] == (1.5, 1.5)
    assert board["links"] == [] and board["spaces"][0]["attributes"] == {"x": 0, "y": 0}


def test_boards_lay_out_a_track_with_forks_and_a_hex_map(session: Session) -> None:
    game = result(session, "load", path="games/jamaica.rules", players=3)["game"]
    [track] = result(session, "boards", game=game)["boards"]
    engine = rulelang.load(GAMES / "jamaica.rules", players=3).catalog.boards["track"]
    assert track["cell"] == "circle"
    steps = sorted((s.index, n.index) for s in engine for n in engine.successors(s))
    assert sorted(map(tuple, track["links"])) == steps
    points = [(s["x"], s["y"]) for s in track["spaces"]]
    assert all(0.5 <= x <= track["width"] - 0.5 and 0.5 <= y <= track["height"] - 0.5 for x, y in points)
    closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(points) for b in points[:i])
    assert closest >= 0.99   # no two spaces overlap
    tobago = result(session, "load", path="games/tobago.rules", players=2)["game"]
    [island] = result(session, "boards", game=tobago)["boards"]
    assert island["kind"] == "hex" and island["cell"] == "hex" and island["links"] == []
    at = {s["name"]: (s["x"], s["y"]) for s in island["spaces"]}
    assert at["1,0"][0] - at["0,0"][0] == 1.0                   # neighbours in a row: one hex apart
    assert at["0,1"][0] - at["0,0"][0] == 0.5                   # the next row: half a hex to the right, lower
    assert at["0,1"][1] > at["0,0"][1]


# ---------------------------------------------------------------- a seat's view

def test_view_is_the_seats_observation_its_marks_and_its_question(session: Session) -> None:
    game = result(session, "load", path="games/tic_tac_toe.rules")["game"]
    state = result(session, "new_game", game=game, seed=1)["state"]
    result(session, "apply", state=state, action=4)
    view = result(session, "view", state=state, player=1)
    engine = rulelang.load(GAMES / "tic_tac_toe.rules").new_initial_state(seed=1)
    engine.apply_action(4)
    assert view["observation"] == engine.observation(1)
    assert view["marks"] == {"grid": {"b2": ["P1"]}}
    assert view["seats"] == ["player 1", "player 2"] and view["terminal"] is False and view["returns"] is None
    question = view["question"]
    assert question["kind"] == "choice" and question["players"] == [1]
    assert [(o["id"], o["label"]) for o in question["options"]] == [(a.id, a.label) for a in engine.legal_actions(1)]
    assert all(o["space"] == {"board": "grid", "space": o["label"]} and o["component"] is None
               for o in question["options"])
    assert result(session, "view", state=state, player=0)["question"] is None    # not to act
    assert result(session, "view", state=state, player=-1)["question"] is None   # the public view
    assert error(session, "view", state=state, player=2)["code"] == "E607"


def test_view_shows_only_what_the_seat_may_see_and_tags_components(session: Session) -> None:
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=5)["state"]
    engine = rulelang.load(GAMES / "kuhn_poker.rules", players=2).new_initial_state(seed=5)
    for seat in (0, 1):
        assert result(session, "view", state=state, player=seat)["observation"] == engine.observation(seat)
    other_card = engine.to_json()["zones"]["hand/1"][0]
    assert f'"component": {other_card}' not in json.dumps(result(session, "view", state=state, player=0))
    jamaica = result(session, "load", path="games/jamaica.rules", players=3)["game"]
    table = result(session, "new_game", game=jamaica, seed=3)["state"]
    seat = result(session, "status", state=table)["to_act"][0]
    assert result(session, "view", state=table, player=seat)["marks"]["track"]["port_royal"] == ["P1", "P2", "P3"]
    for _ in range(30):   # on to a choice of cards (the options of a choice of dice are numbers)
        seat = result(session, "status", state=table)["to_act"][0]
        view = result(session, "view", state=table, player=seat)
        options = view["question"]["options"]
        if all(o["component"] is not None for o in options):
            break
        assert all(o["component"] is None and o["space"] is None for o in options)
        result(session, "apply", state=table, action=options[0]["id"], player=seat)
    hand = {card["component"] for card in view["observation"]["players"][seat]["hand"]}
    assert {o["component"] for o in options} <= hand and all(o["space"] is None for o in options)


def test_view_marks_are_the_terminal_views_marks(session: Session) -> None:
    game = result(session, "load", path="games/jamaica.rules", players=3)["game"]
    state = result(session, "new_game", game=game, seed=8)["state"]
    play(session, state, 40, seed=8)
    engine = rulelang.load(GAMES / "jamaica.rules", players=3)
    data = SeatData(engine)
    for seat in range(3):
        view = result(session, "view", state=state, player=seat)
        expected: dict[str, dict[str, list[str]]] = {}
        for (board, space), marks in data.board_marks(view["observation"]).items():
            expected.setdefault(board, {})[space] = marks
        assert view["marks"] == expected and view["marks"]["track"]


# ---------------------------------------------------------------- agents and replays

def test_agent_action_gives_a_legal_choice_of_that_agent_and_applies_nothing(session: Session) -> None:
    game = result(session, "load", path="games/tic_tac_toe.rules")["game"]
    state = result(session, "new_game", game=game, seed=2)["state"]
    before = result(session, "save", state=state)["data"]
    legal = result(session, "legal_actions", state=state, player=0)["actions"]
    for agent in ("random", "greedy", "mcts:30"):
        chosen = result(session, "agent_action", state=state, player=0, agent=agent, seed=4)["action"]
        assert chosen in legal, agent
        assert result(session, "agent_action", state=state, player=0, agent=agent, seed=4)["action"] == chosen
    assert result(session, "save", state=state)["data"] == before
    result(session, "apply", state=state, action=0)
    result(session, "apply", state=state, action=3)
    result(session, "apply", state=state, action=1)
    result(session, "apply", state=state, action=4)   # player 1 wins with c1 (2); mcts sees it
    assert result(session, "agent_action", state=state, player=0, agent="mcts:200", seed=1)["action"] == [2, "c1"]


def test_agent_action_refuses_a_bad_spec_and_a_player_not_to_act(session: Session) -> None:
    game = result(session, "load", path="games/tic_tac_toe.rules")["game"]
    state = result(session, "new_game", game=game)["state"]
    for spec in ("wizard", "mcts", "greedy:no_such_function", "mcts:99999999", "mcts:600s", "random,random"):
        refused = error(session, "agent_action", state=state, player=0, agent=spec)
        assert refused["code"] == "P003" and refused["message"].startswith("request.agent"), spec
    late = error(session, "agent_action", state=state, player=1, agent="random")
    assert late["code"] == "E607" and late["message"] == "player 2 is not to act; to act: player 1"
    assert error(session, "agent_action", state=state, player=0, agent=7)["code"] == "P003"


def test_replay_gives_the_game_after_its_first_steps(session: Session) -> None:
    game = result(session, "load", path="games/jolly_roger.rules", players=3)["game"]
    state = result(session, "new_game", game=game, seed=6)["state"]
    played = play(session, state, 25, seed=6)
    whole = result(session, "save", state=state)["data"]
    engine = rulelang.load(GAMES / "jolly_roger.rules", players=3).new_initial_state(seed=6)
    for step in (0, 7, len(played)):
        replay = result(session, "replay", state=state, step=step)
        assert replay["step"] == step and replay["steps"] == len(played) and replay["state"] != state
        while len(engine.history()) < step:
            player, action = played[len(engine.history())]
            label = next(a.label for a in engine.legal_actions(player) if a.id == action)
            engine.apply_action(action, player=player)
        assert result(session, "save", state=replay["state"])["data"] == engine.to_json()
        assert (replay["to_act"], replay["terminal"]) == (engine.current_players(), engine.is_terminal())
        assert replay["last"] == (None if step == 0 else {"player": played[step - 1][0], "action": played[step - 1][1],
                                                          "label": label})
    assert result(session, "save", state=state)["data"] == whole
    assert error(session, "replay", state=state, step=len(played) + 1)["code"] == "P003"
    assert error(session, "replay", state=state, step=-1)["code"] == "P003"


def test_replay_of_a_game_with_explicit_chance_replays_its_outcomes(session: Session) -> None:
    game = result(session, "load", path="games/kuhn_poker.rules", players=2)["game"]
    state = result(session, "new_game", game=game, seed=1, explicit_chance=True)["state"]
    while result(session, "status", state=state)["to_act"] == [-1]:
        outcome = result(session, "decision", state=state, player=-1)["decision"]["actions"][-1][0]
        result(session, "apply", state=state, action=outcome, player=-1)
    result(session, "apply", state=state, action=9, player=0)
    steps = result(session, "status", state=state)["history_length"]
    before_the_bet = result(session, "replay", state=state, step=steps - 1)
    assert before_the_bet["last"]["player"] == -1 and before_the_bet["to_act"] == [0]
    whole = result(session, "replay", state=state, step=steps)
    assert whole["last"] == {"player": 0, "action": 9, "label": "bet"}
    assert result(session, "save", state=whole["state"])["data"] == result(session, "save", state=state)["data"]


# ---------------------------------------------------------------- the HTTP server

PAGE = {"index.html": "<!doctype html><title>page</title>\n", "app.js": "import {part} from './part.js';\n",
        "part.js": "export const part = 1;\n", "style.css": "body { margin: 0 }\n"}


@contextlib.contextmanager
def serving(server: WebServer) -> Iterator[str]:
    """``server`` serving in a thread of its own while the block runs; its address."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(HANG)


@pytest.fixture
def web(folder: Path, tmp_path: Path) -> Iterator[str]:
    """A server for ``folder`` on a free port, with stand-in files for the page; its address."""
    static = tmp_path / "static"
    static.mkdir()
    for name, text in PAGE.items():
        (static / name).write_text(text, encoding="utf-8")
    server, _ = make_server(folder, "127.0.0.1", 0, static=static)
    with serving(server) as address:
        yield address


def fetch(url: str, data: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a GET (or a POST when ``data`` is given)."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=HANG) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


JSON_TYPE = {"Content-Type": "application/json"}


def new_session(web: str) -> str:
    status, _, body = fetch(f"{web}/api/session", b"{}", JSON_TYPE)
    assert status == 200
    token: str = json.loads(body)["session"]
    assert len(token) >= 20
    return token


def api(web: str, token: str, request: dict[str, object] | bytes,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    body = request if isinstance(request, bytes) else json.dumps(request).encode()
    status, _, data = fetch(f"{web}/api", body, {**JSON_TYPE, "X-Rulelang-Session": token, **(headers or {})})
    reply: dict[str, Any] = json.loads(data)
    check_reply(reply)
    return status, reply


def test_the_editor_colours_the_keywords_that_the_server_reads_from_the_grammar(web: str) -> None:
    """One list of keywords: the grammar's, served as keywords.js, the same as the TextMate grammar's."""
    status, headers, body = fetch(f"{web}/keywords.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    served = re.fullmatch(r"(?s)//[^\n]*\nexport const KEYWORDS = (\[.*\]);\n", body.decode())
    assert served is not None
    # the grammar's keywords, from the classes the TextMate grammar is generated from
    assert json.loads(served.group(1)) == list(grammar_words(grammar_parser()).keywords) \
        == list(ruleset_keywords().all)
    editor = (ROOT / "interpreter" / "hosts" / "web" / "editor.js").read_text()
    assert 'import {KEYWORDS as GRAMMAR_KEYWORDS} from "./keywords.js";' in editor
    assert "otherwise" not in editor   # no list of its own


def test_the_server_plays_a_game_through_its_api(web: str) -> None:
    token = new_session(web)
    status, loaded = api(web, token, {"id": 1, "op": "load", "path": "games/tic_tac_toe.rules"})
    assert status == 200 and loaded["result"]["seats"] == ["player 1", "player 2"]
    _, started = api(web, token, {"id": 2, "op": "new_game", "game": "g1", "seed": 3})
    _, applied = api(web, token, {"id": 3, "op": "apply", "state": started["result"]["state"], "action": 4})
    assert applied == {"id": 3, "op": "apply", "ok": True, "result": {"to_act": [1], "terminal": False}}
    _, listed = api(web, token, {"id": 4, "op": "rulesets"})
    assert "games/tic_tac_toe.rules" in [r["path"] for r in listed["result"]["rulesets"]]
    status, bad = api(web, token, b"{not json")
    assert status == 200 and bad["error"]["code"] == "P001"
    status, unknown = api(web, token, {"id": 5, "op": "teleport"})
    assert status == 200 and unknown["error"]["code"] == "P004"


def test_each_page_has_a_session_of_its_own(web: str) -> None:
    first, second = new_session(web), new_session(web)
    assert first != second
    api(web, first, {"op": "load", "path": "games/tic_tac_toe.rules"})
    _, other = api(web, second, {"op": "new_game", "game": "g1"})
    assert other["error"]["code"] == "P005"


def test_an_unknown_session_is_refused_and_the_oldest_sessions_go(web: str) -> None:
    status, reply = api(web, "made-up", {"op": "hello"})
    assert status == 403 and reply["error"] == {"code": "P009", "message": "unknown session: reload the page"}
    status, missing = api(web, "", {"op": "hello"})
    assert status == 403 and missing["error"]["code"] == "P009"
    tokens = [new_session(web) for _ in range(MAX_SESSIONS + 1)]
    assert api(web, tokens[0], {"op": "hello"})[0] == 403
    assert api(web, tokens[1], {"op": "hello"})[0] == 200
    assert api(web, tokens[-1], {"op": "hello"})[0] == 200


def test_the_page_files_are_served_and_nothing_else(web: str) -> None:
    status, headers, body = fetch(f"{web}/")
    assert status == 200 and body.decode() == PAGE["index.html"] and headers["Content-Type"].startswith("text/html")
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = fetch(f"{web}/app.js")
    assert status == 200 and body.decode() == PAGE["app.js"] and headers["Content-Type"].startswith("text/javascript")
    status, headers, body = fetch(f"{web}/part.js")
    assert status == 200 and body.decode() == PAGE["part.js"] and headers["Content-Type"].startswith("text/javascript")
    assert fetch(f"{web}/style.css")[2].decode() == PAGE["style.css"]
    for path in ("/games/tic_tac_toe.rules", "/../index.html", "/%2e%2e/pyproject.toml", "/web/app.js", "/api",
                 "/missing.js", "/../app.js", "/static/app.js", "/App.js", "/app.js.map"):
        assert fetch(f"{web}{path}")[0] == 404, path


def test_every_module_of_the_page_is_served_as_javascript(folder: Path) -> None:
    """index.html loads app.js as an ES module; every module it imports, and they import, is
    served with a JavaScript type, under the policy that lets the page run only its own scripts."""
    server, _ = make_server(folder, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page = f"http://127.0.0.1:{server.server_address[1]}"
        status, headers, index = fetch(f"{page}/")
        assert status == 200 and '<script type="module" src="app.js"></script>' in index.decode()
        assert "script-src 'self';" in headers["Content-Security-Policy"]
        waiting, seen = ["app.js"], set()
        while waiting:
            name = waiting.pop()
            seen.add(name)
            status, headers, body = fetch(f"{page}/{name}")
            assert status == 200 and headers["Content-Type"].startswith("text/javascript"), name
            waiting += [m for m in re.findall(r'^import .* from "\./([a-z_]+\.js)";$', body.decode(), re.M)
                        if m not in seen]
        assert {"app.js", "api.js", "editor.js", "play.js", "replay.js"} <= seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(HANG)


def test_requests_from_other_sites_are_refused(web: str) -> None:
    port = web.rsplit(":", 1)[1]
    token = new_session(web)
    for host in (f"evil.example:{port}", "127.0.0.1:1", "127.0.0.1", f"localhost.evil.example:{port}"):
        status, _, body = fetch(f"{web}/", headers={"Host": host})
        assert status == 403 and json.loads(body)["error"]["code"] == "P010", host
        assert fetch(f"{web}/api/session", b"{}", {**JSON_TYPE, "Host": host})[0] == 403
    assert fetch(f"{web}/", headers={"Host": f"localhost:{port}"})[0] == 200
    for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"https://127.0.0.1:{port}"):
        status, reply = api(web, token, {"op": "hello"}, {"Origin": origin})
        assert status == 403 and reply["error"]["code"] == "P010", origin
    assert api(web, token, {"op": "hello"}, {"Origin": web})[0] == 200
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, _, body = fetch(f"{web}/api", b'{"op": "hello"}', {"Content-Type": content_type,
                                                               "X-Rulelang-Session": token})
        assert status == 415 and json.loads(body)["error"]["code"] == "P010", content_type
    assert fetch(f"{web}/api", b'{"op": "hello"}', {"Content-Type": "application/json; charset=utf-8",
                                                   "X-Rulelang-Session": token})[0] == 200


def test_a_body_over_the_line_limit_is_refused(web: str) -> None:
    token = new_session(web)
    status, reply = api(web, token, b'{"op": "hello", "pad": "' + b"x" * MAX_LINE_BYTES + b'"}')
    assert status == 413 and reply["error"]["code"] == "P002"
    assert api(web, token, {"op": "hello"})[0] == 200   # the server goes on
    host, port = web.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=HANG)
    connection.putrequest("POST", "/api")   # a length far too long, and no body: refused at once
    for name, value in {**JSON_TYPE, "X-Rulelang-Session": token, "Content-Length": str(10**12)}.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["error"]["code"] == "P002"
    connection.close()


def test_the_web_server_writes_rulesets_in_its_root_only(web: str, folder: Path) -> None:
    token = new_session(web)
    _, saved = api(web, token, {"op": "save_source", "path": "games/new.rules", "text": DRAFT})
    assert saved["result"] == {"path": "games/new.rules", "bytes": len(DRAFT)}
    assert (folder / "games" / "new.rules").read_text(encoding="utf-8") == DRAFT
    for name in ("../new.rules", "games/../../new.rules", "/tmp/new.rules", "games/new.py"):
        _, refused = api(web, token, {"op": "save_source", "path": name, "text": DRAFT})
        assert refused["error"]["code"] == "P007", name
        _, unread = api(web, token, {"op": "source", "path": name})
        assert unread["error"]["code"] == "P007", name
    assert not (folder.parent / "new.rules").exists()


def test_rulelang_web_prints_its_address_and_serves(folder: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "rulelang", "web", str(folder), "--no-browser", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.fullmatch(r"rulelang web: (http://127\.0\.0\.1:\d+)/\n", line)
        assert found, (line, process.stderr.read() if process.poll() is not None else "")
        token = new_session(found.group(1))
        _, listed = api(found.group(1), token, {"op": "rulesets"})
        assert [r["path"] for r in listed["result"]["rulesets"]][1:] == ["games/kuhn_poker.rules",
                                                                         "games/short.rules", "games/tic_tac_toe.rules"]
        assert fetch(f"{found.group(1)}/nothing")[0] == 404
    finally:
        process.terminate()
        process.wait(HANG)


def test_rulelang_web_refuses_a_root_that_is_not_a_folder(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "rulelang", "web", str(tmp_path / "none"), "--no-browser"],
                         capture_output=True, text=True, timeout=HANG)
    assert run.returncode == 2 and "does not exist" in run.stderr



def test_the_page_may_run_only_its_own_script(web: str) -> None:
    """The page comes with a Content-Security-Policy that runs scripts from the server only,
    so no text a ruleset puts on the page (a label, a log line) can ever run as a script."""
    _, headers, _ = fetch(f"{web}/")
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["form-action"] == "'none'"
