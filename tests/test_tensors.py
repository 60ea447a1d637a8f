"""Tensors and action masks (interpreter/state/tensors.py, action_ids.py): a fixed action space per game, legal
action masks, observation and information-state tensors that show only what the viewer may
see, for every ruleset in games/."""
from __future__ import annotations

import random
import re

import pytest
from conftest import GAMES_DIR, ROOT, game_cases, rules

import rulelang
from rulelang.interpreter.model.values import CHANCE
from rulelang.interpreter.state import tensors


def _playout(game, seed: int, limit: int):
    """The states of one random game with explicit chance (at most ``limit`` of them)."""
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    chooser = random.Random(seed)
    yield state
    for _ in range(limit):
        if state.is_terminal():
            return
        player = state.current_players()[0]
        if player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chooser.choices(outcomes, weights)[0])
        else:
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        yield state


def _block(game, state, player, name):
    """The floats of one named block of ``player``'s observation tensor."""
    [block] = [b for b in tensors.layout(game).blocks if b.name == name]
    return tensors.observation_tensor(state, player)[block.offset:block.offset + block.size]


# ---------------------------------------------------------------- every ruleset

@pytest.mark.parametrize(("path", "players"), game_cases())
def test_masks_match_the_legal_actions_and_shapes_stay_constant(path, players):
    game = rulelang.load(path, players=players)
    size = game.num_distinct_actions()
    [observed] = tensors.observation_shape(game)
    [informed] = tensors.information_state_shape(game)
    for step, state in enumerate(_playout(game, seed=players, limit=400)):
        for player in state.current_players():
            mask = state.legal_action_mask(player)
            assert len(mask) == size
            assert [i for i, bit in enumerate(mask) if bit] == sorted(state.legal_action_ids(player))
        if step % 25 == 0 or state.is_terminal():
            for viewer in [*range(players), CHANCE]:
                assert len(state.observation_tensor(viewer)) == observed
            assert len(tensors.information_state_tensor(state, step % players)) == informed
    idle = [p for p in range(players) if p not in state.current_players()]   # the last state's
    assert all(state.legal_action_mask(p) == [0] * size for p in idle)


@pytest.mark.parametrize(("path", "players"), game_cases())
def test_a_tensor_is_the_same_in_every_state_the_viewer_cannot_tell_apart(path, players):
    game = rulelang.load(path, players=players)
    states = [s.clone() for step, s in enumerate(_playout(game, seed=7, limit=240)) if step in (3, 60, 240)]
    for state in states:
        for viewer in range(players):
            sample = state.resample_from_infostate(viewer, seed=11)
            assert sample.observation_tensor(viewer) == state.observation_tensor(viewer)


@pytest.mark.parametrize(("path", "players"), game_cases())
def test_an_information_state_tensor_is_the_same_in_a_resampled_state(path, players):
    # early in a game: later, a card a player chose may go back into a hidden pile, and the
    # sampler then relabels his own past action (see the report of issue 14)
    game = rulelang.load(path, players=players)
    state = next(s for step, s in enumerate(_playout(game, seed=5, limit=20)) if step == 20 or s.is_terminal())
    for viewer in range(players):
        sample = state.resample_from_infostate(viewer, seed=3)
        assert (tensors.information_state_tensor(sample, viewer)
                == tensors.information_state_tensor(state, viewer))


# ---------------------------------------------------------------- the action space

def test_the_action_space_of_tic_tac_toe_has_no_numbers():
    game = rulelang.load(GAMES_DIR / "tic_tac_toe.rules")
    space = tensors.action_space(game)
    assert (space.number_base, space.max_number, space.size) == (14, -1, 14)
    state = game.new_initial_state()
    assert state.legal_action_mask() == [1] * 9 + [0] * 5
    state.apply_action(4)
    assert state.legal_action_mask(1)[4] == 0 and state.legal_action_mask(0) == [0] * 14


COUNTING = """
game "Counting" { players 2 }
var top: int = 3
player var said: int = 0
phase play {
  choose n in 0..3 by players[0]
  players[0].said = n
  choose m in 2..top by players[1]
  players[1].said = m
}
score p = p.said
"""


def test_a_constant_range_bounds_the_numbers_and_a_computed_one_takes_the_default():
    constant = rulelang.load(rules(COUNTING.replace("2..top", "2..5")))
    assert tensors.action_space(constant).max_number == 5
    assert constant.num_distinct_actions() == tensors.action_space(constant).number_base + 6
    computed = rulelang.load(rules(COUNTING))
    space = tensors.action_space(computed)
    assert (space.max_number, space.bounded) == (tensors.DEFAULT_MAX_NUMBER, False)
    assert computed.num_distinct_actions(max_number=7) == space.number_base + 8
    state = computed.new_initial_state()
    assert [i - space.number_base for i, bit in enumerate(state.legal_action_mask()) if bit] == [0, 1, 2, 3]


def test_a_number_beyond_the_action_space_is_a_clear_error():
    game = rulelang.load(rules(COUNTING.replace("var top: int = 3", "var top: int = 150")))
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(rulelang.IllegalActionError, match=r"the number 101 .* pass a larger max_number"):
        state.legal_action_mask()
    mask = state.legal_action_mask(max_number=150)
    assert sum(mask) == 149 and mask[-1] == 1


def test_a_bad_max_number_is_refused():
    game = rulelang.load(rules(COUNTING.replace("2..top", "2..5")))
    for bad in (-1, 2.5, True, "9"):
        with pytest.raises(rulelang.IllegalActionError, match="max_number must be a whole number"):
            game.num_distinct_actions(max_number=bad)
    with pytest.raises(rulelang.IllegalActionError, match="max_number 4 is below 5"):
        game.num_distinct_actions(max_number=4)


def test_dice_faces_bound_the_chance_outcomes():
    game = rulelang.load(rules("""
        game "Die" { players 1 }
        die d = [1, 2, 12]
        player var total: int = 0
        phase p {
          let a = roll d
          players[0].total = a
        }
        score p = p.total
    """))
    assert tensors.action_space(game).max_number == 12
    state = game.new_initial_state(explicit_chance=True)
    base = tensors.action_space(game).number_base
    assert [i - base for i, bit in enumerate(state.legal_action_mask(CHANCE)) if bit] == [1, 2, 12]


# ---------------------------------------------------------------- what a tensor shows

def _hands(state):
    zones = state.to_json()["zones"]
    return zones["hand/0"], zones["hand/1"]


def test_kuhn_poker_hides_the_other_hand_and_shows_its_size():
    game = rulelang.load(GAMES_DIR / "kuhn_poker.rules", players=2)
    deals = [game.new_initial_state(seed=seed) for seed in range(20)]
    one = deals[0]
    other = next(s for s in deals if _hands(s)[0] == _hands(one)[0] and _hands(s)[1] != _hands(one)[1])
    assert one.observation_tensor(0) == other.observation_tensor(0)   # seat 1's card: not seen
    assert one.observation_tensor(1) != other.observation_tensor(1)   # but seat 1 sees it
    assert _block(game, one, 0, "zone hand/1") == [1.0, 0.0, 0.0, 0.0]   # its size only
    assert sum(_block(game, one, 0, "zone hand/0")[1:]) == 1.0           # its own card, by kind
    assert _block(game, one, 0, "zone deck") == [0.0] * 4                # visible none


def test_tic_tac_toe_shows_marks_turn_viewer_and_decision():
    game = rulelang.load(GAMES_DIR / "tic_tac_toe.rules")
    state = game.new_initial_state()
    state.apply_action(4)                                   # b2 for the first player
    marks = _block(game, state, 0, "space mark")
    assert marks[4 * 2:4 * 2 + 2] == [1.0, 0.0] and sum(marks) == 1.0
    assert _block(game, state, 0, "viewer") == [1.0, 0.0]
    assert _block(game, state, 0, "to act") == [0.0, 1.0, 0.0, 0.0]    # seat 1, not chance, not over
    assert _block(game, state, 1, "decision") == [1.0, 0.0, 0.0, 0.0, 0.0]   # a choice, for seat 1
    assert _block(game, state, 0, "decision") == [0.0] * 5                    # seat 0 is not asked
    assert tensors.observation_shape(game) == (33,)


def test_a_simultaneous_choice_shows_who_has_chosen_but_not_what():
    game = rulelang.load(rules("""
        game "Odds" { players 2 }
        player var points: int = 0
        phase play {
          simultaneous p in players choose fingers in 1..2
          players[0].points = fingers[players[0]] + fingers[players[1]]
        }
        score p = p.points
    """))
    one, two = game.new_initial_state(), game.new_initial_state()
    one.apply_action(one.legal_actions(1)[0], player=1)
    two.apply_action(two.legal_actions(1)[1], player=1)
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert _block(game, one, 0, "already chosen") == [0.0, 1.0]
    assert _block(game, one, 0, "decision") == [0.0, 0.0, 0.0, 1.0, 0.0]   # simultaneous
    assert tensors.information_state_tensor(one, 1) != tensors.information_state_tensor(two, 1)


def test_the_information_state_adds_own_action_counts_and_the_last_actions():
    game = rulelang.load(GAMES_DIR / "tic_tac_toe.rules")
    state = game.new_initial_state()
    for action_id in (4, 0, 8):
        state.apply_action(action_id)
    [observed] = tensors.observation_shape(game)
    size = game.num_distinct_actions()
    tensor = tensors.information_state_tensor(state, 0, history=2)
    assert len(tensor) == observed + size * 3 == tensors.information_state_shape(game, history=2)[0]
    counts, latest, before = (tensor[observed + size * k:observed + size * (k + 1)] for k in range(3))
    assert [i for i, c in enumerate(counts) if c] == [4, 8]
    assert latest.index(1.0) == 8 and before.index(1.0) == 4
    assert len(tensors.information_state_tensor(state, 1, history=0)) == observed + size


def test_bad_viewers_and_options_are_clear_errors():
    game = rulelang.load(GAMES_DIR / "tic_tac_toe.rules")
    state = game.new_initial_state()
    for bad in (2, -2, True, "0", None):
        with pytest.raises(rulelang.IllegalActionError, match="no player"):
            state.observation_tensor(bad)
    with pytest.raises(rulelang.IllegalActionError, match="chance has no information state"):
        tensors.information_state_tensor(state, CHANCE)
    with pytest.raises(rulelang.IllegalActionError, match="history must be a whole number"):
        tensors.information_state_tensor(state, 0, history=-1)
    with pytest.raises(rulelang.IllegalActionError, match="no player"):
        state.legal_action_mask(7)


# ---------------------------------------------------------------- the documented table

def test_the_table_in_embedding_md_gives_each_seed_games_shapes():
    text = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)\.rules` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", text, re.MULTILINE)
    assert len(rows) >= 7
    for stem, players, observed, informed, actions in rows:
        game = rulelang.load(GAMES_DIR / f"{stem}.rules", players=int(players))
        assert (tensors.observation_shape(game)[0], tensors.information_state_shape(game)[0],
                game.num_distinct_actions()) == (int(observed), int(informed), int(actions)), stem


SECRETS = """
game "Secrets" { players 2 }
supply gold total 10 visible owner
player var secret: int = 0 visible owner
var hidden: int = 0 visible none
var shown: bool = false
phase play {
  choose n in 1..3 by players[0]
  players[0].secret = n
  hidden = n
  shown = true
  gain n gold to players[0]
  choose m in 1..3 by players[1]
}
score p = p.secret
"""


def test_owner_and_none_visibilities_hide_variables_and_supplies_from_the_others():
    game = rulelang.load(rules(SECRETS))
    names = [block.name for block in tensors.layout(game).blocks]
    assert "global hidden" not in names and "global shown" in names
    assert "supply gold bank" not in names                     # visible owner: no public bank
    picked = []
    for n in (1, 3):
        state = game.new_initial_state()
        state.apply_action(tensors.action_space(game).number_base + n)
        picked.append(state)
    assert picked[0].observation_tensor(1) == picked[1].observation_tensor(1)   # seat 1 sees none of it
    assert _block(game, picked[1], 0, "player secret") == [3.0, 0.0]            # seat 0 sees his own
    assert _block(game, picked[1], 0, "supply gold of players") == [3.0, 0.0]
    assert _block(game, picked[1], 1, "player secret") == [0.0, 0.0]
    assert _block(game, picked[1], 1, "global shown") == [1.0]


def test_a_zone_of_any_component_type_counts_each_kind_it_holds():
    # `: component` (and an undeclared type) holds components of any type: its block counts
    # every kind of every type, as a zone of no declared type does
    game = rulelang.load(rules("""
game "Mixed" { players 2 }
component chip { value: int }
component tile { letter: string }
zone bag: component visible all
zone pile: tile visible all
deck chips: chip in bag = [chip(value: 1), chip(value: 2)]
deck tiles: tile in pile = [tile(letter: "a")]
phase main {
  choose c in bag by players[0]
  move top(pile) to bag
  end game
}
score p = 0
"""))
    state = game.new_initial_state(seed=0)
    bag = _block(game, state, 0, "zone bag")
    assert bag[0] == 2.0 and len(bag) == 4 and sorted(bag[1:]) == [0.0, 1.0, 1.0]
    state.apply_action(state.legal_actions(0)[0], player=0)
    assert _block(game, state, 0, "zone bag") == [3.0, 1.0, 1.0, 1.0]
    assert _block(game, state, 0, "zone pile") == [0.0, 0.0]
    bounds = tensors.layout(game).blocks
    assert [b.size for b in bounds if b.name == "zone bag"] == [4]
