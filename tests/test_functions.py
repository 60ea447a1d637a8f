"""Functions of a ruleset (``function NAME(params) -> type = expr``): pure, callable in any
expression, recursive within bounds, and replaceable by a variant."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulesetError, RulesRuntimeError

CARDS = """\
game "Sevens" { players 2 }
component card { rank: int } shown as "{rank}"
deck cards: card in draw = [card(rank: r) for r in 1..10 for copy in 1..2]
zone draw: card visible count
zone pile: card visible all
player zone hand: card visible all
player var bonus: int = double(index_of(me))

function worth(c: card) -> int = if c.rank == 7 then 14 else c.rank
function hand_value(p: player) -> int = sum(worth(c) for c in p.hand) + p.bonus
function double(n: int) -> int = 2 * n
function index_of(p: player) -> int = p.index
function factorial(n: int) -> int = if n <= 1 then 1 else n * factorial(n - 1)
function playable(p: player) -> list[card] = [c for c in p.hand if worth(c) >= 5]

invariant "hands are small" = all(size(p.hand) <= factorial(3) for p in players)

setup { shuffle draw }
phase deal {
  for p in players { for i in 1..3 { move top(draw) to p.hand } }
  log factorial(5)
  next play
}
phase play {
  for p in players {
    if size(playable(p)) == 0 {
      log "nothing"
    } else {
      choose c in playable(p) by p
      move c to pile
    }
  }
  end game
}
score p = hand_value(p)
tiebreak p = max(worth(c) for c in p.hand)
"""


def test_functions_work_in_initial_values_statements_choices_scores_and_invariants() -> None:
    game = rulelang.load(CARDS)
    state = game.new_initial_state(seed=4)
    assert state.log[0] == "120"
    assert state.player_values["bonus"] == [0, 2]
    while not state.is_terminal():
        player = state.current_players()[0]
        worths = [14 if r == 7 else r for r in ranks(state, "hand", player)]
        assert len(state.legal_actions()) == sum(1 for w in worths if w >= 5)
        state.apply_action(state.legal_actions()[0])
    assert state.check_invariants() == []
    assert state.returns() == [float(hand_value(state, p)) for p in range(2)]


def ranks(state: rulelang.State, zone: str, player: int) -> list[int]:
    catalog = state.game.catalog
    ref = next(i for i, r in enumerate(catalog.zone_refs)
               if r.name == zone and r.owner is not None and r.owner.index == player)
    return [int(component.fields["rank"]) for component in state.zones[ref]]


def hand_value(state: rulelang.State, player: int) -> int:
    """The score, computed here from the state's data, to compare with the function's."""
    return sum(14 if r == 7 else r for r in ranks(state, "hand", player)) + 2 * player


def test_a_function_sees_its_parameters_and_not_its_callers_locals() -> None:
    source = """\
game "L" { players 1 }
var out: int = 0
function f(n: int) -> int = n + secret
phase p {
  let secret = 5
  out = f(1)
  end game
}
"""
    with pytest.raises(RulesetError) as caught:
        rulelang.load(source)
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E101", 3)]


def test_runaway_recursion_stops_at_the_depth_bound_with_its_location() -> None:
    source = """\
game "R" { players 1 }
var out: int = 0
function down(n: int) -> int = if n == 0 then 0 else 1 + down(n - 1)
phase p {
  out = down(99)
  out = down(100)
  end game
}
"""
    game = rulelang.load(source)
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    diagnostic = caught.value.diagnostic
    assert (diagnostic.code, diagnostic.span.line) == ("E603", 6)
    assert "more than 100 deep" in diagnostic.message


def test_exponential_recursion_is_stopped_by_the_work_budget() -> None:
    source = """\
game "F" { players 1  max_steps 100000 }
var out: int = 0
function fib(n: int) -> int = if n < 2 then n else fib(n - 1) + fib(n - 2)
phase p {
  out = fib(10)
  log out
  out = fib(60)
  end game
}
"""
    game = rulelang.load(source)
    started = time.perf_counter()
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_initial_state()
    assert caught.value.diagnostic.code == "E603" and caught.value.diagnostic.span.line == 7
    assert "items of work" in caught.value.diagnostic.message
    assert time.perf_counter() - started < 30   # a hang guard, not a speed target


def test_a_variant_overrides_a_function_and_every_caller_uses_the_new_one(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(CARDS)
    (tmp_path / "variant.rules").write_text(
        'extends "base.rules"\noverride function worth(c: card) -> int = 1\n')
    base = rulelang.load(str(tmp_path / "base.rules")).new_initial_state(seed=0)
    variant = rulelang.load(str(tmp_path / "variant.rules")).new_initial_state(seed=0)
    assert base.log == ["120"] and not base.is_terminal()
    # every card is worth 1 in the variant: nothing is playable, and the score counts cards
    assert variant.is_terminal() and variant.log == ["120", "nothing", "nothing"]
    assert variant.returns() == [3.0, 5.0]


def test_functions_in_initial_values_are_bounded_too() -> None:
    source = """\
game "D" { players 1 }
function down(n: int) -> int = if n == 0 then 0 else 1 + down(n - 1)
var deep: int = down(500)
phase p { end game }
"""
    with pytest.raises(RulesRuntimeError) as caught:
        rulelang.load(source).new_initial_state()
    assert (caught.value.diagnostic.code, caught.value.diagnostic.span.line) == ("E603", 3)
    assert "100 deep" in caught.value.diagnostic.message


def test_functions_serve_declarations_evaluated_while_loading() -> None:
    source = """\
game "D" { players 1 }
component card { rank: int }
function double(n: int) -> int = 2 * n
deck cards: card in draw = [card(rank: double(r)) for r in 1..3]
zone draw: card visible all
supply gold total double(5)
phase p {
  log sum(c.rank for c in draw)
  log bank(gold)
  end game
}
"""
    assert rulelang.load(source).new_initial_state().log == ["12", "10"]
