"""Information-set sampling: ``State.resample_from_infostate(player, seed)``.

A sample must look the same to the viewer (observation, legal actions with their labels),
leave the original alone, keep the ruleset's invariants, play on to the end, and draw the
hidden part again: different seeds give different hidden components where there are any,
a card the viewer saw go into a hidden hand stays there, and Kuhn poker's hidden card is
uniform over the cards the viewer does not hold.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import play_randomly

import rulelang
from rulelang import Game, IllegalActionError, State

GAMES = Path(__file__).resolve().parent.parent / "games"

RULESETS = [("jamaica", 3), ("jamaica_2p", 2), ("jolly_roger", 4), ("asterix", 4), ("tobago", 4),
            ("kuhn_poker", 2), ("tic_tac_toe", 2)]
HIDDEN = {"jamaica", "jamaica_2p", "jolly_roger", "asterix", "tobago", "kuhn_poker"}
# Where to stop in each game (every so many actions), and how many games.
STRIDE = {"tobago": 120, "asterix": 90, "jamaica": 40, "jamaica_2p": 40, "jolly_roger": 20}


def load(name: str, players: int) -> Game:
    return rulelang.load(GAMES / f"{name}.rules", players=players)


def labelled(state: State, player: int) -> list[tuple[int, str]]:
    return [(a.id, a.label) for a in state.legal_actions(player)]


def stops(game: Game, seed: int, stride: int) -> Iterator[State]:
    """The states of one random game every ``stride`` actions (the state itself: the caller
    must not change it), its end included."""
    state = game.new_initial_state(seed=seed)
    chooser = random.Random(seed)
    count = 0
    while not state.is_terminal():
        if count % stride == 1 or count == 0:
            yield state
        play_randomly(state, chooser, 1)
        count += 1
    yield state


def hidden_part(data: dict[str, Any]) -> object:
    """What a sample draws again, from the state's JSON: the zones, the locals."""
    return data["zones"], [frame["env"] for frame in data["frames"]]


@pytest.mark.parametrize(("name", "players"), RULESETS, ids=[name for name, _ in RULESETS])
def test_a_sample_looks_the_same_to_the_viewer_and_plays_on(name: str, players: int) -> None:
    game = load(name, players)
    samples = differ = 0
    for seed in range(2):
        for state in stops(game, seed, STRIDE.get(name, 2)):
            truth = state.to_json()
            for player in state.current_players() or [0]:
                view, actions = state.observation(player), labelled(state, player)
                sample = state.resample_from_infostate(player, seed=samples)
                assert state.to_json() == truth, "the original changed"
                assert sample.observation(player) == view
                assert labelled(sample, player) == actions
                assert sample.check_invariants() == []
                assert sample.current_players() == state.current_players()
                samples += 1
                differ += hidden_part(sample.to_json()) != hidden_part(truth)
                if samples % 3 == 0:
                    play_randomly(sample, random.Random(samples))
                    assert sample.is_terminal()
    assert samples >= 4
    if name in HIDDEN:
        assert differ > 0, "no sample drew the hidden part again"
    else:
        assert differ == 0


def test_different_seeds_draw_different_hidden_parts() -> None:
    game = load("jolly_roger", 4)
    state = game.new_initial_state(seed=5)
    play_randomly(state, random.Random(5), 10)
    player = state.current_players()[0]
    drawn = {repr(hidden_part(state.resample_from_infostate(player, seed).to_json())) for seed in range(6)}
    assert len(drawn) > 1
    again = state.resample_from_infostate(player, 3).to_json()
    assert again == state.resample_from_infostate(player, 3).to_json(), "one seed, one sample"


def test_kuhn_poker_keeps_the_viewers_card_and_draws_the_other_uniformly() -> None:
    game = load("kuhn_poker", 2)
    counts: Counter[str] = Counter()
    runs = 0
    for deal in range(3):
        state = game.new_initial_state(seed=deal)
        mine = state.observation(0)["players"][0]["hand"][0]["label"]
        theirs = state.to_json()["zones"]["hand/1"]
        for seed in range(150):
            sample = state.resample_from_infostate(0, seed)
            data = sample.to_json()
            assert sample.observation(0)["players"][0]["hand"][0]["label"] == mine
            other = sample.zones[game.catalog.zone_slot["hand"] + 1][0].label
            assert other != mine
            counts[f"{mine}/{other}"] += 1
            runs += 1
            assert sorted(data["zones"]["hand/1"] + data["zones"]["deck"]) == sorted(
                theirs + state.to_json()["zones"]["deck"])
    for mine in {key.split("/")[0] for key in counts}:
        seen = {key: n for key, n in counts.items() if key.startswith(mine + "/")}
        assert len(seen) == 2, seen
        total = sum(seen.values())
        assert all(0.35 * total <= n <= 0.65 * total for n in seen.values()), seen


SEEN_INTO_HAND = """
game "Market" { players 2 }
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..9]
zone pile: card visible count
zone market: card visible all
player zone hand: card visible owner
setup {
  shuffle pile
  for p in players { move top(pile, 2) to p.hand }
  move top(pile) to market
}
phase play {
  let taker = players[1]
  move top(market) to taker.hand       # everyone sees the card leave the market
  choose c in players[0].hand by players[0]
  move c to pile
  shuffle pile
  choose d in taker.hand by taker
  end game
}
"""


def test_a_card_seen_going_into_a_hidden_hand_stays_there() -> None:
    game = rulelang.load(SEEN_INTO_HAND)
    state = game.new_initial_state(seed=4)
    taken = state.zones[game.catalog.zone_slot["market"]]
    assert taken == []
    hand = game.catalog.zone_slot["hand"] + 1
    market_card = state.zones[hand][-1]  # the last to arrive: the market card
    others = set()
    for seed in range(40):
        sample = state.resample_from_infostate(0, seed)
        assert market_card in sample.zones[hand]
        others.add(tuple(c.label for c in sample.zones[hand] if c is not market_card))
    assert len(others) > 3, "the taker's other cards are drawn again"
    state.apply_action(state.legal_actions(0)[0])  # a card back into the pile, shuffled
    for seed in range(20):
        sample = state.resample_from_infostate(0, seed)
        assert market_card in sample.zones[hand]
        assert labelled(sample, 1) != [] and sample.current_players() == [1]
        sample.apply_action(sample.legal_actions(1)[0])
        assert sample.is_terminal()


REVEALED = """
game "Glance" { players 2 }
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..6]
zone pile: card visible none
player zone hand: card visible owner
setup {
  shuffle pile
  for p in players { move top(pile, 2) to p.hand }
}
phase play {
  reveal top(players[1].hand) to players[0]
  choose n in 0..1 by players[0]
  end game
}
"""


def test_a_revealed_card_stays_where_it_is() -> None:
    game = rulelang.load(REVEALED)
    state = game.new_initial_state(seed=2)
    hand = game.catalog.zone_slot["hand"] + 1
    shown, hidden = state.zones[hand][-1], state.zones[hand][0]
    moved = False
    for seed in range(30):
        sample = state.resample_from_infostate(0, seed)
        assert sample.zones[hand][-1] is shown
        moved = moved or sample.zones[hand][0] is not hidden
        assert sample.observation(0) == state.observation(0)
    assert moved
    # The reveal was for player 1 alone: player 2 knows nothing of player 1's hand.
    first = game.catalog.zone_slot["hand"]
    assert any(state.resample_from_infostate(1, seed).zones[first] != state.zones[first] for seed in range(10))


def test_hidden_locals_and_the_history_are_relabelled() -> None:
    """A simultaneous pick already made by the opponent names a card of his hand: in a sample
    it names the card that now lies where that one lay, and the sample plays on."""
    game = load("jamaica", 3)
    state = game.new_initial_state(seed=1)
    chooser = random.Random(1)
    while state.current_players() != [0, 1, 2]:
        play_randomly(state, chooser, 1)
    state.apply_action(state.legal_actions(1)[0], player=1)  # seat 1 picks in secret
    assert state.current_players() == [0, 2]
    hand = game.catalog.zone_slot["hand"] + 1
    named = set()
    for seed in range(10):
        sample = state.resample_from_infostate(0, seed)
        picks = [v for frame in sample.frames for k, v in frame.env.items() if k.startswith("$picks")]
        assert picks, "the pick made is kept"
        (picked,) = picks[0].values()
        assert picked in sample.zones[hand]
        named.add(picked)
        for player in (0, 2):
            sample.apply_action(sample.legal_actions(player)[0], player=player)
        assert sample.history()[-3][0] == 1 and sample.history()[-3][1] == game.catalog.encode(picked)
    assert len(named) > 1, "the pick names the card now in its place"


def test_a_loaded_state_samples_what_the_viewer_sees_now() -> None:
    game = load("jamaica", 3)
    state = game.new_initial_state(seed=3)
    play_randomly(state, random.Random(3), 12)
    loaded = game.state_from_json(state.to_json())
    for player in range(3):
        sample = loaded.resample_from_infostate(player, 1)
        assert sample.observation(player) == loaded.observation(player)
        assert sample.check_invariants() == []
        play_randomly(sample, random.Random(1), 30)


def test_a_finished_game_samples_too() -> None:
    game = load("kuhn_poker", 2)
    state = game.new_initial_state(seed=1)
    play_randomly(state, random.Random(1))
    sample = state.resample_from_infostate(1, 7)
    assert sample.is_terminal() and sample.observation(1) == state.observation(1)


def test_a_sample_with_explicit_chance_and_events() -> None:
    game = load("kuhn_poker", 2)
    state = game.new_initial_state(seed=0, explicit_chance=True, events=True)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    cards = {tuple(state.resample_from_infostate(1, seed).zones[0]) for seed in range(20)}
    assert len(cards) == 2, "the deck's card is one of the two player 2 does not hold"
    sample = state.resample_from_infostate(1, 3)
    assert sample.observation(1) == state.observation(1)
    assert sample.events(1) == state.events(1), "the past as the viewer saw it"
    assert len(sample.events()) == len(state.events())
    assert sample.events() != state.events(), "what he did not see is not in the sample's log"
    assert len(sample.history()) == len(state.history())
    play_randomly(sample, random.Random(0))
    assert sample.is_terminal()


@pytest.mark.parametrize("player", [2, -1, -2, True, "0", None, 1.0])
def test_a_bad_player_is_an_illegal_call(player: Any) -> None:
    state = load("kuhn_poker", 2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.resample_from_infostate(player, 0)


@pytest.mark.parametrize("seed", ["1", 1.5, None, True])
def test_a_bad_seed_is_an_illegal_call(seed: Any) -> None:
    state = load("kuhn_poker", 2).new_initial_state()
    with pytest.raises(IllegalActionError):
        state.resample_from_infostate(0, seed)


def test_a_sample_keeps_its_own_past_on_a_failed_action() -> None:
    """A failed action puts the sample back as it was (not the true state)."""
    game = rulelang.load("""
game "Fail" { players 2 }
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 0..5]
zone pile: card visible none
player zone hand: card visible owner
var total: int = 0
setup { shuffle pile  for p in players { move top(pile) to p.hand } }
phase play {
  choose k in 0..1 by players[0]
  total = 10 / (k + top(players[1].hand).n - top(players[1].hand).n)
  end game
}
""")
    state = game.new_initial_state(seed=1)
    sample = state.resample_from_infostate(0, 5)
    before = sample.to_json()
    with pytest.raises(rulelang.RulesRuntimeError):
        sample.apply_action(sample.legal_actions(0)[0])
    assert sample.to_json() == before


FILTERED = """
game "Odds" { players 2 }
component card { n: int } shown as "#{n}"
deck cards: card in pile = [card(n: k) for k in 1..10]
zone pile: card visible none
player zone hand: card visible owner
setup {
  shuffle pile
  move [c for c in pile if c.n % 2 == 1] to players[1].hand   # a hidden choice by a field
}
phase play {
  choose n in 0..1 by players[0]
  end game
}
invariant "player 2 holds the odd cards" = all(c.n % 2 == 1 for c in players[1].hand)
"""


def test_a_permutation_the_rules_rule_out_is_drawn_again_or_narrowed() -> None:
    """The odd cards went to player 2's hand by a filter: a permutation that would put an
    even card there breaks the invariant, so the sampler narrows to each zone on its own."""
    game = rulelang.load(FILTERED)
    state = game.new_initial_state(seed=1)
    hand = game.catalog.zone_slot["hand"] + 1
    orders = set()
    for seed in range(15):
        sample = state.resample_from_infostate(0, seed)
        assert sample.check_invariants() == []
        assert sample.observation(0) == state.observation(0)
        assert sorted(c.fields["n"] for c in sample.zones[hand]) == [1, 3, 5, 7, 9]
        orders.add(tuple(c.fields["n"] for c in sample.zones[hand]))
    assert len(orders) > 1, "the order within the hand is still drawn again"


@pytest.mark.parametrize(("name", "players"), [("jamaica", 3), ("jolly_roger", 4), ("tobago", 4)])
def test_the_quick_check_of_a_view_agrees_with_the_observations(name: str, players: int) -> None:
    # Fit.looks_the_same answers at once when every table an observation is made of is alike:
    # it must answer as comparing the observations and labelled actions would, either way.
    from rulelang.interpreter.state.infostate import Fit, Sampler
    game = load(name, players)
    states = [s.clone() for s in stops(game, 2, STRIDE.get(name, 30))][:6]
    for state, later in pairwise(states):
        if state.is_terminal():
            continue
        player = state.current_players()[0]
        fit = Fit(player, state, state)
        sampler = Sampler(state, player)
        for candidate in [sampler.sample(seed) for seed in range(3)] + [later, state.clone()]:
            same = (candidate.observation(player) == state.observation(player)
                    and labelled(candidate, player) == labelled(state, player))
            assert fit.looks_the_same(candidate) == same


def test_blind_invariants_are_those_a_permutation_cannot_change() -> None:
    # A permutation of hidden components keeps the tokens, the plain variables and the
    # sizes of the zones: an invariant that reads only those (and the decks) is not computed
    # on a sample; one that reads what a zone holds, or a variable that may hold a
    # component, is.
    from rulelang.interpreter.state.unmoved import blind_invariants
    game = load("jamaica", 3)
    blind = dict(zip((rule.label for rule in game.program.invariants), blind_invariants(game.catalog), strict=True))
    assert blind["80 doubloons"] and blind["66 action cards, 11 per colour"] and blind["a hand holds at most 4 cards"]
    assert not blind["a player has his own colour's 11 cards"]           # list(p.draw): what a zone holds
    assert not blind["players hold riches and curses face down"]         # for c in p.face_down
    assert not blind["face-up treasures are powers"]


@pytest.mark.parametrize(("name", "players"), [("jamaica", 3), ("jolly_roger", 4), ("asterix", 4), ("tobago", 4)])
def test_a_blind_invariant_has_the_same_value_in_every_sample(name: str, players: int) -> None:
    from rulelang.interpreter.state.unmoved import blind_invariants
    game = load(name, players)
    blind = [rule for rule, b in zip(game.program.invariants, blind_invariants(game.catalog), strict=True) if b]
    assert blind
    for state in list(stops(game, 4, STRIDE.get(name, 30)))[:5]:
        if state.is_terminal():
            continue
        player = state.current_players()[0]
        for seed in range(3):
            sample = state.resample_from_infostate(player, seed)
            for rule in blind:
                assert bool(sample.evaluate(rule.condition, {}, rule.span)) == bool(
                    state.evaluate(rule.condition, {}, rule.span)), rule.label


def test_a_sample_shows_the_viewers_private_lines_as_text_when_others_were_read_before() -> None:
    # the second player's line is read (built) before the first player's is written: the
    # sample keeps only the first player's line, which must still be built when read
    game = rulelang.load('game "notes" { players 2 }\nvar n: int = 3\n'
                         'phase main {\n  log "to the second " + n to players[1]\n'
                         '  choose a in 0..1 by players[0]\n  log "to the first " + n to players[0]\n'
                         '  choose b in 0..1 by players[0]\n  end game\n}\n')
    state = game.new_initial_state(seed=1)
    assert state.observation(1)["log"] == ["to the second 3"]
    state.apply_action(state.legal_actions(0)[0], player=0)
    sample = state.resample_from_infostate(0, seed=2)
    assert [type(line) for line in sample.observation(0)["log"]] == [str]
    assert sample.observation(0) == state.observation(0)
