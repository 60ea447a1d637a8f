"""'shuffle ZONE' of a zone the rules name, run in place by the resumable function
(compiler/shuffled.py) and going on after it there: the same states, draws, events, work,
errors and counters at every step budget as the operation called and the run loop going on
(the general path) and as the run loop running one operation at a time; with explicit
chance, and from a saved state in the middle of a shuffle, the operation as before."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import worked_and_logged
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.interpreter.compiler import chance

GAMES = Path(__file__).resolve().parent.parent / "games"

__all__ = ["counters_recorded"]   # (the fixture, used by name)

RULES = """\
game "S" { players 2 }
component card { rank: int } shown as "card {rank}"
zone pile: card visible count
zone other: card visible count
player zone hand: card visible owner
deck cards: card in pile = [card(rank: r) for r in 1..9]
var total: int = 0
var order: list[int] = [3, 1, 2]
phase p {
  repeat {
    shuffle pile
    for q in players {
      move top(pile) to q.hand
      total += top(q.hand).rank
    }
    shuffle other
    shuffle order
    choose x in [1, 2] by players[0]
    total += 100 / (total % 13 - x)
    for q in players {
      move q.hand to pile
    }
    if total > 400 { end game }
  }
}
"""


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """No zone known as the code is written: every shuffle called, the run loop going on."""
    monkeypatch.setattr(chance, "named_zone", lambda cat, target, scope: None)


def _played(game: rulelang.Game, seed: int, explicit: bool) -> list[object]:
    """The saved states and events after each action of a random game (chance's too)."""
    state, chooser, seen = game.new_initial_state(seed=seed, explicit_chance=explicit, events=True), \
        random.Random(seed), []
    try:
        while not state.is_terminal():
            player = state.current_players()[0]
            state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
            seen.append((state.to_json(), state.work, state.events()))
    except rulelang.RulelangError as error:
        seen.append((str(error), error.diagnostic.span))
    return seen


@pytest.mark.usefixtures("counters_recorded")
def test_a_named_zone_shuffled_in_place_fails_and_goes_on_as_the_operation_called(monkeypatch):
    fast = rulelang.load(RULES)
    code = fast.generated_code()
    assert code.count("if st.explicit_chance or ") >= 2   # (pile and other, some written twice: tails.py)
    with monkeypatch.context() as patched:
        _general(patched)
        general = rulelang.load(RULES)
        slow = one_by_one(rulelang.load(RULES))
    assert "if st.explicit_chance or " not in general.generated_code()
    failures = failures_where_all_agree((fast, general, slow), 4, range(1, 140))
    assert {str(f[0]).split(": ")[1][:4] for f in failures} == {"E603", "E602"}   # (the budget; the division)


def test_a_named_zone_shuffled_in_place_plays_as_the_operation_called(monkeypatch):
    # (apart from the test above: its fixture records the frames of every failure, which only
    # failures_where_all_agree reads and clears)
    fast = rulelang.load(RULES)
    _general(monkeypatch)
    general = rulelang.load(RULES)
    for seed in range(4):
        for explicit in (False, True):
            assert _played(fast, seed, explicit) == _played(general, seed, explicit)


def test_a_saved_state_in_the_middle_of_a_shuffle_goes_on_as_before(monkeypatch):
    fast = rulelang.load(RULES)
    state = fast.new_initial_state(seed=2, explicit_chance=True)
    assert state.current_players() == [rulelang.CHANCE]   # (the first place of the pile's shuffle)
    state.apply_action(state.legal_actions(rulelang.CHANCE)[3], player=rulelang.CHANCE)
    saved = state.to_json()
    _general(monkeypatch)
    general = rulelang.load(RULES)
    for game in (fast, general):
        loaded = game.state_from_json(saved)
        chooser = random.Random(0)
        while not loaded.is_terminal() and len(loaded.action_history) < 40:
            player = loaded.current_players()[0]
            loaded.apply_action(chooser.choice(loaded.legal_actions(player)), player=player)
        state_of = loaded.to_json()
        if game is fast:
            first = state_of
    assert state_of == first


def test_jolly_roger_shuffles_in_place_as_the_general_path_does(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = rulelang.load(path, players=4)
    assert fast.generated_code().count("if st.explicit_chance or ") >= 4   # (setup's two, the deal's, the gather's)
    played = worked_and_logged(fast), [_played(fast, seed, True)[:60] for seed in range(2)]
    _general(monkeypatch)
    slow = rulelang.load(path, players=4)
    assert (worked_and_logged(slow), [_played(slow, seed, True)[:60] for seed in range(2)]) == played
