"""The end of a ``log ... instead { }`` block's quiet part and its line tested together
(compiler/logs.py, ``kept_after_mark``): with no event log, one test of it for both; with
one, the mark then the line, as before. The same lines, events, states and work as the
mark and the line written apart."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import worked_and_logged

import rulelang
from rulelang.interpreter.compiler import procedures

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "Q" { players 2  max_steps 400 }
zone pile: list[card]
component card { }
deck cards: card in pile = [card() for i in 1..3]
var n: int = 0
phase p {
  for q in players {
    log "" + q + " moves " + top(pile) + " and counts " + (n + 1) instead {
      move top(pile) to pile
      n += 1
    }
  }
  end game
}
"""


def _apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mark and the line written apart, as before."""
    monkeypatch.setattr(procedures, "after_loud_mark", lambda lines, indent: False)


def _before_mark(game: rulelang.Game) -> str:
    """The line of the generated code before the one mark that ends a quiet block."""
    lines = [line.strip() for line in game.generated_code().split("\n")]
    marks = [k for k, line in enumerate(lines) if "('narrate', 'loud')" in line]
    assert len(marks) == 1
    return lines[marks[0] - 1]


def test_the_mark_is_taken_into_the_line_and_writes_the_same_events(monkeypatch):
    game = rulelang.load(RULES)
    assert _before_mark(game) == "else:"
    played = worked_and_logged(game)
    events = game.new_initial_state(events=True).event_log
    _apart(monkeypatch)
    apart = rulelang.load(RULES)
    assert _before_mark(apart).endswith(" is not None:")   # (its own test of the event log)
    assert apart.new_initial_state(events=True).event_log == events
    assert worked_and_logged(apart) == played


@pytest.mark.parametrize("name", ["asterix", "jamaica"])
def test_the_seed_games_play_the_same_with_the_marks_taken_in(monkeypatch, name):
    path = GAMES / f"{name}.rules"
    game = rulelang.load(path, players=4)
    played = worked_and_logged(game)
    _apart(monkeypatch)
    apart = rulelang.load(path, players=4)
    assert apart.generated_code().count("else:") < game.generated_code().count("else:")
    assert worked_and_logged(apart) == played
