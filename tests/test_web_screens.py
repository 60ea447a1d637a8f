"""The page looks like the game: for each seed game, in play and in replay, at 1280x800, a
screenshot for a person to look at, and checks of the element boxes (getBoundingClientRect)
that no label of a board lies over another label, an arrow or a token, and that the question
and the seat's own holdings are both in the first screen, without scrolling.

Screenshots: ``build/screenshots/web-screen-GAME-play.png`` and ``-replay.png`` (or
``RULELANG_SCREENSHOTS``), the whole page. The browser and the server are those of
``test_web_browser.py``; without Chromium or Playwright the tests are skipped (on CI, fail).
"""
from __future__ import annotations

import contextlib
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_web_browser import (
    ROOT,
    SETTLED,
    browser,
    fresh_page,
    open_ruleset,
    playwright,
    screenshots_dir,
    serving,
    start_game,
    url,
    wait_for_turn,
)

with contextlib.suppress(ImportError):   # without it, the fixtures skip the tests (or fail them on CI)
    from playwright.sync_api import expect
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser", "playwright", "url"]   # the fixtures, shared with test_web_browser

VIEWPORT = {"width": 1280, "height": 800}
CLICKS = 6   # the person's choices made before the screenshots: tokens on the boards, cards moved
SEED_GAMES = [("jamaica", 3), ("jolly_roger", 3), ("asterix", 3), ("tobago", 2)]

# The boxes of a board's labels (space names and attributes, and labels written on spaces),
# tokens (marks) and arrows (links), in the page's pixels; and each pair of them that meets. A
# text's box is the font's whole line, more than its letters: a tenth of its height is left
# out at the top and at the bottom. An arrow is its line, two pixels wide each side (its head).
OVERLAPS = """
(boards) => {
  const found = [];
  const name = (node) =>
    `${node.getAttribute("class")} "${node.textContent}" of ${node.closest("[data-space]")?.dataset.space}`;
  for (const board of boards) {
    const labels = [...board.querySelectorAll("text.space-name, text.space-extra, text.space-label")].map((t) => {
      const r = t.getBoundingClientRect();
      const cut = r.height * 0.1;
      return {what: name(t), left: r.left, right: r.right, top: r.top + cut, bottom: r.bottom - cut};
    });
    const marks = [...board.querySelectorAll("[data-testid=mark] rect, [data-testid=space-token]")].map((m) => {
      const r = m.getBoundingClientRect();
      const what = `token "${m.closest("[data-mark]")?.dataset.mark || m.textContent}"`;
      return {what, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    });
    const arrows = [...board.querySelectorAll("line.link")].map((line) => {
      const m = line.getScreenCTM();
      const at = (x, y) => new DOMPoint(Number(line.getAttribute(x)), Number(line.getAttribute(y))).matrixTransform(m);
      return {a: at("x1", "y1"), b: at("x2", "y2")};
    });
    const meet = (p, q) => Math.min(p.right, q.right) > Math.max(p.left, q.left)
      && Math.min(p.bottom, q.bottom) > Math.max(p.top, q.top);
    const crosses = (box, {a, b}) => {
      const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
      for (let i = 0; i <= steps; i++) {
        const x = a.x + (b.x - a.x) * i / steps;
        const y = a.y + (b.y - a.y) * i / steps;
        if (x > box.left - 2 && x < box.right + 2 && y > box.top - 2 && y < box.bottom + 2) return true;
      }
      return false;
    };
    labels.forEach((label, i) => {
      for (const other of labels.slice(i + 1)) if (meet(label, other)) found.push(`${label.what} over ${other.what}`);
      for (const mark of marks) if (meet(label, mark)) found.push(`${mark.what} over ${label.what}`);
      if (arrows.some((arrow) => crosses(label, arrow))) found.push(`${label.what} over an arrow`);
    });
  }
  return found;
}
"""

# Where an element lies in the window: its box, and the window's height.
BOX = "(node) => { const r = node.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: innerHeight} }"


@pytest.fixture
def screen(browser: Browser) -> Iterator[Page]:
    """A page of 1280x800; the test fails if its script throws."""
    yield from fresh_page(browser, VIEWPORT)


def overlaps(page: Page, boards: str) -> list[str]:
    found: list[str] = page.locator(boards).evaluate_all(OVERLAPS)
    return found


def assert_in_first_screen(page: Page, selector: str) -> None:
    """The element is wholly in the window, the page scrolled to its top."""
    box: dict[str, Any] = page.locator(selector).evaluate(BOX)
    assert 0 <= box["top"] < box["bottom"] <= box["height"], (selector, box)


def play_a_few(page: Page, rng: random.Random) -> None:
    options = page.locator("[data-testid=option]:visible, [data-testid=space].option, [data-testid=card].option")
    for done in range(CLICKS):
        if wait_for_turn(page) == "over":
            return
        options.nth(rng.randrange(options.count())).click(force=True)
        page.wait_for_function(f"() => Number(document.getElementById('pane-play').dataset.clicks) > {done}"
                               f" && ({SETTLED})()")


def save_and_replay(page: Page, saved: Path) -> None:
    """Saves the game so far and opens it in Replay, at its middle step."""
    with page.expect_download() as download:
        page.get_by_test_id("play-save").click()
    download.value.save_as(saved)
    page.get_by_test_id("tab-replay").click()
    page.get_by_test_id("replay-file").set_input_files(str(saved))
    steps = page.get_by_test_id("replay-step")
    expect(steps).to_have_text(re.compile(r"^step 0 of [1-9]\d*$"))
    total = int(steps.inner_text().split()[-1])
    page.get_by_test_id("replay-slider").fill(str(total // 2))
    expect(steps).to_have_text(f"step {total // 2} of {total}")
    page.wait_for_function("() => document.body.dataset.busy === '0'")


@pytest.mark.parametrize(("game", "players"), SEED_GAMES)
def test_the_board_labels_are_free_and_the_question_is_beside_the_seats_holdings(
        screen: Page, url: str, tmp_path: Path, game: str, players: int) -> None:
    open_ruleset(screen, url, f"games/{game}.rules")
    start_game(screen, players=players, seat=0, seed=3)
    play_a_few(screen, random.Random(3))
    wait_for_turn(screen)
    screen.evaluate("() => window.scrollTo(0, 0)")
    screen.screenshot(path=str(screenshots_dir() / f"web-screen-{game}-play.png"), full_page=True)
    assert overlaps(screen, "#play-boards svg.board") == []
    if screen.get_by_test_id("pane-play").get_attribute("data-phase") == "yours":
        assert_in_first_screen(screen, "#play-question")
    assert_in_first_screen(screen, "#play-mine [data-testid=my-seat]")
    save_and_replay(screen, tmp_path / f"{game}.json")
    screen.evaluate("() => window.scrollTo(0, 0)")
    screen.screenshot(path=str(screenshots_dir() / f"web-screen-{game}-replay.png"), full_page=True)
    assert overlaps(screen, "#replay-boards svg.board") == []
    assert_in_first_screen(screen, "#replay-last-action")
    assert_in_first_screen(screen, "#replay-mine [data-testid=my-seat]")


def test_the_overlap_check_finds_a_name_over_an_arrow(screen: Page, url: str) -> None:
    """The check above is not blind: a name moved onto its arrow is found."""
    open_ruleset(screen, url, "games/jamaica.rules")
    start_game(screen, players=3)
    assert overlaps(screen, "#play-boards svg.board") == []
    screen.evaluate("""() => {
      const name = document.querySelector("#play-boards [data-space='12'] text.space-name");
      name.setAttribute("x", "0"); name.setAttribute("y", "-30"); name.setAttribute("text-anchor", "middle"); }""")
    assert 'space-name "12" of 12 over an arrow' in overlaps(screen, "#play-boards svg.board")




# Jamaica with a presentation (a copy, in a folder of the test's own): faces for the action
# cards, the price and points of the track's spaces written on them, the treasure tokens
# drawn on their lairs, the settings (round limit...) and the ship's lap not shown.
JAMAICA_PRESENTED = """
present {
  colour.red { colour "#c62828" }
  colour.blue { colour "#1565c0" }
  colour.green { colour "#2e7d32" }
  colour.yellow { colour "#e0a800" }
  action_card { title "{colour}"  corner "{number}"  body "{morning} / {evening}"  colour colour }
  marker { name "treasure token"  symbol "T"  colour "#6a1b9a"  on lair  within on_lairs }
  track { label "{price}"  corner "{points}" }
  show round, captain, morning_die, evening_die, at, home
}
"""


@contextlib.contextmanager
def presented_game(browser: Browser, tmp_path: Path, game: str, block: str, players: int) -> Iterator[Page]:
    """A page playing a copy of ``games/GAME.rules`` (and its data folder) with ``block`` in place
    of its own ``present`` block."""
    (tmp_path / "games").mkdir()
    shutil.copytree(ROOT / "games" / game, tmp_path / "games" / game)
    written = (ROOT / "games" / f"{game}.rules").read_text(encoding="utf-8")
    rules = re.sub(r"(?ms)^present \{.*?^\}\n", "", written) + block   # the block replaces the game's own
    assert rules.count("present {") == 1
    (tmp_path / "games" / f"{game}.rules").write_text(rules, encoding="utf-8")
    with serving(tmp_path) as local_url:
        screen = next(pages := fresh_page(browser, VIEWPORT))
        open_ruleset(screen, local_url, f"games/{game}.rules")
        start_game(screen, players=players)
        yield screen
        screen.screenshot(path=str(screenshots_dir() / f"web-screen-{game}-presented-play.png"), full_page=True)
        assert overlaps(screen, "#play-boards svg.board") == []
        assert_in_first_screen(screen, "#play-mine [data-testid=my-seat]")
        next(pages, None)   # closes the page, and fails the test if its script threw


def test_the_page_draws_a_rulesets_card_faces_space_texts_and_tokens(browser: Browser, tmp_path: Path) -> None:
    with presented_game(browser, tmp_path, "jamaica", JAMAICA_PRESENTED, players=3) as screen:
        hand = screen.locator("#play-mine [data-zone=hand] [data-testid=card]")
        expect(hand.first.get_by_test_id("card-title")).to_have_text(re.compile(r"^(red|blue|green|yellow|white|black)$"))
        expect(hand.first.get_by_test_id("card-corner")).to_have_text(re.compile(r"^\d+$"))
        expect(hand.first.get_by_test_id("card-body")).to_have_text(re.compile(r"^\w+ / \w+$"))
        track = screen.locator("#play-boards svg[data-board=track]")
        assert track.locator("[data-space='04'] text.space-label").all_text_contents() == ["2", "-5"]
        assert track.locator("[data-space='03'] text.space-label").all_text_contents() == ["-5"]   # a lair: no price
        lairs = track.locator("[data-testid=space]").evaluate_all(
            "spaces => spaces.filter(s => s.querySelector('title').textContent.includes('type: lair'))"
            ".map(s => s.dataset.space)")
        assert len(lairs) == 9
        for lair in lairs:   # each lair's token on it
            token = track.locator(f"[data-testid=mark].token[data-mark='treasure token on {lair}']")
            assert token.count() == 1, lair
        expect(screen.locator("[data-zone=on_lairs] [data-testid=zone-on-board]")).to_have_text("drawn on the board")
        shown = screen.locator("#play-table [data-testid=shared] dl.values dt").all_text_contents()
        assert "round" in shown and "round limit" not in shown and "lair optional" not in shown, shown
        mine = screen.locator("#play-mine [data-testid=my-seat] dl.values dt").all_text_contents()
        assert "at" in mine and "lap" not in mine, mine


TOBAGO_PRESENTED = """
present {
  amulet { symbol "A"  colour "#b58900"  on at  within amulets_out }
  island { corner "{r}" }
}
"""


def test_the_page_draws_tokens_and_texts_on_a_hex_map_clear_of_its_landmarks(browser: Browser, tmp_path: Path) -> None:
    with presented_game(browser, tmp_path, "tobago", TOBAGO_PRESENTED, players=2) as screen:
        island = screen.locator("#play-boards svg[data-board=island]")
        assert island.locator("[data-space='4,3'] text.space-label").all_text_contents() == ["3"]
        assert island.locator("[data-space='4,2'] text.space-extra").all_text_contents() == ["statue · 2"]
        amulets = screen.locator("#play-table [data-zone=amulets_out]")
        expect(amulets.get_by_test_id("zone-on-board")).to_have_text("drawn on the board")
        assert island.locator("[data-testid=mark].token").count() == 3   # the amulets put out at the start
        assert island.locator("[data-testid=mark]:not(.token)", has_text="amulet").count() == 0   # not twice
        # Without a declared colouring attribute, the page colours the spaces by the text
        # attribute they all have (terrain), each value with a tint of its neutral palette by
        # its rank among the values sorted (beach, jungle, ...): no colours of its own for words.
        fills = dict(island.locator("[data-testid=space]").evaluate_all(
            "spaces => spaces.map(s => [s.querySelector('title').textContent.match(/terrain: (\\w+)/)[1], "
            "s.dataset.fill])"))
        assert fills["beach"] == "#f6bd60" and fills["jungle"] == "#84a59d", fills


JAMAICA_COLOURED = """
present {
  track { label "{price}"  colour type }
  track.lair { colour "#123456"  name "hideout" }
  track.sea { colour "navy" }
  show round, captain, at
}
"""


def test_the_page_colours_spaces_as_the_ruleset_declares(browser: Browser, tmp_path: Path) -> None:
    with presented_game(browser, tmp_path, "jamaica", JAMAICA_COLOURED, players=3) as screen:
        track = screen.locator("#play-boards svg[data-board=track]")
        fills = dict(track.locator("[data-testid=space]").evaluate_all(
            "spaces => spaces.map(s => [s.dataset.space, s.dataset.fill])"))
        assert fills["03"] == "#123456"                    # a lair: its declared colour
        cell = track.locator("[data-space='03'] circle.cell")
        assert cell.evaluate("c => getComputedStyle(c).fill") == "rgb(18, 52, 86)"
        dark = "g => g.classList.contains('dark')"   # its name written in white
        assert track.locator("[data-space='03']").evaluate(dark)
        assert fills["01"] == "navy" and track.locator("[data-space='01']").evaluate(dark)   # a colour's name too
        # The other values: the neutral palette, by rank among home, lair, port, sea.
        assert fills["port_royal"] == "#f6bd60" and fills["02"] == "#f28482"
        legend = screen.locator("figure[data-board=track] [data-testid=board-legend]")
        expect(legend.locator(".legend-item[data-value=lair]")).to_have_text("hideout")
        expect(legend.locator(".legend-item[data-value=port]")).to_have_text("port")
