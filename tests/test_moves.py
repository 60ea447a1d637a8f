"""The moves written as one call each (compiler/moves.py): ``move top(zone) to w`` takes the
top off in place, a whole zone of few components is one ``move_all``. Each gives the state,
the events, what each player knows and the errors that the general path gives."""
from __future__ import annotations

import pytest
from conftest import rules

import rulelang
from rulelang import RulesRuntimeError

DEAL = """
game "D" { players 3 }
component card { rank: int } shown as "card {rank}"
zone pile: card visible count
zone discard: card visible all
zone box: card visible none
player zone hand: card visible owner
deck cards: card in pile = [card(rank: r) for r in 1..COUNT]
phase main {
  shuffle pile
  for i in 1..2 {
    for p in players {
      MOVE_TOP
    }
  }
  move players[0].hand to discard
  move players[1].hand to players[1].hand
  move box to discard
  MOVE_REST
  end game
}
"""

TOP = "move top(pile) to p.hand"
TOP_BY_NAME = "let c = top(pile)\n      move c to p.hand"
REST = "move pile to box"
REST_ONE_BY_ONE = "move [c for c in pile] to box"


def played(top: str, rest: str, count: int = 12) -> rulelang.State:
    text = DEAL.replace("MOVE_TOP", top).replace("MOVE_REST", rest).replace("COUNT", str(count))
    return rulelang.load(rules(text)).new_initial_state(seed=3, events=True)


def seen(state: rulelang.State) -> tuple[object, ...]:
    return (state.to_json(), state.events(), [state.observation(p) for p in range(3)],
            state.component_knowledge[:], state.component_zone[:])


@pytest.mark.parametrize("count", [6, 12, 80])
def test_moving_the_top_and_a_whole_zone_is_moving_each_component(count: int) -> None:
    fast, general = played(TOP, REST, count), played(TOP_BY_NAME, REST_ONE_BY_ONE, count)
    assert fast.is_terminal() and general.is_terminal()
    assert seen(fast) == seen(general)
    moves = [e for e in fast.events() if e["type"] == "move"]
    assert len(moves) == 6 + 2 + 2 + (count - 6)  # the deal, two hands (one onto itself), the rest


def test_the_top_of_an_empty_zone_is_nothing_to_move_where_the_rules_say_it() -> None:
    errors = []
    for top in (TOP, TOP_BY_NAME):
        with pytest.raises(RulesRuntimeError) as caught:
            played(top, REST, count=4)
        errors.append(caught.value.diagnostics[0])
    fast, general = errors
    assert "nothing to move" in fast.message and fast.message == general.message
    assert (fast.code, fast.span.column) == (general.code, general.span.column)
    move_line = next(n for n, line in enumerate(rules(DEAL).splitlines(), 1) if "MOVE_TOP" in line)
    assert fast.span.line == move_line


def test_a_move_to_something_not_a_zone_is_reported_as_before() -> None:
    with pytest.raises(RulesRuntimeError) as caught:
        played("move top(pile) to p", REST)
    assert "needs a zone" in caught.value.diagnostics[0].message
    with pytest.raises(RulesRuntimeError) as caught:
        played(TOP, "move pile to 3")
    assert "needs a zone" in caught.value.diagnostics[0].message
