"""The OpenSpiel adapter as OpenSpiel's users expect it (issue 28): game types from the
ruleset, the `players` parameter, observers that honour IIGObservationType (needs open-spiel)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import game_files, player_counts  # noqa: E402

from rulelang.interpreter.hosts.openspiel_adapter import register  # noqa: E402
from rulelang.interpreter.model.values import CHANCE  # noqa: E402
from rulelang.interpreter.state import tensors  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
Kind = pyspiel.GameType


def _doc_blocks(marker):
    text = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    return [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if block.startswith(marker)]


@pytest.mark.parametrize("block", _doc_blocks("# needs open-spiel"))
def test_the_openspiel_examples_of_the_embedding_doc_run(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(block, "docs/embedding.md", "exec"), {"__name__": "__doc_example__"})


def test_the_embedding_doc_has_the_openspiel_examples():
    assert len(_doc_blocks("# needs open-spiel")) == 2


def test_alpha_beta_solves_registered_tic_tac_toe_to_a_draw():
    from open_spiel.python.algorithms.minimax import alpha_beta_search
    game = pyspiel.load_game(register(GAMES / "tic_tac_toe.rules", short_name="rl_ttt_minimax"))
    value, action = alpha_beta_search(game)
    assert value == 0.0 and action in game.new_initial_state().legal_actions()


# the seed games' types at their lowest count: information, chance, utility, min and max utility
SEED_TYPES = {
    "tic_tac_toe": ("PERFECT_INFORMATION", "DETERMINISTIC", "ZERO_SUM", -1.0, 1.0),
    "kuhn_poker": ("IMPERFECT_INFORMATION", "EXPLICIT_STOCHASTIC", "ZERO_SUM", -2.0, 2.0),
    "jolly_roger": ("IMPERFECT_INFORMATION", "EXPLICIT_STOCHASTIC", "GENERAL_SUM", 0.0, 50.0),
    "tobago": ("IMPERFECT_INFORMATION", "EXPLICIT_STOCHASTIC", "GENERAL_SUM", 0.0, 308.0),
    "asterix": ("IMPERFECT_INFORMATION", "EXPLICIT_STOCHASTIC", "GENERAL_SUM", -1000.0, 1000.0),
}


@pytest.mark.parametrize("stem", sorted(SEED_TYPES))
def test_a_seed_games_type_and_utility_range_follow_from_its_ruleset(stem):
    game = pyspiel.load_game(register(GAMES / f"{stem}.rules", short_name=f"rl_type_{stem}"))
    kind = game.get_type()
    information, chance, utility, low, high = SEED_TYPES[stem]
    assert (kind.information.name, kind.chance_mode.name, kind.utility.name) == (information, chance, utility)
    assert kind.dynamics == Kind.Dynamics.SEQUENTIAL
    assert (game.min_utility(), game.max_utility()) == (low, high)
    if utility == "ZERO_SUM":
        assert game.utility_sum() == 0.0


def test_a_ruleset_that_hides_nothing_but_rolls_is_imperfect_with_explicit_chance(tmp_path):
    path = tmp_path / "race.rules"
    path.write_text('game "Race" { players 2..3  max_decisions 10 }\ndie d3 = [1, 2, 3]\n'
                    'player var at: int = 0\nphase run {\n  for p in players {\n    let step = roll d3\n'
                    '    p.at += step\n  }\n}\nscore p = p.at\n', encoding="utf-8")
    game = pyspiel.load_game(register(path, short_name="rl_race"), {"players": 3})
    kind = game.get_type()
    assert kind.chance_mode == Kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == Kind.Information.IMPERFECT_INFORMATION     # the roll is a local
    assert kind.utility == Kind.Utility.GENERAL_SUM and game.max_utility() == 1000.0   # nothing known


def test_a_shuffle_of_an_open_zone_is_perfect_information_with_chance(tmp_path):
    path = tmp_path / "open.rules"
    path.write_text('game "Open" { players 2  max_decisions 3 }\ncomponent chip { n: int }\n'
                    'zone pile: chip\ndeck chips: chip in pile = [chip(n: k) for k in 1..3]\n'
                    'phase p {\n  shuffle pile\n  choose c in pile by players[0]\n  end game\n}\n', encoding="utf-8")
    game = pyspiel.load_game(register(path, short_name="rl_open"))
    kind = game.get_type()
    assert kind.information == Kind.Information.PERFECT_INFORMATION
    assert kind.chance_mode == Kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == Kind.Utility.ZERO_SUM           # no score: every score is 0
    assert (game.min_utility(), game.max_utility()) == (0.0, 0.0)


# ---------------------------------------------------------------- the players parameter

@pytest.mark.parametrize("path", game_files(), ids=lambda p: p.stem)
def test_load_game_takes_every_allowed_player_count_and_refuses_the_others(path):
    counts = player_counts(path)
    name = register(path, short_name=f"rl_counts_{path.stem}")
    kind = pyspiel.load_game(name).get_type()
    assert (kind.min_num_players, kind.max_num_players) == (counts[0], counts[-1])
    assert kind.parameter_specification["players"] == counts[0]
    for count in range(counts[0], counts[-1] + 1):
        game = pyspiel.load_game(name, {"players": count})
        assert game.num_players() == count and str(game) == f"{name}(players={count})"
        state = game.new_initial_state()
        assert state.inner.game.num_players == count and len(state.returns()) == count
    allowed = str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]} to {counts[-1]}"
    for count in (counts[0] - 1, counts[-1] + 1):
        with pytest.raises(ValueError, match=f"is for {allowed} players, not players={count}"):
            pyspiel.load_game(name, {"players": count})


def test_a_game_at_another_count_plays_pickles_and_serializes():
    import pickle
    name = register(GAMES / "jolly_roger.rules", short_name="rl_jr_params")
    game = pyspiel.load_game(f"{name}(players=5)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.inner.observation(0)["players"]) == 5
    again = pickle.loads(pickle.dumps(state))
    assert again.get_game().num_players() == 5 and str(again) == str(state)
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert new_game.num_players() == 5 and str(new_state) == str(state)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'seats'"):
        pyspiel.load_game(name, {"seats": 4})


# ---------------------------------------------------------------- observers

def _dealt_kuhn():
    """Kuhn poker after the deal (seat 0 has the jack, seat 1 the queen) and seat 0's bet."""
    game = pyspiel.load_game(register(GAMES / "kuhn_poker.rules", short_name="rl_kuhn_views"))
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[-1])
    return game, state


def _ranks(text):
    return sorted(re.findall(r'"label": "(jack|queen|king)"', text))


def _observation(iig):
    from open_spiel.python.observation import make_observation
    game, state = _dealt_kuhn()
    return make_observation(game, iig), state


def test_single_player_private_info_is_the_players_own_view():
    observation, state = _observation(pyspiel.IIGObservationType(perfect_recall=False))
    for player in (0, 1):
        text = observation.string_from(state, player)
        assert text == json.dumps(state.inner.observation(player), sort_keys=True)
        assert len(_ranks(text)) == 1                               # his own card only
        observation.set_from(state, player)
        assert list(observation.tensor) == pytest.approx(tensors.observation_tensor(state.inner, player))


def test_no_private_info_is_the_public_view_whoever_asks():
    observation, state = _observation(pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public = json.dumps(state.inner.observation(CHANCE), sort_keys=True)
    assert observation.string_from(state, 0) == observation.string_from(state, 1) == public
    assert _ranks(public) == []                                     # no card of anyone
    observation.set_from(state, 1)
    assert list(observation.tensor) == pytest.approx(tensors.observation_tensor(state.inner, CHANCE))
    assert not any(observation.dict["viewer"])


def test_all_players_private_info_is_every_seats_view_side_by_side():
    observation, state = _observation(pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    text = observation.string_from(state, 0)
    assert text == observation.string_from(state, 1)
    assert _ranks(text) == ["jack", "queen"]                        # both hands
    assert text.splitlines() == [f"seat {p}: " + json.dumps(state.inner.observation(p), sort_keys=True)
                                 for p in (0, 1)]
    observation.set_from(state, 0)
    both = tensors.observation_tensor(state.inner, 0) + tensors.observation_tensor(state.inner, 1)
    assert list(observation.tensor) == pytest.approx(both)
    assert list(observation.dict["seat 1/viewer"]) == [0.0, 1.0] and "seat 0/zone hand/1" in observation.dict


def test_perfect_recall_adds_each_viewers_own_actions():
    single, state = _observation(pyspiel.IIGObservationType(perfect_recall=True))
    single.set_from(state, 0)
    assert list(single.tensor) == pytest.approx(tensors.information_state_tensor(state.inner, 0))
    assert single.string_from(state, 0) == state.information_state_string(0)
    every, _ = _observation(pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    every.set_from(state, 1)
    both = tensors.information_state_tensor(state.inner, 0) + tensors.information_state_tensor(state.inner, 1)
    assert list(every.tensor) == pytest.approx(both) and "seat 0/own actions" in every.dict


@pytest.mark.parametrize(("iig", "message"), [
    (dict(perfect_recall=True, private_info="NONE"), "the public view has no perfect recall"),
    (dict(perfect_recall=False, public_info=False), "always include the public information"),
])
def test_an_observation_type_the_engine_does_not_draw_is_a_clear_error(iig, message):
    from open_spiel.python.observation import make_observation
    game, _ = _dealt_kuhn()
    if "private_info" in iig:
        iig["private_info"] = getattr(pyspiel.PrivateInfoType, iig["private_info"])
    with pytest.raises(ValueError, match=message):
        make_observation(game, pyspiel.IIGObservationType(**iig))
    with pytest.raises(ValueError, match="take no parameters"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False), {"x": 1})
