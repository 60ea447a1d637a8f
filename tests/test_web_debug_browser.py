"""The debug panel of the page's Play tab in a real browser (issue 27; debug.js): the state
inspector, time travel from a log line, playing another seat, one move made by an agent;
and a seat's page, which may neither see the full state nor switch seats. Playwright and
Debian's Chromium as in tests/test_web_browser.py, whose fixtures and helpers it uses."""
# ruff: noqa: F811  (the fixtures imported from test_web_browser are the tests' parameters)
from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
from test_web_browser import (  # noqa: F401  (browser, page, playwright: fixtures)
    ROOT,
    SETTLED,
    Page,
    browser,
    clicks,
    expect,
    open_ruleset,
    page,
    playwright,
    snap,
    start_game,
    wait_for_turn,
)

from rulelang.interpreter.hosts.web import address, host_address, make_server


@pytest.fixture(scope="module")
def addresses() -> Iterator[tuple[str, str]]:
    """A server for the repository's rulesets: the seat's page's address and the host's."""
    server, app = make_server(ROOT, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield address(server, "127.0.0.1"), host_address(server, app, "127.0.0.1")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def board_marks(page: Page) -> list[str]:
    """Each mark on Play's boards, with where it is drawn."""
    found: list[str] = page.get_by_test_id("boards").locator("[data-testid=mark]").evaluate_all(
        "marks => marks.map(m => m.parentNode.getAttribute('transform') + ' ' + m.dataset.mark)")
    return found


def open_node(page: Page, *keys: str) -> None:
    """Opens the inspector's tree along ``keys`` (from its root)."""
    path = "[data-testid=debug-tree] > details"
    for key in keys:
        path += f" > .json-children > details[data-key='{key}']"
        page.locator(f"{path} > summary").click()


def leaf(page: Page, key: str) -> str:
    """The text of the (first) visible leaf of the inspector named ``key``."""
    return page.locator(f"[data-testid=debug-tree] [data-testid=json-leaf][data-key='{key}']:visible "
                        "[data-testid=json-value]").first.inner_text()


def step_agent(page: Page, agent: str) -> str:
    """The agent makes the person's decision; gives the status line that names its choice."""
    done = clicks(page)
    page.get_by_test_id("debug-agent").fill(agent)
    page.get_by_test_id("debug-step").click()
    page.wait_for_function(f"() => Number(document.getElementById('pane-play').dataset.clicks) > {done}"
                           f" && ({SETTLED})()")
    return page.get_by_test_id("debug-status").inner_text()


def test_the_debug_panel_inspects_travels_steps_an_agent_and_switches_seats(page: Page,
                                                                           addresses: tuple[str, str]) -> None:
    _, host = addresses
    open_ruleset(page, host, "games/jamaica.rules")
    start_game(page, 3, seat=0, seed=1)
    at_start = board_marks(page)
    page.get_by_test_id("debug-toggle").click()
    # the state as data: a value of the seat's view, as the table shows it
    open_node(page, "observation", "globals")
    shown = page.locator("#play-table dd[data-name=morning_die]").inner_text()
    assert json.loads(leaf(page, "morning_die")) == int(shown)
    snap(page, "debug-inspector")
    # the full state (the host's page): player 2's hand, face down on the table, card by card
    page.get_by_test_id("debug-show-full").check()
    open_node(page, "state", "zones", "hand/1")
    hidden = page.locator("[data-testid=debug-tree] details[data-key='hand/1'] > .json-children > details")
    expect(hidden).to_have_count(3)
    expect(page.locator("[data-testid=other-seat][data-seat='1'] [data-zone=hand]")).to_contain_text("3 hidden")
    page.get_by_test_id("debug-show-view").check()
    # one move made by an agent, as if clicked: in the log, undoable
    status = step_agent(page, "greedy")
    label = status.split("“")[1].split("”")[0]
    expect(page.get_by_test_id("log-line").filter(has_text=f"player 1 chooses {label}")).to_have_count(1)
    assert clicks(page) == 1 and not page.get_by_test_id("undo").is_disabled()
    # the tree, drawn again for the new view, keeps the nodes that were open
    assert json.loads(leaf(page, "round")) == int(page.locator("#play-table dd[data-name=round]").inner_text())
    for _ in range(12):   # until the ships have sailed
        if board_marks(page) != at_start:
            break
        step_agent(page, "random")
    now = board_marks(page)
    assert now != at_start
    # time travel: the oldest line of the log shows the board of the start, read-only
    page.get_by_test_id("log-line").last.click()
    expect(page.get_by_test_id("time-travel")).to_be_visible()
    assert page.get_by_test_id("pane-play").get_attribute("data-phase") == "past"
    page.wait_for_function("() => document.body.dataset.busy === '0'")
    assert board_marks(page) == at_start
    expect(page.get_by_test_id("question")).to_be_hidden()
    snap(page, "debug-time-travel")
    page.get_by_test_id("back-to-present").click()
    expect(page.get_by_test_id("time-travel")).to_have_count(0)
    assert board_marks(page) == now and wait_for_turn(page) == "yours"
    # ... and Undo to there takes back every choice made since
    page.get_by_test_id("log-line").last.click()
    page.get_by_test_id("undo-to-here").click()
    page.wait_for_function(SETTLED)
    assert clicks(page) == 0 and board_marks(page) == at_start and wait_for_turn(page) == "yours"
    # play another seat: the page plays and sees player 2 now
    page.get_by_test_id("debug-seat").select_option("1")
    expect(page.get_by_test_id("my-seat")).to_have_attribute("data-seat", "1")
    assert wait_for_turn(page) == "yours"
    expect(page.get_by_test_id("question")).to_contain_text("Your turn, player 2")
    expect(page.locator("[data-testid=other-seat][data-seat='0'] [data-zone=hand]")).to_contain_text("hidden")
    snap(page, "debug-other-seat")


def test_a_seats_page_sees_its_view_only(page: Page, addresses: tuple[str, str]) -> None:
    seat, _ = addresses
    open_ruleset(page, seat, "games/jolly_roger.rules")
    start_game(page, 3, seat=0, seed=2)
    page.get_by_test_id("debug-toggle").click()
    expect(page.get_by_test_id("debug-panel")).to_have_attribute("data-host", "0")
    expect(page.get_by_test_id("debug-show-full")).to_be_disabled()
    expect(page.get_by_test_id("debug-seat")).to_be_disabled()
    refused = page.evaluate("""() => window.rulelangPage.api.call('full_state', {state: window.rulelangPage.play.state},
        {route: '/api/debug'}).then(() => 'shown', (error) => error.code)""")
    assert refused == "P010"
    open_node(page, "observation")
    expect(page.locator("[data-testid=debug-tree] [data-key=players]")).to_be_visible()
