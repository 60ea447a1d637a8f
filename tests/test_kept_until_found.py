"""A choice whose options may be a zone keeps at most ``PROBE`` decisions until one is given
again (compiler/kept_until_found.py), then up to ``DECISIONS_KEPT`` as any choice: the same
decisions (options' ids, players), states and work as keeping them all; only whether a
decision is kept (``shared``) differs."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import offers_made, worked_and_logged

import rulelang
from rulelang.interpreter.compiler import choices, kept_until_found

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "P" { players 2 }
component card { rank: int }
zone pool: card visible all
zone table: card visible all
deck cards: card in pool = [card(rank: k) for k in 1..6]
var n: int = 0
phase p {
  repeat {
    n += 1
    choose c in pool by players[0] prompt "a card"
    if n <= 3 { move top(pool) to table }
    if n == 4 { move top(table) to pool }
    if n == 5 {
      move top(pool) to table
      move top(pool) to table
    }
    if n == 7 { end game }
  }
}
"""


def _all_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every choice keeps up to DECISIONS_KEPT from the start, as before."""
    monkeypatch.setattr(choices, "kept_limit", lambda zone, most: [most])


def _without_kept(offers: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return [(ids, players, state, work) for ids, _, players, state, work in offers]


def test_a_zone_choice_keeps_few_until_one_is_given_again(monkeypatch):
    monkeypatch.setattr(kept_until_found, "PROBE", 3)
    game = rulelang.load(RULES)
    code = game.generated_code()
    assert code.count("[0] = _k") >= 1   # (a kept decision given again raises the limit)
    offers = offers_made(game, 0)
    # (three lists kept, the fourth not; the third again: given, and from then on kept again)
    assert [shared for _, shared, _, _, _ in offers] == [True, True, True, False, True, True, True]
    assert [len(ids) for ids, _, _, _, _ in offers] == [6, 5, 4, 3, 4, 2, 2]
    _all_kept(monkeypatch)
    everything = rulelang.load(RULES)
    assert "[0] = _k" not in everything.generated_code()
    kept = offers_made(everything, 0)
    assert [shared for _, shared, _, _, _ in kept] == [True] * 7
    assert _without_kept(kept) == _without_kept(offers)


def test_jolly_roger_keeps_few_hands_and_plays_as_before(monkeypatch):
    path = GAMES / "jolly_roger.rules"
    fast = rulelang.load(path, players=4)
    offers = [offers_made(fast, seed) for seed in range(3)]
    hands = [shared for game in offers for _, shared, _, _, _ in game]
    played = worked_and_logged(fast)
    _all_kept(monkeypatch)
    slow = rulelang.load(path, players=4)
    kept = [offers_made(slow, seed) for seed in range(3)]
    unkept = [shared for game in kept for _, shared, _, _, _ in game].count(False)   # (hands with copies)
    assert hands.count(False) > unkept + 10   # (and hands past the first 64: none comes back)
    assert [_without_kept(game) for game in kept] == [_without_kept(game) for game in offers]
    assert worked_and_logged(slow) == played
