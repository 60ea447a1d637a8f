"""A deal from a zone that holds a run of ids all knowing the same (a gathered pile once
shuffled: its stamp) writes each dealt component's knowledge as that and who sees its new
zone (tables/dealing.py, ``one_knowledge``) instead of adding the seers to what each knew:
the same knowledge, zones and states as adding them, where the pile knows the same and
where it does not (a card seen, then put back unshuffled; a pile that is not a run of ids)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import worked_and_logged

import rulelang
from rulelang.interpreter.tables import dealing

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "K" { players 3 }
component card { rank: int }
component chip { worth: int }
player zone hand: card visible owner
zone pile: card visible count
zone table: component visible all
deck cards: card in pile = [card(rank: k) for k in 1..14]
deck more: card in table = [card(rank: k) for k in 20..22]
deck chips: chip in table = [chip(worth: 1)]
phase main {
  repeat {
    shuffle pile
    for i in 1..2 { for p in players { move top(pile) to p.hand } }
    choose c in players[0].hand by players[0] prompt "a card"
    move c to table
    move top(table) to pile
    for p in players { move top(pile) to p.hand }
    for p in players { move p.hand to pile }
    choose g in [1, 2, 3] by players[1] prompt "go on?"
    if g == 3 { end game }
    if g == 2 { move top(pile) to table }
  }
}
"""


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every dealt component's knowledge added to one by one, as before."""
    monkeypatch.setattr(dealing, "one_knowledge", lambda st, slot: None)


def _known(game: rulelang.Game, seed: int) -> list[tuple[list[int], list[int], object]]:
    """The knowledge, zones and saved state after each action of a random game."""
    state, chooser, seen = game.new_initial_state(seed=seed), random.Random(seed), []
    while True:
        seen.append((list(state.component_knowledge), list(state.component_zone), state.to_json()))
        if state.is_terminal():
            return seen
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)


def test_a_deal_from_a_pile_that_knows_the_same_writes_what_adding_writes(monkeypatch):
    game = rulelang.load(RULES)
    asked: list[int | None] = []
    real = dealing.one_knowledge
    with monkeypatch.context() as patched:
        patched.setattr(dealing, "one_knowledge", lambda st, slot: asked.append(real(st, slot)) or asked[-1])
        played = [_known(game, seed) for seed in range(8)]
    assert None in asked and any(known is not None for known in asked)   # (both ways taken)
    _general(monkeypatch)
    assert [_known(game, seed) for seed in range(8)] == played


def test_jolly_roger_deals_the_same_knowledge(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = rulelang.load(path, players=3)
    played = [_known(fast, seed) for seed in range(2)], worked_and_logged(fast)
    _general(monkeypatch)
    slow = rulelang.load(path, players=3)
    assert ([_known(slow, seed) for seed in range(2)], worked_and_logged(slow)) == played
