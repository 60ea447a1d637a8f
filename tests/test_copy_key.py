"""A chance outcome's key (compiler/copies.py ``copy_key``), its type and fields read from a
table made once a game: at every state of games played with explicit chance it is the key
written out in full (the general path), and a game whose chance asks the general key plays
alike (the same options, states and chance outcomes)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter.compiler import chance, copies
from rulelang.interpreter.model.values import Component
from rulelang.interpreter.state.state import State

ROOT = Path(__file__).resolve().parent.parent


def general_key(st: State, c: Component) -> object:
    """``copy_key`` as written before the table: every part computed at each call."""
    holder = st.game.catalog.holder_base + c.id
    key = (copies._COPY, c.type, tuple(sorted(c.fields.items(), key=lambda pair: pair[0])),
           tuple(values[c.id] for values in st.component_values.values()),
           tuple(held[holder] for held in st.supply_counts.values()), st.component_zone[c.id])
    try:
        hash(key)
    except TypeError:
        return copies._COPY, c.id
    return key


def played(game: rulelang.Game, seed: int, steps: int) -> list[tuple[object, ...]]:
    """The options and state after each step of a game of ``game`` with explicit chance and
    random choices, checking ``copy_key`` of every component against the general key."""
    state, chooser = game.new_initial_state(seed=seed, explicit_chance=True), random.Random(seed)
    seen: list[tuple[object, ...]] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        assert all(copies.copy_key(state, c) == general_key(state, c) for c in game.catalog.components)
        player = state.current_players()[0]
        options = state.legal_actions(player)
        state.apply_action(chooser.choice(options), player=player)
        seen.append((player, tuple(options), state.to_json()))
    return seen


@pytest.mark.parametrize(("name", "players"), [("jolly_roger", 4), ("tobago", 3), ("asterix", 3)])
def test_the_key_read_from_the_table_is_the_general_one(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{name}.rules"
    fast = [played(rulelang.load(path, players=players), seed, 120) for seed in range(2)]
    monkeypatch.setattr(chance, "copy_key", general_key)
    general = [played(rulelang.load(path, players=players), seed, 120) for seed in range(2)]
    assert fast == general
    catalog = rulelang.load(path, players=players).catalog
    assert copies._types_and_fields(catalog) is copies._types_and_fields(catalog)   # (made once a game)
    assert any(player == rulelang.CHANCE for game in fast for player, _, _ in game)
