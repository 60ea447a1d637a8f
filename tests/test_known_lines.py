"""A line to one player whose values are lists of names (compiler/known_lines.py) is kept in
place with only the lists' lengths tested: the same private lines (players, texts, kept
unbuilt or built), states, work and events as the general path (``logs.kept_private_line``,
which tests the kinds, and ``say``)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import worked_and_logged

import rulelang
from rulelang.interpreter.compiler import procedures
from rulelang.interpreter.model.program import line_text

GAMES = Path(__file__).resolve().parent.parent / "games"

HANDS = """\
game "H" { players 3 }
component card { name: string } shown as "{name}"
zone pile: card visible count
player zone hand: card visible owner
deck cards: card in pile = [card(name: "card " + i) for i in 1..80]
var first: player = players[0]
phase p {
  for round in 1..2 {
    for p in players {
      move top(pile) to p.hand
      move top(pile) to p.hand
      log "your hand: " + list(p.hand) to [p]
      log "again, " + p + ": " + list(p.hand) to p
      log "the first hears " + list(p.hand) + " and " + list(p.hand) to [first]
      log "a choice of " + list(p.hand) to [p]
    }
  }
  for p in players {
    move pile to p.hand
    log "at last: " + list(p.hand) to [p]
  }
  choose c in players[0].hand by players[0]
  end game
}
"""


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """No listener known: every line to players tested as logs.kept_private_line tests it."""
    monkeypatch.setattr(procedures, "one_listener", lambda writer, audience, scope: None)


def _private(state: rulelang.State) -> list[tuple[int, tuple[int, ...], bool, str]]:
    return [(at, players, type(text) is str, line_text(text)) for at, players, text in state.private_lines]


def _played(game: rulelang.Game, seed: int) -> list[list[tuple[int, tuple[int, ...], bool, str]]]:
    """The private lines after each action of a random game of ``game``."""
    state, chooser, seen = game.new_initial_state(seed=seed), random.Random(seed), []
    seen.append(_private(state))
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        seen.append(_private(state))
    return seen


def test_a_line_of_lists_of_names_to_one_player_is_kept_testing_only_their_lengths(monkeypatch):
    game = rulelang.load(HANDS)
    code = game.generated_code()
    assert "_NAMED.issuperset" not in code and "_Player" not in code
    assert "_h" in code   # (the global read once, its item's index read)
    assert code.count("st.private_lines.append((len(st.log_lines), (") == 5
    assert code.count(" + len(_t") == 1   # (two lists in one line: their items counted together)
    state = game.new_initial_state(seed=3)
    lines = _private(state)
    assert len(lines) == 2 * 3 * 4 + 3 and {players for _, players, _, _ in lines} == {(0,), (1,), (2,)}
    assert lines[0][1:] == ((0,), False, "your hand: [card 80, card 79]")
    assert lines[10][1:] == ((0,), False, "the first hears [card 76, card 75] and [card 76, card 75]")
    assert lines[-3][2] is True and lines[-3][3].startswith("at last: [card 80, card 79, ")   # (too long: built)
    assert [built for _, _, built, _ in lines].count(True) == 1
    _general(monkeypatch)
    general = rulelang.load(HANDS)
    assert "_NAMED.issuperset" in general.generated_code()
    assert _private(general.new_initial_state(seed=3)) == lines
    assert [_played(general, seed) for seed in range(3)] == [_played(game, seed) for seed in range(3)]
    assert worked_and_logged(general) == worked_and_logged(game)


def test_jolly_roger_deals_its_hands_lines_as_the_general_path_does(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = rulelang.load(path, players=4)
    assert "_NAMED.issuperset(map(type, _t129" not in fast.generated_code()
    played = [_played(fast, seed) for seed in range(2)], worked_and_logged(fast)
    _general(monkeypatch)
    slow = rulelang.load(path, players=4)
    assert ([_played(slow, seed) for seed in range(2)], worked_and_logged(slow)) == played
