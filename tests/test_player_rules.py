"""A rule computed per player (score, tiebreak) runs as one generated function of the players it
is asked for (interpreter/compiler/player_rules.py): the same values as the rule evaluated for
each player alone, the same E602 for a value that is not a number (the players after it not
computed), the same error of the rules located at the rule."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import generated_functions as code
from conftest import load_written

import rulelang

GAME = '''\
    game "G" { players 3 }
    player var points: int = 0
    var bonus: int = 4
    phase main {
      for p in players {
        p.points = p.index * 2
      }
      end game
    }
    score p = SCORE
    tiebreak p = if p.index == 1 then 0 else -p.points
'''


def load(tmp_path: Path, score: str) -> rulelang.Game:
    return load_written(tmp_path, GAME.replace("SCORE", score), players=3)


def one_by_one(state: rulelang.State) -> list[float]:
    """The score of each player evaluated alone, as the rule's expression computes it."""
    score = state.game.program.score
    return [float(state.evaluate(score.value, {score.variable: p}, score.span)) for p in state.game.catalog.players]


@pytest.mark.parametrize("score", ["p.points + bonus", "if p.points > 1 then -1 else 7",
                                   "if any(q.points > p.points for q in players) then 0 else 1", "p.index > 0"])
def test_the_scores_of_all_players_in_one_call_are_those_of_each_alone(tmp_path, score):
    game = load(tmp_path, score)
    assert "of each player" in code(game)
    state = game.new_initial_state()
    assert state.is_terminal() and state.returns() == one_by_one(state)
    assert state.winners() == [i for i, s in enumerate(state.returns()) if s == max(state.returns())][:1] \
        or len(state.winners()) > 1


def test_a_proven_integer_is_negated_in_place(tmp_path):
    listing = code(load(tmp_path, "-p.points"))
    assert "(-_t" in listing or "(-(" in listing
    assert "_negated(" not in listing.split("of each player")[1].split("\ndef ")[0]


def test_a_value_that_is_not_a_number_is_e602_and_the_players_after_it_are_not_computed(tmp_path):
    # player 1 gives a string; player 2 would fail (an index past the list): E602 for player 1
    game = load(tmp_path, 'if p.index == 1 then "x" else [1, 2][p.index]')
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        game.new_initial_state().returns()
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E602" and "gives string, not a number" in diagnostic.message
    assert diagnostic.span.line == 10


def test_an_error_of_the_rules_is_located_at_the_rule(tmp_path):
    game = load(tmp_path, "[1, 2][p.index]")
    with pytest.raises(rulelang.RulesRuntimeError) as caught:
        game.new_initial_state().returns()
    diagnostic = caught.value.diagnostic
    assert diagnostic.span.line == 10 and "out of range" in diagnostic.message
