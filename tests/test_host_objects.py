"""The objects a decision makes on the host's side, made the cheaper way and the same as the
general path's: a blank ``Decision`` by its class's call (``made_decision``), the ids of
interned options by one ``itemgetter`` (``catalog.interned_ids``), a new decision's Action
objects by one ``itemgetter`` too, the copies' test of a choice (``Merging.twins``) that makes
no set where no option has a copy, and a menu's option that goes on by the index of the id
found (no scan of the options)."""
from __future__ import annotations

import inspect
import random
from operator import itemgetter
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import rules
from test_host_path import MENUS

import rulelang
from rulelang.interpreter.compiler import copies
from rulelang.interpreter.model.program import Decision, made_decision
from rulelang.interpreter.model.values import RuleError
from rulelang.interpreter.state import state as state_module
from rulelang.interpreter.tables import catalog as catalog_module

GAMES = Path(__file__).resolve().parent.parent / "games"
JOLLY = rulelang.load(GAMES / "jolly_roger.rules", players=4)

COPIES = """
game "Wagers" { players 2 }
component card { name: string }
zone pile: card visible all
player zone played: card visible all
deck cards: card in pile = [card(name: n) for n in ["wager", "gem", "wager", "ace", "king", "queen", "jack"]]

phase play {
  for r in 1..3 {
    for p in players {
      choose c in pile by p
      move c to p.played
    }
  }
  end game
}
score p = 0
"""


def test_a_decision_is_made_blank_by_its_class_and_made_decision_sets_every_field() -> None:
    assert Decision.__init__ is object.__init__   # (no Python __init__: a call of the class makes it blank)
    made = made_decision("choose", (1,), ("a",), (7,), lambda *_: None)
    assert all(hasattr(made, name) for name in Decision.__slots__)
    assert (made.asks, made.shared, made.actions, made.probs, made.goes) == ("choice", False, None, (), None)


def test_the_ids_of_interned_options_are_those_of_code_of_one_by_one() -> None:
    catalog = JOLLY.catalog
    code_of = catalog.code_of
    interned = list(code_of)
    chooser = random.Random(3)
    for size in range(12):
        for _ in range(20):
            options = tuple(chooser.sample(interned, size))
            assert catalog_module.interned_ids(options, code_of) == tuple(map(code_of.__getitem__, options))
            assert catalog.option_ids(options) == (tuple(map(catalog.encode, options)), True)
            assert catalog.action_ids(options) == tuple(map(catalog.encode, options))
    some = tuple(interned[:3])
    for odd in (5, "not a label", None, True):   # numbers, strings, constants: encoded one by one, not interned
        for options in ((odd,), (*some, odd), (odd, *some)):
            with pytest.raises(KeyError):
                catalog_module.interned_ids(options, code_of)
            if odd == "not a label":   # (the general path's error)
                with pytest.raises(RuleError):
                    catalog.option_ids(options)
            else:
                assert catalog.option_ids(options) == (tuple(map(catalog.encode, options)), False)
    with pytest.raises(TypeError):
        catalog_module.interned_ids((*some, [1]), code_of)


def test_option_ids_takes_interned_ids_by_one_itemgetter(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = catalog_module.interned_ids

    def counted(options: tuple[object, ...], code_of: dict[object, int]) -> tuple[int, ...]:
        calls.append(len(options))
        return original(options, code_of)   # type: ignore[arg-type]

    monkeypatch.setattr(catalog_module, "interned_ids", counted)
    options = tuple(JOLLY.catalog.components[:5])
    assert JOLLY.catalog.option_ids(options)[0] == tuple(map(JOLLY.catalog.code_of.__getitem__, options))
    assert calls == [5]


def _played(game: rulelang.Game, seeds: range, check: object, prefer: str = "") -> None:
    """Random games (the action labelled ``prefer`` taken where there is one), ``check(state,
    player)`` before each action."""
    chooser = random.Random(0)
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            for player in state.current_players():
                if player not in state.current_players():
                    continue
                check(state, player)   # type: ignore[operator]
                actions = state.legal_actions(player)
                preferred = [a for a in actions if str(a) == prefer]
                state.apply_action((preferred or [chooser.choice(actions)])[0], player=player)


@pytest.mark.parametrize("path", ["jolly_roger.rules", "asterix.rules", "tic_tac_toe.rules"])
def test_legal_actions_are_the_games_own_actions_of_the_ids_and_no_getter_maps_two(path: str) -> None:
    game = rulelang.load(GAMES / path)
    getters = game.action_of
    mapped: list[int] = []

    def getter(made: dict[int, rulelang.Action]) -> object:
        def get(action_id: int) -> rulelang.Action:
            mapped.append(action_id)
            return made[action_id]
        return get

    game.action_of = [getter(made) for made in game.actions]

    def check(state: rulelang.State, player: int) -> None:
        decision = state.pending
        ids = decision.ids if decision.per_player is None else decision.per_player[player][1]
        before = len(mapped)
        actions = state.legal_actions(player)
        assert [a.id for a in actions] == list(ids)
        assert all(a is game.actions[player][i] for a, i in zip(actions, ids, strict=True))   # the game's own
        assert len(mapped) - before <= (1 if len(ids) == 1 else 0)   # two or more by one itemgetter
        assert state.legal_actions(player) == actions and state.legal_actions(player) is not actions

    _played(game, range(3), check)
    game.action_of = getters


class _Twins(frozenset):  # type: ignore[type-arg]
    """``Merging.twins`` that counts the sets its intersection makes; ``disjoint``: False for
    the general path, which always makes one."""

    made: ClassVar[list[int]] = []
    general = False

    def intersection(self, *others: object) -> frozenset:  # type: ignore[override, type-arg]
        _Twins.made.append(1)
        return frozenset(self).intersection(*others)  # type: ignore[arg-type]

    def isdisjoint(self, other: object) -> bool:
        return False if _Twins.general else frozenset(self).isdisjoint(other)  # type: ignore[arg-type]


def _with_counted_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    original = copies.Merging.__init__

    def init(self: copies.Merging, classes: tuple[int, ...], cat: object) -> None:
        original(self, classes, cat)   # type: ignore[arg-type]
        self.twins = _Twins(self.twins)

    monkeypatch.setattr(copies.Merging, "__init__", init)


def _decisions(game: rulelang.Game, seeds: range) -> list[object]:
    """Each decision of random games in which a wager is taken first, with its state."""
    seen: list[object] = []

    def check(state: rulelang.State, player: int) -> None:
        decision = state.pending
        seen.append((player, [str(o) for o in decision.options], decision.ids,   # (another load: other objects)
                     [a.id for a in state.legal_actions(player)], state.to_json()))

    _played(game, seeds, check, "wager")
    return seen


@pytest.mark.parametrize("text", [COPIES, None])
def test_a_choice_makes_no_set_of_copies_where_no_option_has_one_and_decides_as_the_general_path(
        monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    _with_counted_twins(monkeypatch)
    load = (lambda: rulelang.load(rules(text))) if text is not None else \
        (lambda: rulelang.load(GAMES / "jolly_roger.rules", players=4))
    _Twins.made, _Twins.general = [], False
    game = load()
    twins = frozenset(c for c in game.catalog.components if copies.copy_classes(game.catalog)[c.id] >= 0)
    assert twins
    seen = _decisions(game, range(4))
    made = len(_Twins.made)
    _Twins.made, _Twins.general = [], True
    general = _decisions(load(), range(4))
    assert seen == general   # the same decisions, ids, actions and states
    assert made < len(_Twins.made)   # fewer sets made: none where no option had a copy


def test_a_menus_option_goes_on_at_the_index_of_its_id_and_an_id_given_as_a_number_too() -> None:
    text = MENUS.replace("CHOOSER", "p").replace('option "pass"', 'option "pass" when draws < 9')
    game = rulelang.load(text)
    for seed in range(3):
        by_action, by_id = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        chooser = random.Random(seed)
        while not by_action.is_terminal():
            player = by_action.current_players()[0]
            action = chooser.choice(by_action.legal_actions(player))
            by_action.apply_action(action, player=player)
            by_id.apply_action(action.id)   # (the general path: the action checked, then its index found)
            assert by_id.to_json() == by_action.to_json()
            assert [f.pc for f in by_id.frames] == [f.pc for f in by_action.frames]


def test_apply_action_finds_a_menus_block_without_scanning_its_options() -> None:
    assert "options.index" not in inspect.getsource(state_module.State.apply_action)


def test_a_zone_choice_takes_its_components_ids_in_one_call_as_option_ids_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.interpreter.compiler import choices  # (its ids by one itemgetter in place: catalog.interned_ids')
    original = choices._items
    calls: list[int] = []

    def counted(*options: object) -> itemgetter[object]:
        calls.append(len(options))
        return original(*options)

    def refused(*options: object) -> itemgetter[object]:
        raise KeyError(options[0])   # (the general path: option_ids, as for a list of other values)

    monkeypatch.setattr(choices, "_items", counted)
    seen = _decisions(rulelang.load(GAMES / "jolly_roger.rules", players=4), range(3))
    assert calls   # the hands, by the choice itself
    monkeypatch.setattr(choices, "_items", refused)
    assert _decisions(rulelang.load(GAMES / "jolly_roger.rules", players=4), range(3)) == seen
