"""The terminal screen fits the terminal (rulelang.interpreter.hosts.terminal_screen): at
120x40, every decision of a full random game of each ruleset in games/ shows its question
and its options (or a page of them with the key to the next) within the height, the rest of
the view cut to what is left with the key that shows it whole."""
from __future__ import annotations

import random
import re

import pytest
from conftest import game_files

import rulelang
from rulelang.interpreter.hosts.terminal_screen import fit_screen, page_of_options
from rulelang.interpreter.hosts.terminal_view import SeatView, plain_text
from rulelang.interpreter.state.narrate import line_text

WIDTH, HEIGHT = 120, 40
SCREEN = HEIGHT - 1   # the last line is the one the answer is typed on


def flat(text: str) -> str:
    """The screen's text without panel borders, on one line (a wrapped prompt reads whole)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def assert_fits(view, state, player, page=0):
    """The screen of ``player`` fits and shows the question and its page of options; the
    number of pages."""
    screen = fit_screen(view, state, player, WIDTH, SCREEN, page=page)
    text = plain_text(screen.renderable, WIDTH)
    lines = text.splitlines()
    assert len(lines) <= SCREEN and all(len(line) <= WIDTH for line in lines)
    decision = state.decision(player)
    assert " ".join((decision.prompt or "choose").split()) in flat(text)
    shown = screen.options
    for index in range(shown.first, shown.first + shown.count):
        assert f"{index + 1}. {decision.actions[index]}" in text, (index, text)
    if shown.page + 1 < shown.pages:
        assert "n: next page" in text
    return shown.pages


@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_every_decision_of_a_random_game_fits_120_by_40(path):
    """Every seat's every decision (each seat to act at a simultaneous one), every page."""
    game = rulelang.load(path)
    view, rng = SeatView(game), random.Random(7)
    state = game.new_initial_state(seed=7, events=True)
    asked = set()
    while not state.is_terminal():
        acting = [p for p in state.current_players() if p >= 0]
        for player in acting:
            asked.add(player)
            pages = assert_fits(view, state, player)
            for page in range(1, pages):
                assert_fits(view, state, player, page)
        player = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(player)), player=player)
    assert asked == set(range(game.num_players))


def test_a_long_log_keeps_its_last_lines_and_names_the_key_of_the_whole_log():
    game = rulelang.load("games/jamaica.rules")
    state, rng = game.new_initial_state(seed=2, events=True), random.Random(2)
    while len(state.narration(0)) < 200 or 0 not in state.current_players():
        player = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(player)), player=player)
    text = plain_text(fit_screen(SeatView(game), state, 0, WIDTH, SCREEN).renderable, WIDTH)
    assert "l: the whole log" in text and re.search(r"log \(last \d+ of 2\d\d\)", text)
    assert line_text(state.narration(0)[-1]) in text
    assert text.index("log (last") < text.index("your choice (")   # the question comes last


def test_many_options_go_in_columns_then_pages():
    columns = page_of_options(75, 8, 116, 15, 0)
    assert (columns.columns, columns.rows, columns.pages) == (5, 15, 1)
    paged = page_of_options(75, 50, 116, 15, 1)   # wide labels: two columns of 15, three pages
    assert (paged.columns, paged.rows, paged.pages, paged.first, paged.count) == (2, 15, 3, 30, 30)
    last = page_of_options(75, 50, 116, 15, 9)    # a page past the end shows the last one
    assert (last.page, last.first, last.count) == (2, 60, 15)


@pytest.mark.parametrize(("width", "height"), [(40, 10), (60, 16), (80, 24), (200, 60)])
def test_seventy_five_options_fit_small_and_large_screens_on_every_page(width, height):
    """Tobago's first placement: the page line wraps on a narrow screen and is counted."""
    game = rulelang.load("games/tobago.rules")
    state = game.new_initial_state(seed=3, events=True)
    while 0 not in state.current_players():
        state.apply_action(state.legal_actions(state.current_players()[0])[0], player=state.current_players()[0])
    view, seen = SeatView(game), set()
    pages = fit_screen(view, state, 0, width, height).options.pages
    for page in range(pages):
        screen = fit_screen(view, state, 0, width, height, page=page)
        assert len(plain_text(screen.renderable, width).splitlines()) <= height
        seen |= set(range(screen.options.first, screen.options.first + screen.options.count))
    assert seen == set(range(len(state.legal_actions(0))))
