"""Ruleset files only (issue 25): 'source' and 'save_source' refuse symbolic links and anything
that is not a regular ``.rules`` file once resolved, never create a file through a dangling
link; error replies name paths relative to the root; a second ``Host`` header is refused."""
from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_server import GAMES, error, result
from test_web_api import DRAFT, serving

from rulelang.interpreter.hosts.library import GameLibrary
from rulelang.interpreter.hosts.sessions import Session
from rulelang.interpreter.hosts.web import make_server

HANG = 120


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A root with a ruleset, a file that is not one, and links to them inside the root."""
    folder = tmp_path / "served root"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "draft.rules").write_text(DRAFT, encoding="utf-8")
    (folder / "notes.txt").write_text("not a ruleset\n", encoding="utf-8")
    (folder / "games" / "notes.rules").symlink_to(folder / "notes.txt")
    (folder / "games" / "copy.rules").symlink_to(folder / "games" / "draft.rules")
    (folder / "games" / "dangling.rules").symlink_to(folder / "games" / "made.txt")
    (folder / "games" / "folder.rules").mkdir()
    (folder / "games" / "tic_tac_toe.rules").write_text((GAMES / "tic_tac_toe.rules").read_text("utf-8"), "utf-8")
    return folder


LINKS = ["games/notes.rules", "games/copy.rules", "games/dangling.rules", "games/folder.rules"]


@pytest.mark.parametrize("name", LINKS)
def test_source_reads_no_link_and_nothing_but_a_regular_ruleset_file(root: Path, name: str) -> None:
    refused = error(Session(GameLibrary(root)), "source", path=name)
    assert refused["code"] == "P007", refused
    assert str(root) not in refused["message"]


@pytest.mark.parametrize("name", LINKS)
def test_save_source_writes_through_no_link_and_creates_nothing(root: Path, name: str) -> None:
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    refused = error(Session(GameLibrary(root), allow_write=True), "save_source", path=name, text=DRAFT + "#\n")
    assert refused["code"] == "P007", refused
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert not (root / "games" / "made.txt").exists()


def test_a_regular_ruleset_file_is_still_read_and_written(root: Path) -> None:
    session = Session(GameLibrary(root), allow_write=True)
    assert result(session, "source", path="games/draft.rules")["text"] == DRAFT
    assert result(session, "save_source", path="games/new.rules", text=DRAFT)["bytes"] == len(DRAFT)
    assert (root / "games" / "new.rules").read_text("utf-8") == DRAFT


@pytest.mark.parametrize("request_fields", [
    {"op": "load", "path": "games/missing.rules"},
    {"op": "load", "path": "games/base.rules", "text": 'extends "nowhere.rules"\n'},
    {"op": "source", "path": "games/missing.rules"},
])
def test_error_replies_name_paths_relative_to_the_root(root: Path, request_fields: dict[str, str]) -> None:
    (root / "games" / "base.rules").write_text('extends "nowhere.rules"\n', encoding="utf-8")
    reply = Session(GameLibrary(root)).handle({"id": 1, **request_fields})
    assert not reply["ok"]
    assert "served root" not in json.dumps(reply), reply
    assert reply["error"].get("location", "games/").startswith("games/"), reply


def test_lint_names_paths_relative_to_the_root(root: Path) -> None:
    found = result(Session(GameLibrary(root)), "lint", path="games/x.rules", text='extends "nowhere.rules"\n')
    assert found["diagnostics"] and "served root" not in json.dumps(found)


@pytest.fixture
def web(root: Path) -> Iterator[int]:
    server, _ = make_server(root, "127.0.0.1", 0)
    with serving(server):
        yield server.server_address[1]


def status_with_hosts(port: int, hosts: list[str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    try:
        connection.putrequest("GET", "/", skip_host=True)
        for host in hosts:
            connection.putheader("Host", host)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_second_host_header_is_refused(web: int) -> None:
    own = f"127.0.0.1:{web}"
    assert status_with_hosts(web, [own]) in (200, 404)   # (the page's files may not be built here)
    assert status_with_hosts(web, [own, "evil.example:80"]) == 403
    assert status_with_hosts(web, [own, own]) == 403
    assert status_with_hosts(web, []) == 403
