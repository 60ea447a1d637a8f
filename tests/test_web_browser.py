"""The page of ``rulelang web`` in a real browser: Playwright drives headless Chromium.

The server runs in this process (``rulelang.interpreter.hosts.web.make_server`` on a free port, in a
thread) for the repository's rulesets; the browser is the system's Chromium (Debian's
``chromium`` package), named by ``RULELANG_CHROMIUM`` or found on the PATH. Without it, or
without the ``playwright`` package, the tests are skipped, except on CI (``CI`` set), where
they fail: CI installs both.

Each test saves a screenshot of every page state it reaches in ``build/screenshots/`` (or
``RULELANG_SCREENSHOTS``), for a person to look at.
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
except ImportError:   # the tests are skipped (or fail on CI) below
    HAVE_PLAYWRIGHT = False
else:
    HAVE_PLAYWRIGHT = True

from rulelang.interpreter.hosts.web import address, make_server

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_MS = 20_000     # the longest wait for one page state (two shared cores, a busy machine)
MAX_CLICKS = 400        # a whole game of Jamaica for one seat of three takes about 60
# The page has settled: the person is asked, or the game is over (or stopped), no request out.
SETTLED = ("() => ['yours', 'over', 'error', 'stuck'].includes(document.getElementById('pane-play').dataset.phase)"
           " && document.body.dataset.busy === '0'")


def unavailable(reason: str) -> None:
    """Skip the test here; fail it on CI, where the browser and Playwright are installed."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must install it)")
    pytest.skip(reason)


def chromium_path() -> str | None:
    """The Chromium to drive: $RULELANG_CHROMIUM, or chromium / chromium-browser on the PATH."""
    named = os.environ.get("RULELANG_CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


def screenshots_dir() -> Path:
    folder = Path(os.environ.get("RULELANG_SCREENSHOTS") or ROOT / "build" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snap(page: Page, name: str, full_page: bool = True) -> None:
    """A screenshot of the page as it is now (all of it, or what the window shows):
    build/screenshots/web-NAME.png."""
    page.screenshot(path=str(screenshots_dir() / f"web-{name}.png"), full_page=full_page)


# -- fixtures ---------------------------------------------------------------------------

@contextlib.contextmanager
def serving(root: Path) -> Iterator[str]:
    """A ``rulelang web`` server for the rulesets under ``root``, on a free port, in a thread."""
    server, _ = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield address(server, "127.0.0.1")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(ROOT) as address_of_the_page:
        yield address_of_the_page


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not HAVE_PLAYWRIGHT:
        unavailable("the playwright package is not installed (pip install playwright)")
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None or not Path(executable).exists():
        unavailable("no Chromium found (set RULELANG_CHROMIUM, or install Debian's chromium package)")
    launched = playwright.chromium.launch(executable_path=executable, headless=True)
    yield launched
    launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page; the test fails if the page's script throws."""
    yield from fresh_page(browser, {"width": 1400, "height": 950})


def fresh_page(browser: Browser, viewport: dict[str, int]) -> Iterator[Page]:
    """A page in a window of ``viewport``, closed after; fails if the page's script threw."""
    context = browser.new_context(viewport=viewport, accept_downloads=True)   # type: ignore[arg-type]
    opened = context.new_page()
    opened.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


# -- helpers ----------------------------------------------------------------------------

def open_ruleset(page: Page, url: str, path: str) -> None:
    """Opens the page and the ruleset ``path`` in its editor; waits for the linter's verdict."""
    page.goto(url)
    page.locator(f"[data-testid=ruleset][data-path='{path}']").click()
    expect(page.get_by_test_id("editor-path")).to_have_text(path)
    expect(page.get_by_test_id("lint-summary")).not_to_have_text(re.compile(r"^$|checking"))


def start_game(page: Page, players: int, seat: int = 0, seed: int = 1, bots: str = "random") -> None:
    page.get_by_test_id("tab-play").click()
    page.get_by_test_id("play-players").select_option(str(players))
    page.get_by_test_id("play-seat").select_option(str(seat))
    page.get_by_test_id("play-bots").fill(bots)
    page.get_by_test_id("play-seed").fill(str(seed))
    page.get_by_test_id("play-start").click()
    wait_for_turn(page)


def wait_for_turn(page: Page) -> str:
    """Waits until the person is asked or the game is over; gives which ("yours" or "over")."""
    page.wait_for_function(SETTLED)
    phase = page.get_by_test_id("pane-play").get_attribute("data-phase")
    assert phase in ("yours", "over"), page.get_by_test_id("banner").inner_text()
    return phase


def clicks(page: Page) -> int:
    return int(page.get_by_test_id("pane-play").get_attribute("data-clicks") or 0)


def play_to_the_end(page: Page, rng: random.Random, shots: dict[int, str] | None = None) -> int:
    """Clicks the person's options (at random, by their buttons) until the game is over;
    gives the number of clicks. ``shots`` names screenshots to take after so many clicks."""
    # The option buttons, and the spaces and cards that are options (when many spaces are,
    # the board is the way to choose and the buttons are folded away).
    options = page.locator("[data-testid=option]:visible, [data-testid=space].option, [data-testid=card].option")
    for done in range(MAX_CLICKS):
        if wait_for_turn(page) == "over":
            return clicks(page)
        assert clicks(page) == done
        count = options.count()
        assert count > 0, "the person is asked but offered nothing"
        if shots and done in shots:
            snap(page, shots[done])
        # A real click at the element (force: without Playwright's waits for it to be stable,
        # which cost two frames a click; it is on screen, and a missed click fails below).
        options.nth(rng.randrange(count)).click(force=True)
        page.wait_for_function(f"() => Number(document.getElementById('pane-play').dataset.clicks) > {done}"
                               f" && ({SETTLED})()")
    pytest.fail(f"no end after {MAX_CLICKS} clicks")


def marks_on_replay_board(page: Page) -> list[str]:
    """Each mark on the replay's boards, with where it is drawn."""
    found: list[str] = page.get_by_test_id("replay-boards").locator("[data-testid=mark]").evaluate_all(
        "marks => marks.map(m => m.parentNode.getAttribute('transform') + ' ' + m.dataset.mark)")
    return found


# -- tests ------------------------------------------------------------------------------

def test_the_editor_highlights_a_ruleset_and_shows_a_broken_lines_diagnostic_there(page: Page, url: str) -> None:
    open_ruleset(page, url, "games/jamaica.rules")
    paths = page.get_by_test_id("ruleset").evaluate_all("items => items.map(i => i.dataset.path)")
    assert {"games/jamaica.rules", "games/jolly_roger.rules", "games/asterix.rules", "games/tobago.rules"} <= set(paths)
    expect(page.get_by_test_id("lint-summary")).to_have_text("no problems found ✓")
    # The highlighted copy under the textarea marks keywords, strings and comments.
    assert page.locator("#editor-code .tok-k", has_text="phase").count() > 0
    assert page.locator("#editor-code .tok-c").count() > 10
    assert page.locator("#editor-code .tok-s").count() > 10
    snap(page, "1-editor-jamaica", full_page=False)
    editor = page.get_by_test_id("editor")
    text = editor.input_value()
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines, 1) if t.startswith("board track = load_board("))
    column = lines[line - 1].index("load_board") + 1
    # Type into the ruleset as a person would: the caret after "load_", then "x".
    editor.evaluate(
        "(area, at) => { area.focus(); area.setSelectionRange(at, at); }",
        sum(len(t) + 1 for t in lines[: line - 1]) + column - 1 + len("load_"))
    page.keyboard.type("x")
    errors = page.locator("[data-testid=diagnostic][data-severity=error]")
    expect(errors.first).to_be_visible()
    assert errors.first.get_attribute("data-line") == str(line)
    assert errors.first.get_attribute("data-column") == str(column)
    expect(errors.first).to_contain_text("load_xboard")
    expect(errors.first.get_by_test_id("diagnostic-where")).to_have_text(f"{line}:{column}")
    expect(page.get_by_test_id("lint-summary")).to_contain_text("error")
    # The line is marked in the gutter and underlined in the text.
    expect(page.locator("#editor-gutter .gutter-error")).to_have_text(str(line))
    expect(page.locator(f"#editor-code .line[data-line='{line}'] .squiggle-error").first).to_contain_text("load_xboard")
    snap(page, "2-editor-broken", full_page=False)
    # A click on the diagnostic puts the caret there.
    editor.evaluate("area => area.setSelectionRange(0, 0)")
    errors.first.click()
    caret = editor.evaluate("area => area.value.slice(0, area.selectionStart).split('\\n').length")
    assert caret == line
    # Taking the letter out again clears the diagnostics; nothing was written.
    editor.evaluate("(area, at) => area.setSelectionRange(at, at)",
                    sum(len(t) + 1 for t in lines[: line - 1]) + column - 1 + len("load_x"))
    page.keyboard.press("Backspace")
    expect(page.get_by_test_id("lint-summary")).to_have_text("no problems found ✓")
    expect(page.get_by_test_id("editor-dirty")).to_have_text("")
    assert (ROOT / "games" / "jamaica.rules").read_text(encoding="utf-8") == text


def test_the_phase_graph_is_drawn(page: Page, url: str) -> None:
    open_ruleset(page, url, "games/jamaica.rules")
    page.get_by_test_id("tab-graph").click()
    graph = page.get_by_test_id("graph-svg")
    expect(graph).to_be_visible()
    nodes = graph.get_by_test_id("graph-node")
    names = nodes.evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert len(names) >= 5
    assert any("voyage" in name for name in names)
    assert graph.get_by_test_id("graph-edge").count() >= len(names) - 1
    snap(page, "3-graph-jamaica")
    # A click on a phase shows its line in the editor.
    voyage = graph.locator("[data-testid=graph-node][data-node]", has_text="voyage").first
    voyage.click()
    expect(page.get_by_test_id("pane-editor")).to_be_visible()
    editor = page.get_by_test_id("editor")
    line = editor.evaluate("area => area.value.slice(0, area.selectionStart).split('\\n').length")
    assert editor.input_value().split("\n")[line - 1].startswith("phase voyage")


def test_tobago_island_is_drawn_with_its_hexes_and_a_hex_can_be_clicked(page: Page, url: str) -> None:
    open_ruleset(page, url, "games/tobago.rules")
    start_game(page, players=2)
    island = page.locator("svg[data-testid=board-svg][data-board=island]")
    expect(island).to_be_visible()
    hexes = island.locator("polygon.hex")
    assert hexes.count() >= 100
    fills = set(island.locator("[data-testid=space]").evaluate_all("spaces => spaces.map(s => s.dataset.fill)"))
    assert len(fills - {""}) >= 5, fills
    # Space names are written on the board.
    assert island.locator("text.space-name").count() == hexes.count()
    snap(page, "4-tobago-island")
    # The first question is a hex: the person clicks it on the island, not in the list.
    clickable = island.locator("[data-testid=space].option")
    assert clickable.count() > 0
    prompt = page.get_by_test_id("prompt").inner_text()
    clickable.first.click()
    page.wait_for_function("() => Number(document.getElementById('pane-play').dataset.clicks) >= 1")
    wait_for_turn(page)
    assert page.get_by_test_id("log-line").count() > 0
    assert page.get_by_test_id("prompt").inner_text() != prompt or clicks(page) == 1
    snap(page, "5-tobago-after-a-click")


def test_asterix_a_card_is_chosen_by_clicking_it_in_the_hand(page: Page, url: str) -> None:
    open_ruleset(page, url, "games/asterix.rules")
    start_game(page, players=3, seat=2, seed=2)
    # Everybody plays a card at once: the cards of the seat's hand are the options.
    expect(page.get_by_test_id("prompt")).to_contain_text("player 3: your card against")
    hand = page.locator("[data-testid=my-seat] [data-zone=hand] [data-testid=card]")
    expect(hand).to_have_count(11)
    expect(hand.and_(page.locator(".option"))).not_to_have_count(0)
    others = page.get_by_test_id("other-seat")
    expect(others.first.locator("[data-zone=hand]")).to_contain_text("11 hidden")
    snap(page, "14-asterix-start")
    log_lines = page.get_by_test_id("log-line").count()
    hand.and_(page.locator(".option")).first.click()
    page.wait_for_function(f"() => Number(document.getElementById('pane-play').dataset.clicks) === 1 && ({SETTLED})()")
    # The trick was played: the log says who took the Roman.
    assert page.get_by_test_id("log-line").count() > log_lines
    expect(page.get_by_test_id("log")).to_contain_text("takes")
    # The log is narrated: the phase is a heading, the others' picks are secret, then shown.
    expect(page.locator("[data-testid=log-line].heading-1")).to_have_text(["phase rounds"])
    expect(page.get_by_test_id("log")).to_contain_text("player 1 chooses in secret")
    expect(page.get_by_test_id("log")).to_contain_text("player 1 plays Astérix")
    snap(page, "15-asterix-after-a-card")


def test_a_whole_game_of_jamaica_by_clicking_then_its_replay(page: Page, url: str) -> None:
    open_ruleset(page, url, "games/jamaica.rules")
    start_game(page, players=3, seat=1, seed=5)
    # What the seat sees: its own hand, the others' hands as sizes, the track and the ships.
    mine = page.get_by_test_id("my-seat")
    expect(mine).to_have_attribute("data-seat", "1")
    assert mine.locator("[data-zone=hand] [data-testid=card]").count() == 3
    others = page.get_by_test_id("other-seat")
    expect(others).to_have_count(2)
    expect(others.first.locator("[data-zone=hand]")).to_contain_text("3 hidden")
    track = page.locator("svg[data-testid=board-svg][data-board=track]")
    assert track.locator("[data-testid=space]").count() >= 40
    assert track.locator("[data-testid=mark]").count() >= 1
    snap(page, "6-jamaica-start")
    # Undo: one choice taken back gives the same question again.
    prompt = page.get_by_test_id("prompt").inner_text()
    page.get_by_test_id("option").first.click()
    page.wait_for_function("() => Number(document.getElementById('pane-play').dataset.clicks) === 1")
    wait_for_turn(page)
    page.get_by_test_id("undo").click()
    page.wait_for_function("() => Number(document.getElementById('pane-play').dataset.clicks) === 0")
    wait_for_turn(page)
    expect(page.get_by_test_id("prompt")).to_have_text(prompt)
    # The whole game.
    total = play_to_the_end(page, random.Random(5), shots={12: "7-jamaica-mid-game"})
    assert total > 10
    over = page.get_by_test_id("game-over")
    expect(over).to_be_visible()
    expect(over.get_by_test_id("results").locator("tr.winner")).not_to_have_count(0)
    snap(page, "8-jamaica-game-over")
    # Its replay, step by step.
    over.get_by_test_id("replay-this").click()
    expect(page.get_by_test_id("pane-replay")).to_be_visible()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^step 0 of \d+$"))
    steps = int(page.get_by_test_id("replay-step").inner_text().split()[-1])
    assert steps > total
    log_at_start = page.get_by_test_id("replay-log").inner_text()
    marks_at_start = marks_on_replay_board(page)
    snap(page, "9-replay-step-0")
    for _ in range(3):
        page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"step 3 of {steps}")
    expect(page.get_by_test_id("replay-last-action")).to_contain_text("chose")
    page.get_by_test_id("replay-slider").fill(str(steps // 2))
    expect(page.get_by_test_id("replay-step")).to_have_text(f"step {steps // 2} of {steps}")
    page.wait_for_function("() => document.body.dataset.busy === '0'")
    assert page.get_by_test_id("replay-log").inner_text() != log_at_start
    assert marks_on_replay_board(page) != marks_at_start
    snap(page, "10-replay-mid-game")
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(f"step {steps} of {steps}")
    expect(page.get_by_test_id("replay-over")).to_be_visible()
    snap(page, "11-replay-end")
    # As the public sees it: no seat's own view, every hand a size.
    page.get_by_test_id("replay-seat").select_option("-1")
    expect(page.locator("#replay-table [data-testid=my-seat]")).to_have_count(0)
    expect(page.locator("#replay-table [data-testid=other-seat]")).to_have_count(3)
    expect(page.locator("#replay-table [data-zone=hand] [data-testid=card]")).to_have_count(0)


def test_a_saved_game_replays_from_its_file(page: Page, url: str, tmp_path: Path) -> None:
    open_ruleset(page, url, "games/kuhn_poker.rules")
    start_game(page, players=2, seat=0, seed=3)
    play_to_the_end(page, random.Random(3))
    with page.expect_download() as download:
        page.get_by_test_id("game-over").get_by_test_id("save-this").click()
    saved = tmp_path / "kuhn.json"
    download.value.save_as(saved)
    assert '"history"' in saved.read_text(encoding="utf-8")
    page.get_by_test_id("tab-replay").click()
    page.get_by_test_id("replay-file").set_input_files(str(saved))
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^step 0 of [1-9]\d*$"))
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("replay-over")).to_be_visible()
    snap(page, "12-replay-from-file")


def test_save_writes_the_editors_text(browser: Browser, tmp_path: Path) -> None:
    shutil.copy(ROOT / "games" / "tic_tac_toe.rules", tmp_path / "mine.rules")
    with serving(tmp_path) as local_url, contextlib.closing(browser.new_context()) as context:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        open_ruleset(page, local_url, "mine.rules")
        editor = page.get_by_test_id("editor")
        editor.evaluate("area => { area.focus(); area.setSelectionRange(0, 0); }")
        page.keyboard.type("# edited in the page\n")
        expect(page.get_by_test_id("editor-dirty")).to_contain_text("unsaved")
        page.get_by_test_id("save-source").click()
        expect(page.get_by_test_id("editor-dirty")).to_have_text("")
        expect(page.get_by_test_id("banner")).to_contain_text("Saved mine.rules")
        snap(page, "13-editor-saved", full_page=False)
    assert (tmp_path / "mine.rules").read_text(encoding="utf-8").startswith("# edited in the page\n")


APPLIED_NOTE = "only: 10 (the only option, applied for you)"


def test_a_one_option_choice_is_applied_for_the_person_noted_and_undone_unless_turned_off(
        browser: Browser, tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "data" / "one_option.rules", tmp_path / "forced.rules")   # first, only, last
    (tmp_path / "solo.rules").write_text('game "solo" { players 1 }\nphase main {\n  end game\n}\n')
    with serving(tmp_path) as local_url, contextlib.closing(browser.new_context(viewport={"width": 1400,
                                                                                         "height": 950})) as context:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_ruleset(page, local_url, "forced.rules")
        solo = page.locator("[data-testid=ruleset][data-path='solo.rules']")
        expect(solo).to_contain_text("1 player")
        assert "1 players" not in solo.inner_text()
        expect(page.get_by_test_id("play-auto")).to_be_checked()   # on by default
        start_game(page, players=2)
        prompt, pane = page.get_by_test_id("prompt"), page.get_by_test_id("pane-play")
        expect(prompt).to_have_text("first")
        page.get_by_test_id("option").filter(has_text=re.compile(r"^2$")).click()
        page.wait_for_function(f"() => document.getElementById('pane-play').dataset.clicks === '1' && ({SETTLED})()")
        expect(prompt).to_have_text("last")   # "only" was answered for the person
        expect(pane).to_have_attribute("data-applied", "1")
        expect(page.get_by_test_id("log-line").filter(has_text=APPLIED_NOTE)).to_have_count(1)
        snap(page, "14-one-option-applied", full_page=False)
        # Undo takes back the applied choice with the person's choice before it.
        page.get_by_test_id("undo").click()
        page.wait_for_function(f"() => document.getElementById('pane-play').dataset.clicks === '0' && ({SETTLED})()")
        expect(prompt).to_have_text("first")
        expect(pane).to_have_attribute("data-applied", "0")
        expect(page.get_by_test_id("log-line").filter(has_text=APPLIED_NOTE)).to_have_count(0)
        expect(page.get_by_test_id("undo")).to_be_disabled()
        # Turned off: the one-option choice is asked.
        page.get_by_test_id("play-auto").uncheck()
        page.get_by_test_id("option").filter(has_text=re.compile(r"^1$")).click()
        page.wait_for_function(f"() => document.getElementById('pane-play').dataset.clicks === '1' && ({SETTLED})()")
        expect(prompt).to_have_text("only")
        expect(page.get_by_test_id("option")).to_have_count(1)
        page.get_by_test_id("option").click()
        page.wait_for_function(f"() => document.getElementById('pane-play').dataset.clicks === '2' && ({SETTLED})()")
        expect(prompt).to_have_text("last")
        expect(pane).to_have_attribute("data-applied", "0")
    assert errors == [], f"the page's script failed: {errors}"
