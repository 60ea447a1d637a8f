"""'log turn PLAYER': a ruleset says where its turns begin; the narrated log heads each turn
there, and no longer guesses turns from the choices made (another player's choice inside a
turn starts no turn heading)."""
from __future__ import annotations

import json

import pytest
from conftest import rules

import rulelang
from rulelang import RulelangError, StateDataError, ast
from rulelang.loader import lint_text
from rulelang.syntax.parser import parse

# Each player's turn: they play a card, then the other player answers (keeps or passes).
DUEL = rules('''
    game "Duel" { players 2 }
    var answers: int = 0 visible all

    phase play {
      for r in 1..2 {
        log heading "round " + r
        for p in players {
          log turn p
          choose n in 1..2 by p prompt "{p}: a number"
          let other = next_player(p)
          choose by other prompt "{other}: answer {p}" {
            option "keep" { answers += n }
            option "pass" { }
          }
        }
      }
      end game
    }
    score p = answers
''')

TURN_LINE = DUEL.splitlines().index("      log turn p") + 1   # the line of the 'log turn'
GUESSED = DUEL.replace("      log turn p\n", "")
assert GUESSED != DUEL


def played(text: str, events: bool = True) -> rulelang.State:
    state = rulelang.load(text, players=2).new_initial_state(seed=1, events=events)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(state.legal_actions(player)[0], player=player)
    return state


def headings(state: rulelang.State) -> list[str]:
    return [str(line["text"]) for line in state.narration(0) if line.get("heading") == 3]


def test_log_turn_parses_to_a_turn_node_with_its_span():
    decls = parse(DUEL, "duel.rules")
    phase = next(d for d in decls.declarations if isinstance(d, ast.PhaseDecl))
    loop = next(s for s in phase.body.statements if isinstance(s, ast.For))
    inner = next(s for s in loop.body.statements if isinstance(s, ast.For))
    turn = inner.body.statements[0]
    assert isinstance(turn, ast.Turn) and turn.player == ast.Name(turn.player.span, "p")
    assert (turn.span.line, turn.span.column, turn.span.end_column) == (TURN_LINE, 7, 17)
    with pytest.raises(AttributeError):
        turn.player = ast.Name(turn.span, "q")  # type: ignore[misc]


def test_a_declared_turn_is_a_heading_and_an_answer_inside_it_is_not():
    assert headings(played(DUEL)) == ["player 1's turn", "player 2's turn"] * 2
    lines = [str(line["text"]) for line in played(DUEL).narration(1)]
    first_turn = lines[lines.index("player 1's turn"):lines.index("player 2's turn")]
    assert "player 2 chooses keep" in first_turn


def test_without_log_turn_the_narration_still_guesses_a_turn_at_each_new_chooser():
    lines = [str(line["text"]) for line in played(GUESSED).narration(0)]
    assert lines[lines.index("player 2 chooses keep") - 1] == "player 2's turn"


def test_a_turn_is_an_event_kept_in_a_saved_state_and_checked_when_read():
    state = played(DUEL)
    turns = [e for e in state.events() if e["type"] == "turn"]
    assert [e["player"] for e in turns] == [0, 1, 0, 1]
    data = json.loads(json.dumps(state.to_json()))
    again = state.game.state_from_json(data)
    assert again.narration(0) == state.narration(0)
    at = next(i for i, e in enumerate(data["events"]) if e[0] == "turn")
    data["events"][at] = ["turn", 7]
    with pytest.raises(StateDataError, match="not a valid seat"):
        state.game.state_from_json(data)


def test_log_turn_records_nothing_and_plays_the_same_without_events():
    quiet, told = played(DUEL, events=False), played(DUEL)
    assert quiet.event_log is None
    assert quiet.returns() == told.returns() and quiet.log == told.log


def test_log_turn_of_a_number_is_a_located_runtime_error():
    game = rulelang.load(DUEL.replace("log turn p", "log turn 3"), players=2)
    with pytest.raises(RulelangError) as caught:
        game.new_initial_state(seed=1, events=True)   # the first turn begins before any decision
    diagnostic = caught.value.diagnostics[0]
    assert "'log turn' needs a player" in diagnostic.message and diagnostic.span.line == TURN_LINE


def test_log_turn_none_heads_no_turn_and_stops_the_guess():
    table = DUEL.replace("log turn p", "log turn none")
    state = played(table)
    assert headings(state) == [] and not [e for e in state.events() if e["type"] == "turn"]
    assert [d.code for d in lint_text(table, "table.rules")] == []
