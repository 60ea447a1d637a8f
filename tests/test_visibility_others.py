"""Every zone visibility word against every consumer of visibility, on one small ruleset
whose hands are declared with the word: 'visible others' (cards held facing outward: every
player but the owner sees them, the owner sees how many) beside 'all', 'owner', 'count' and
'none'.

For each word, a consumer (the observation, the observation and information-state tensors,
the seat's view of the page, the terminal view, the events) must tell two states apart for a
viewer exactly as the viewer's sight of player 1's hand says: states whose hand holds other
cards only where he sees it in full, states whose hand holds fewer cards unless it is hidden
from him. Then the knowledge of components, the information-set sampler and the scenario
step ``expect seen by``; and the declarations that cannot be 'others' (E205), the linter's
W310, and the example ruleset examples/facing_out.rules with its scenarios.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

import rulelang
from rulelang.interpreter.hosts.seat_view import SeatData, view_data
from rulelang.interpreter.hosts.terminal_view import render_text
from rulelang.interpreter.model.values import CHANCE
from rulelang.interpreter.sim.scenarios import run_file
from rulelang.interpreter.state.tensors import information_state_tensor
from rulelang.loader import lint_file

WORDS = ("all", "owner", "others", "count", "none")
OWNER, OTHER = 0, 1
VIEWERS = {"the owner": OWNER, "another player": OTHER, "the public view": CHANCE}

# How each viewer sees player 1's hand: full (its cards), count (its size) or hidden.
SIGHT = {
    "all": {OWNER: "full", OTHER: "full", CHANCE: "full"},
    "owner": {OWNER: "full", OTHER: "count", CHANCE: "count"},
    "others": {OWNER: "count", OTHER: "full", CHANCE: "count"},
    "count": {OWNER: "count", OTHER: "count", CHANCE: "count"},
    "none": {OWNER: "hidden", OTHER: "hidden", CHANCE: "hidden"},
}

RULES = """
game "held" {{ players 3 }}
component card {{ rank: int }} shown as "card {{rank}}"
zone draw: card visible none
player zone hand: card visible {word}
deck cards: card in draw = [card(rank: r) for r in 11..19]

setup {{
  shuffle draw
  for p in players {{ for i in 1..2 {{ move top(draw) to p.hand }} }}
}}
phase play {{
  for p in players {{ choose n in 0..1 by p }}
  end game
}}
"""


def game_for(word: str) -> Any:
    return rulelang.load(RULES.format(word=word), players=3)


def edited(game: Any, state: Any, change: Callable[[dict[str, list[int]]], None]) -> Any:
    """The state with its zones changed by ``change`` (on the saved state's zone lists)."""
    data = state.to_json()
    change(data["zones"])
    return game.state_from_json(json.loads(json.dumps(data)))


def swap_a_held_card(zones: dict[str, list[int]]) -> None:
    zones["hand/0"][0], zones["draw"][0] = zones["draw"][0], zones["hand/0"][0]


def give_back_a_held_card(zones: dict[str, list[int]]) -> None:
    zones["draw"].append(zones["hand/0"].pop())


def seat_view(game: Any, state: Any, viewer: int) -> object:
    return view_data(SeatData(game), state, viewer)


def terminal_view(game: Any, state: Any, viewer: int) -> object:
    return render_text(game, state, viewer, width=160)


CONSUMERS: dict[str, Callable[[Any, Any, int], object]] = {
    "observation": lambda game, state, viewer: state.observation(viewer),
    "observation tensor": lambda game, state, viewer: state.observation_tensor(viewer),
    "information-state tensor": lambda game, state, viewer: (
        information_state_tensor(state, viewer) if viewer != CHANCE else state.observation_tensor(viewer)),
    "seat view (the page)": seat_view,
    "terminal view": terminal_view,
}

CASES = [(word, consumer, who) for word in WORDS for consumer in CONSUMERS for who in VIEWERS]


@pytest.mark.parametrize(("word", "consumer", "who"), CASES)
def test_a_consumer_tells_states_apart_as_the_viewer_sees_the_hand(word: str, consumer: str, who: str) -> None:
    game = game_for(word)
    viewer, read = VIEWERS[who], CONSUMERS[consumer]
    state = game.state_from_json(game.new_initial_state(seed=3).to_json())
    other_cards = edited(game, state, swap_a_held_card)
    fewer_cards = edited(game, state, give_back_a_held_card)
    sight = SIGHT[word][viewer]
    assert (read(game, state, viewer) != read(game, other_cards, viewer)) == (sight == "full")
    assert (read(game, state, viewer) != read(game, fewer_cards, viewer)) == (sight != "hidden")


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("who", VIEWERS)
def test_the_observation_shows_the_hand_as_the_viewer_sees_it(word: str, who: str) -> None:
    game = game_for(word)
    state = game.new_initial_state(seed=3)
    held = state.to_json()["zones"]["hand/0"]
    shown = state.observation(VIEWERS[who])["players"][0].get("hand")
    expected = {"full": [{"component": c, "label": f"card {c + 11}"} for c in held],
                "count": {"count": len(held)}, "hidden": None}[SIGHT[word][VIEWERS[who]]]
    assert shown == expected


@pytest.mark.parametrize("word", WORDS)
def test_the_terminal_view_names_the_cards_only_to_those_who_see_them(word: str) -> None:
    game = game_for(word)
    state = game.new_initial_state(seed=3)
    labels = [f"card {c + 11}" for c in state.to_json()["zones"]["hand/0"]]
    for viewer in (OWNER, OTHER):
        text = render_text(game, state, viewer, width=160)
        assert all(label in text for label in labels) == (SIGHT[word][viewer] == "full"), text


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("who", VIEWERS)
def test_the_events_of_the_deal_name_the_cards_only_to_those_who_see_them(word: str, who: str) -> None:
    game = game_for(word)
    state = game.new_initial_state(seed=3, events=True)
    held = set(state.to_json()["zones"]["hand/0"])
    named = {c for event in state.events(VIEWERS[who]) for c in _components_in(event)}
    assert held <= named if SIGHT[word][VIEWERS[who]] == "full" else not held & named


def _components_in(value: object) -> list[int]:
    if isinstance(value, dict):
        found = [value["component"]] if isinstance(value.get("component"), int) else []
        return found + [c for item in value.values() for c in _components_in(item)]
    if isinstance(value, list):
        return [c for item in value for c in _components_in(item)]
    return []


@pytest.mark.parametrize("word", WORDS)
def test_who_knows_a_dealt_card_is_who_sees_the_hand(word: str) -> None:
    game = game_for(word)
    state = game.new_initial_state(seed=3)
    for cid in state.to_json()["zones"]["hand/0"]:
        knowers = {viewer for viewer in range(3) if state.component_knowledge[cid] >> viewer & 1}
        assert knowers == {v for v in range(3) if (SIGHT[word][OWNER if v == 0 else OTHER] == "full")}


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("who", ["the owner", "another player"])
def test_a_resample_keeps_what_the_viewer_sees_and_redraws_what_he_does_not(word: str, who: str) -> None:
    game = game_for(word)
    viewer = VIEWERS[who]
    state = game.new_initial_state(seed=3)
    zones = state.to_json()["zones"]
    samples = [state.resample_from_infostate(viewer, seed) for seed in range(12)]
    for sample in samples:
        assert sample.observation(viewer) == state.observation(viewer)
    held_apart = {tuple(sorted(sample.to_json()["zones"]["hand/0"])) for sample in samples}
    own = {tuple(sorted(sample.to_json()["zones"][f"hand/{viewer}"])) for sample in samples}
    assert (held_apart == {tuple(sorted(zones["hand/0"]))}) == (SIGHT[word][viewer] == "full")
    assert (own == {tuple(sorted(zones[f"hand/{viewer}"]))}) == (SIGHT[word][OWNER] == "full")


def test_with_hands_facing_out_the_owner_s_own_cards_are_what_a_resample_redraws() -> None:
    game = game_for("others")
    state = game.new_initial_state(seed=3)
    zones = state.to_json()["zones"]
    for seed in range(12):
        sample = state.resample_from_infostate(OWNER, seed).to_json()["zones"]
        assert sample["hand/1"] == zones["hand/1"] and sample["hand/2"] == zones["hand/2"]
        assert len(sample["hand/0"]) == len(zones["hand/0"])
        assert set(sample["hand/0"]) | set(sample["draw"]) == set(zones["hand/0"]) | set(zones["draw"])
    changed = [seed for seed in range(12)
               if set(state.resample_from_infostate(OWNER, seed).to_json()["zones"]["hand/0"]) != set(zones["hand/0"])]
    assert changed


@pytest.mark.parametrize("word", WORDS)
def test_the_scenario_step_seen_by_follows_the_word(word: str, tmp_path: Path) -> None:
    (tmp_path / "held.rules").write_text(RULES.format(word=word))
    steps = {name: ("seen" if SIGHT[word][viewer] == "full" else "not seen")
             for name, viewer in (("p1", OWNER), ("p2", OTHER), ("chance", CHANCE))}
    scenarios = "".join(f'scenario "as {name} sees it" {{\n  expect {how} by {name} p1.hand\n}}\n'
                        for name, how in steps.items())
    (tmp_path / "held.tests").write_text(f"players 3\n{scenarios}")
    result = run_file(tmp_path / "held.tests")
    assert not result.problems and not result.failed, [f.failure for f in result.failed]
    assert len(result.results) == 3


# ---------------------------------------------------------------- where 'others' cannot stand

@pytest.mark.parametrize("declaration", [
    "zone pile: card visible others",
    "player var secret: int = 0 visible others",
    "var secret: int = 0 visible others",
    "supply gold total 10 visible others",
])
def test_others_needs_a_per_player_zone(declaration: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text('game "bad" { players 2 }\ncomponent card { rank: int }\n'
                    f"{declaration}\nphase main {{ end game }}\n")
    (found,) = [d for d in lint_file(path) if d.code == "E205"]
    assert (found.span.line, found.span.column) == (3, 1)
    assert "'others' is not a visibility here" in found.message
    with pytest.raises(rulelang.RulelangError) as error:
        rulelang.load(path)
    assert error.value.diagnostic.code == "E205"


def test_the_example_lints_clean_and_passes_its_scenarios() -> None:
    example = ROOT / "examples" / "facing_out.rules"
    assert lint_file(example) == []
    assert "visible others" in example.read_text()
    result = run_file(example.with_suffix(".tests"))
    assert not result.problems and not result.failed and len(result.results) >= 5


@pytest.mark.parametrize("players", [2, 4])
def test_through_games_of_the_example_a_resample_looks_the_same_to_its_viewer(players: int) -> None:
    game = rulelang.load(ROOT / "examples" / "facing_out.rules", players=players)
    rng = random.Random(players)
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            viewer = state.current_players()[0]
            sample = state.resample_from_infostate(viewer, seed=rng.randrange(100))
            assert sample.observation(viewer) == state.observation(viewer)
            assert information_state_tensor(sample, viewer) == information_state_tensor(state, viewer)
            mine, theirs = sample.to_json()["zones"], state.to_json()["zones"]
            assert all(mine[f"hand/{p}"] == theirs[f"hand/{p}"] for p in range(players) if p != viewer)
            state.apply_action(rng.choice(state.legal_actions(viewer)), player=viewer)
