"""What a host reads of a ruleset before playing it (interpreter/hosts/game_facts.py), and the
header's score promises (score_sum, score_range) that it reads."""
from __future__ import annotations

import random

import pytest
from conftest import game_cases

import rulelang
from rulelang.errors import RulesetError
from rulelang.interpreter.hosts.game_facts import facts
from rulelang.interpreter.model.values import CHANCE

HEADER = 'game "G" {{ players 2..3  max_decisions 20 {settings} }}\n'
ONE_CHOICE = 'phase p {\n  choose n in 1..2 by players[0]\n  players[0].v = n\n}\n'


def _game(body: str, settings: str = "", players: int = 2):
    return rulelang.load(HEADER.format(settings=settings) + "player var v: int = 0\n" + body, players=players)


def test_nothing_hidden_and_nothing_drawn_is_perfect_information_without_chance():
    known = facts(_game(ONE_CHOICE + "score p = if p.v == 2 then 1 else -1\n"))
    assert known.perfect_information and not known.chance
    assert known.score_range == (-1.0, 1.0) and known.score_sum is None


@pytest.mark.parametrize(("text", "reason"), [
    ("player zone hand: int visible owner\n" + ONE_CHOICE, "zone hand is visible owner"),
    ("var secret: int = 0 visible none\n" + ONE_CHOICE, "var secret is visible none"),
    ("supply gold total 5 visible owner\n" + ONE_CHOICE, "supply gold is visible owner"),
    ("phase p {\n  simultaneous q in players choose n in 1..2\n}\n", "a simultaneous choice"),
    ("phase p {\n  log \"psst\" to players[0]\n}\n", "a log line for some players only"),
    ("phase p {\n  let n = random [1, 2]\n  players[0].v = n\n}\n", "a random pick"),
])
def test_each_thing_that_hides_information_is_named(text, reason):
    known = facts(_game(text))
    assert not known.perfect_information
    assert any(r.startswith(reason) for r in known.hidden), known.hidden


def test_a_shuffle_a_roll_or_a_random_pick_is_chance():
    assert facts(_game("zone pile: int\nphase p {\n  shuffle pile\n}\n")).chance
    assert facts(_game("die d = [1, 2]\nphase p {\n  let x = roll d\n  players[0].v = x\n}\n")).chance
    assert not facts(_game(ONE_CHOICE)).chance


def test_score_ranges_computed_from_the_text():
    supply = "supply gold total 7\n" + ONE_CHOICE
    assert facts(_game(supply + "score p = p.gold\n")).score_range == (0.0, 7.0)
    assert facts(_game(supply + "score p = 2 * p.gold - sum(q.gold for q in players)\n",
                       players=3)).score_range == (-21.0, 14.0)
    assert facts(_game(ONE_CHOICE + "score p = p.v\n")).score_range is None      # an int var: unknown
    unscored = facts(_game(ONE_CHOICE))
    assert unscored.score_range == (0.0, 0.0) and unscored.score_sum == 0.0     # every score is 0
    assert facts(_game(ONE_CHOICE + "score p = 3\n", players=3)).score_sum == 9.0


def test_declared_score_sum_and_range_are_read_and_narrow_the_computed_one():
    known = facts(_game(ONE_CHOICE + "score p = p.v\n", settings="score_sum 3  score_range -1..4"))
    assert known.score_sum == 3.0 and known.score_range == (-1.0, 4.0)
    narrowed = facts(_game(ONE_CHOICE + "score p = if p.v == 1 then 5 else -5\n", settings="score_range -9..2"))
    assert narrowed.score_range == (-5.0, 2.0)


@pytest.mark.parametrize("setting", ["score_sum x", "score_range 3..1", "score_range 0", "score_sum 1..2"])
def test_a_malformed_score_setting_is_e202(setting):
    with pytest.raises(RulesetError) as caught:
        _game(ONE_CHOICE, settings=setting)
    assert [d.code for d in caught.value.diagnostics] == ["E202"]
    assert setting.split()[0] in caught.value.diagnostics[0].message


@pytest.mark.parametrize(("path", "players"), game_cases())
def test_every_seed_games_known_scores_hold_in_random_games(path, players):
    game = rulelang.load(str(path), players=players)
    known = facts(game)
    chooser = random.Random(3)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = chooser.choice(state.current_players())
            assert player != CHANCE
            state.apply_action(chooser.choice(state.legal_action_ids(player)), player=player)
        returns = state.returns()
        if known.score_range is not None:
            assert all(known.score_range[0] <= r <= known.score_range[1] for r in returns)
        if known.score_sum is not None:
            assert sum(returns) == known.score_sum


CARDS = ('component card { value: int }\ncomponent chip { colour: int }\nplayer zone hand: card visible all\n'
         'zone pile: component\nplayer deck cards: card in hand = [card(value: v) for v in [-2, 3, 4]]\n'
         'deck chips: chip in pile = [chip(colour: 1)]\n' + ONE_CHOICE)


def test_a_sum_over_components_lies_between_the_sums_of_their_negative_and_positive_values():
    # two players, each with a card of -2, 3 and 4: from -4 to 14 in all (the chip has no value)
    assert facts(_game(CARDS + "score p = sum(c.value for c in p.hand)\n")).score_range == (-4.0, 14.0)
    # a branch that reads a field some component lacks bounds nothing
    assert facts(_game(CARDS + "score p = sum(if c == c then c.value else 9 for c in p.hand)\n")).score_range is None
