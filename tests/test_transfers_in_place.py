"""A 'gain' or a 'pay' of generated code does what ``State.transfer`` does in place where no
event is recorded (procedures.transfer_lines): its arguments computed in their order, a pay
lowered to what the payer holds; with an event log, the call. The same states, work, log
and events as the call everywhere."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import transfers_called, worked_and_logged

import rulelang

GAMES = Path(__file__).resolve().parent.parent / "games"

RULES = """\
game "T" { players 2 }
supply coins total 40
var paid: int = 0
procedure settle(p: player, q: player, n: int) {
  gain n coins to p
  pay n + 3 coins from p to q
  pay 2 coins from q
  paid += tokens(q, coins)
}
phase main {
  for p in players {
    call settle(p, players[0], 2)
    choose k in [1, 2] by p
    gain k coins to p
  }
  end game
}
"""


def _calls_only_with_events(code: str) -> bool:
    """Whether each call of ``State.transfer`` in ``code`` is the one made where events are recorded."""
    lines = code.splitlines()
    calls = [k for k, line in enumerate(lines) if line.strip().startswith("st.transfer(")]
    return bool(calls) and all(lines[k - 1].strip() == "else:" for k in calls)


@pytest.mark.parametrize(("source", "players"), [(RULES, 2), (GAMES / "jamaica.rules", 4)])
def test_transfers_in_place_leave_the_states_and_events_of_the_call(monkeypatch, source, players):
    fast = rulelang.load(source, players=players)
    assert _calls_only_with_events(fast.generated_code())
    played = worked_and_logged(fast)
    transfers_called(monkeypatch)
    slow = rulelang.load(source, players=players)
    assert not _calls_only_with_events(slow.generated_code())
    assert worked_and_logged(slow) == played


def test_a_pay_of_more_than_is_held_pays_what_is_held():
    state = rulelang.load(RULES, players=2).new_initial_state(seed=1)
    assert state.to_json()["supplies"]["coins"] == [40, 0, 0]   # (2 gained, 2 of 5 paid to itself, 2 paid)
    state.apply_action(state.legal_actions(0)[0], player=0)   # (1 gained; player 1 gains 2, pays 2 of 5)
    assert state.to_json()["supplies"]["coins"] == [39, 1, 0] and state.to_json()["globals"]["paid"] == 1
