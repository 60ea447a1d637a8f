"""A sample keeps the locals a running procedure derived from the hidden components it
permutes (interpreter/state/derived.py): a procedure that computed, from a hand another
seat cannot see, which options to offer (``let playable = ...``), offers in every sample
only what the hand there allows, so that no sample reaches a choice without options (E604)
that the true game never reaches.
"""
from __future__ import annotations

import random

from test_infostate_history import check_sample, load, played

import rulelang
from rulelang import State
from rulelang.interpreter.state.infostate import Sampler

# One good card among eight; each seat holds two, and may play a good one if it holds one.
DERIVED_OPTIONS = """
game "Good card" { players 2 }
component card { good: bool }
deck cards: card in pile = [card(good: k == 1) for k in 1..8]
zone pile: card visible count
zone played: card visible all
player zone hand: card visible owner
setup {
  shuffle pile
  for p in players { move top(pile, 2) to p.hand }
}
phase play {
  let p = players[0]
  let playable = [c for c in p.hand if c.good]
  let offered = (if size(playable) > 0 then ["play"] else []) + ["pass"]
  choose what in offered by p
  if what == "play" {
    choose c in [c for c in p.hand if c.good] by p
    move c to played
  }
  end game
}
"""


def _holding_the_good_card() -> State:
    """A game where seat 0 holds the good card and is asked to play or pass."""
    game = rulelang.load(DERIVED_OPTIONS)
    for seed in range(50):
        state = game.new_initial_state(seed=seed)
        if [a.label for a in state.legal_actions(0)] == ["play", "pass"]:
            return state
    raise AssertionError("no seed deals the good card to seat 0")


def test_a_sample_offers_only_what_the_sampled_hand_allows() -> None:
    """Seat 1 does not see seat 0's hand: samples draw it again from the eight cards, but seat
    0 was offered "play" (its hand holds the good card), so every sample keeps the good card
    in its hand and playing it is possible; without the check some samples moved it away and
    "play" then offered no card (E604)."""
    state = _holding_the_good_card()
    samples = [state.resample_from_infostate(1, seed) for seed in range(30)]
    for sample in samples + [Sampler(state, 1).sample(seed) for seed in range(30)]:
        play = [a.id for a in sample.legal_actions(0) if a.label == "play"]
        assert play, "seat 0 is still offered to play"
        sample.apply_action(play[0], player=0)
        assert sample.legal_actions(0), "the good card is in seat 0's hand"


def test_a_sample_still_draws_the_hidden_cards_again() -> None:
    """The check narrows the permutations, it does not stop them: seat 0's other card, and
    the pile, still differ from one sample to another."""
    state = _holding_the_good_card()
    arrangements = {tuple(tuple(c.id for c in zone) for zone in state.resample_from_infostate(1, seed).zones)
                    for seed in range(30)}
    assert len(arrangements) > 1


def test_tobago_sample_during_a_drive_keeps_the_playable_clue() -> None:
    """The example Hypothesis found (seed 345, 120 actions, viewer 0, sample seed 1): seat 3
    is between two legs of a drive and was offered "amulet: play a clue" (its hand holds a
    clue it may play); the sample once drew a hand without one, and choosing that use then
    stopped at "the clue card to play" with no option (E604 at its `choose` in play_clue)."""
    state = played(load("tobago", 4), 345, round(300 * 0.399))
    truth = state.to_json()
    chooser = random.Random(1)
    check_sample(state.resample_from_infostate(0, 1), state, 0, chooser)
    check_sample(Sampler(state, 0).sample(1), state, 0, chooser)
    assert state.to_json() == truth


def test_tobago_true_state_of_that_example_plays_on_without_error() -> None:
    """The true state of that example never reaches the empty choice: the ruleset is right,
    only the sample was a state no game reaches."""
    state = played(load("tobago", 4), 345, 120)
    for seed in range(10):
        game, chooser = state.clone(), random.Random(seed)
        while not game.is_terminal():
            seat = chooser.choice(game.current_players())
            game.apply_action(chooser.choice(game.legal_action_ids(seat)), player=seat)


# The 'let' that alone binds 'playable', whose name a comprehension's variable also takes.
SHARED_NAME = DERIVED_OPTIONS.replace('''  let offered = (if size(playable) > 0 then ["play"] else []) + ["pass"]
  choose what in offered by p
  if what == "play" {
    choose c in [c for c in p.hand if c.good] by p
    move c to played
  }''', '''  choose what in ["play", "pass"] by p
  if what == "play" { for c in [playable for playable in playable] { move c to played } }''')


def test_a_let_whose_name_a_comprehension_takes_is_still_derived() -> None:
    """A comprehension's variable is its own (rulelang.check.tree.bound_by_one): the 'let'
    of 'playable' is still the one statement that binds that local, so a sample keeps it
    derived, and every sample keeps the good card in seat 0's hand, where seat 0's options
    (play or pass) tell nothing of it."""
    assert SHARED_NAME != DERIVED_OPTIONS
    game = rulelang.load(SHARED_NAME)
    state = next(s for s in map(lambda seed: game.new_initial_state(seed=seed), range(50))
                 if 0 in s.to_json()["zones"]["hand/0"])   # (card 0 is the good one)
    for seed in range(30):
        assert 0 in Sampler(state, 1).sample(seed).to_json()["zones"]["hand/0"]
