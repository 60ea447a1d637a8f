"""``move ZONE to W`` of two zones the text proves, a short zone of several components moved
in place where no event is kept (compiler/moves.py ``all_moved``), against ``State.move_all``:
the same states, knowledge and events, for empty zones, a zone moved onto itself, a zone
of another player's, and a zone the text does not prove one (tested where it runs)."""
from __future__ import annotations

import random
import re

import rulelang
from rulelang.interpreter.compiler import moves

RULES = """\
game "A" { players 3 }
component card { rank: int }
zone pile: card visible count
zone table: card visible all
player zone hand: card visible owner
player zone kept: card visible all
var lead: player? = none
deck cards: card in pile = [card(rank: k) for k in 1..30]

procedure gather(q: player) {
  for p in players {
    move p.hand to q.hand
    move p.kept to p.kept
    move p.kept to table
  }
  move table to q.kept
  move pile to table
  move table to pile
}

procedure turns() {
  for p in players {
    choose by p prompt "keep or pass" {
      option "keep" {
        move p.kept to table
      }
      option "pass" {
        move p.hand to p.kept
      }
    }
    move p.hand to table
    move lead.hand to table   # (lead, a player or none: its zone tested where it runs)
  }
}

phase main {
  shuffle pile
  for i in 1..2 {
    for p in players {
      move top(pile) to p.hand
      move top(pile) to p.kept
    }
  }
  choose q in players by players[0] prompt "who gathers"
  lead = q
  call gather(q)
  choose c in q.hand by q prompt "a card to show"
  move c to table
  call gather(players[1])
  call turns()
  end game
}
"""


def _played(seed: int, events: bool) -> list[object]:
    game = rulelang.load(RULES)
    chooser, state = random.Random(seed), game.new_initial_state(seed=seed, events=events)
    seen: list[object] = [state.to_json()]
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_action(chooser.choice(state.legal_actions(player)), player=player)
        seen += [state.to_json(), state.component_knowledge[:], [state.observation(p) for p in range(3)]]
    return [*seen, state.events() if events else None]


def test_a_short_zone_moves_in_place_as_move_all_moves_it(monkeypatch):
    listing = rulelang.load(RULES).generated_code()
    assert "_m_known[_m_id] |= _m_seen" in listing and "_m_from != _m_to" in listing
    assert re.search(r"len\(_m_zone := (?:_st_|st\.)zones\[_t\d+\.slot\]\) <= 64:\n *if _m_zone and", listing)  # (lead)
    fast = [_played(seed, events) for seed in range(4) for events in (False, True)]
    monkeypatch.setattr(moves, "all_moved",
                        lambda source, slot, module, cat, gathered=None: [f"st.move_all({source}, {slot})"])
    assert "_m_known" not in rulelang.load(RULES).generated_code()
    assert fast == [_played(seed, events) for seed in range(4) for events in (False, True)]
