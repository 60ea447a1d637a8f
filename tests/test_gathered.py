"""Runs of moves that gather whole zones onto one zone, their components' zones written by one
mend after the run (compiler/gathered.py), against each move writing its own (the runs
found nowhere): the same states, zone entries, knowledge, observations and events after every
action, and the same errors with their spans and counters at every step budget; Jolly Roger's
gather with 3 and 4 players."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_blocks import failures_where_all_agree
from test_tails import counters_recorded

import rulelang
from rulelang.interpreter.compiler import gathered

__all__ = ["counters_recorded"]

RULES = """\
game "G" { players 3 }
component card { rank: int }
zone pile: card visible count
zone table: card visible all
player zone hand: card visible owner
player zone kept: card visible all
player var score: int = 0 visible all
var lead: player? = none
var size: int = 0 visible all
deck cards: card in pile = [card(rank: k) for k in 1..30]

procedure gather() {
  quiet {
    for p in players {
      move p.hand to pile
      move p.kept to pile
      p.score = 0
    }
    move table to pile
    lead = none
  }
}

procedure partial(q: player) {
  move q.hand to pile
  let n = 0
  move q.kept to pile
  size = size(pile)
}

procedure mixed(c: card, q: player) {
  move table to pile
  move c to pile
  move q.kept to pile
  move pile to pile
  move q.hand to pile
}

phase main {
  for r in 1..3 {
    shuffle pile
    for i in 1..3 {
      for p in players {
        move top(pile) to p.hand
        move top(pile) to p.kept
      }
    }
    move top(pile) to table
    choose q in players by players[0] prompt "who"
    lead = q
    choose c in q.hand by q prompt "a card"
    move c to table
    call partial(q)
    choose d in pile by q prompt "one from the pile"
    move d to q.hand
    move top(pile) to table
    call mixed(c, q)
    call gather()
  }
  end game
}
"""


def _truth(state: rulelang.State) -> list[int]:
    """Each component's zone, read from the zones' lists."""
    where = [-1] * len(state.component_zone)
    for slot, zone in enumerate(state.zones):
        for component in zone:
            where[component.id] = slot
    return where


def _played(game: rulelang.Game, seed: int, events: bool, players: int) -> list[object]:
    chooser, state = random.Random(seed), game.new_initial_state(seed=seed, events=events)
    seen: list[object] = [state.to_json()]
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        assert state.component_zone == _truth(state)
        seen += [state.to_json(), state.component_zone[:], state.component_knowledge[:],
                 [state.observation(p) for p in range(players)], state.clone().to_json()]
    return [*seen, state.events() if events else None]


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gathered, "gathered_runs", lambda statements, writer: {})


def test_gathered_zones_are_written_once_as_each_move_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    listing = rulelang.load(RULES).generated_code()
    assert "= len(st.zones[" in listing or "= len(_st_zones[" in listing   # (a run's mark)
    assert "st.component_zone[0:30] = _k" in listing   # (the whole pile as one slice)
    fast = [_played(rulelang.load(RULES), seed, events, 3) for seed in range(4) for events in (False, True)]
    _general(monkeypatch)
    assert "st.component_zone[0:30]" not in rulelang.load(RULES).generated_code()
    assert fast == [_played(rulelang.load(RULES), seed, events, 3) for seed in range(4) for events in (False, True)]


@pytest.mark.usefixtures("counters_recorded")
def test_a_gathering_run_fails_where_each_move_writing_its_own_does(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = rulelang.load(RULES)
    _general(monkeypatch)
    general = rulelang.load(RULES)
    failures = failures_where_all_agree((fast, general), 2, range(1, 120))
    assert len(failures) >= 20


@pytest.mark.parametrize("players", [3, 4])
def test_jolly_rogers_gather_writes_the_pile_once(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    path = Path(__file__).resolve().parent.parent / "games" / "jolly_roger.rules"
    game = rulelang.load(path, players=players)
    assert "st.component_zone[" in game.generated_code() and "times>" in game.generated_code()
    fast = [_played(game, seed, events, players) for seed in range(2) for events in (False, True)]
    _general(monkeypatch)
    game = rulelang.load(path, players=players)
    assert fast == [_played(game, seed, events, players) for seed in range(2) for events in (False, True)]


def test_a_loop_that_moves_components_one_by_one_is_no_run() -> None:
    # (its moves would each have the mend before them: dearer than their own writes)
    rules = """\
game "C" { players 2 }
component card { rank: int }
zone pile: card visible count
zone heap: card visible all
player zone hand: card visible owner
deck cards: card in pile = [card(rank: r) for r in 1..7]
procedure sweep(p: player) {
  for c in pile {
    move c to heap
  }
  for c in heap {
    move c to pile
  }
  choose d in p.hand by p
  move d to heap
}
phase play {
  for p in players {
    move top(pile) to p.hand
    call sweep(p)
  }
  end game
}
"""
    assert "_m_of[_m_moved.id]" not in rulelang.load(rules).generated_code()
