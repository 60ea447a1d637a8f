"""The narrated log from event ``since`` on (State.narration(player, since)) is the tail of
the whole log: the events before ``since`` are followed, not worded (a poll costs what it
asks for, plus a pass over the earlier events), and the lines after them read the same."""
from __future__ import annotations

import random

import pytest
from conftest import GAMES_DIR, game_cases, play_randomly

import rulelang
from rulelang import CHANCE
from rulelang.interpreter.state import narrate

SAMPLES = 40   # values of since tried in each game (every one in a short game)


def tail_of(whole: list[dict], part: list[dict], since: int) -> list[dict]:
    """``part`` (the lines from ``since`` on) as the whole log has them: a first line whose
    event the whole log joined to a line that starts before ``since`` (moves between the same
    two zones, rolls of one die) is left out, since the whole log tells it on that line."""
    seqs = {line["seq"] for line in whole}
    return part[1:] if part and part[0]["seq"] not in seqs else part


@pytest.mark.parametrize("path, players", game_cases())
def test_the_lines_from_since_on_are_the_tail_of_the_whole_log(path, players):
    game = rulelang.load(path, players=players)
    state = play_randomly(game.new_initial_state(seed=5, events=True), random.Random(5))
    count = state.event_count()
    chooser = random.Random(count)
    sinces = range(count + 1) if count <= SAMPLES else sorted({0, count, *chooser.sample(range(count), SAMPLES)})
    for viewer in (None, CHANCE, *range(players)):
        whole = state.narration(viewer)
        for since in sinces:
            part = state.narration(viewer, since=since)
            assert tail_of(whole, part, since) == [line for line in whole if line["seq"] >= since], (viewer, since)


def test_the_events_before_since_are_not_worded(monkeypatch):
    game = rulelang.load(GAMES_DIR / "jamaica.rules", players=3)
    state = play_randomly(game.new_initial_state(seed=2, events=True), random.Random(2), limit=60)
    rendered = []
    worded = narrate.render_event

    def counted(st, event, viewer):
        rendered.append(event)
        return worded(st, event, viewer)

    monkeypatch.setattr(narrate, "render_event", counted)
    assert state.narration(0, since=state.event_count()) == []
    assert len(rendered) <= sum(event[0] == "log" for event in state.event_log) < state.event_count() / 2
