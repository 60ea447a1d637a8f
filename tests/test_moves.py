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


KEPT_TOP = """\
game "T" { players 2 }
component card { rank: int } shown as "{rank}"
deck cards: card in pile = [card(rank: r) for r in 1..3]
zone pile: card visible count
zone table: card visible all
zone shown: card visible all
phase p {
  for r in 1..4 {
    let c = top(pile)
    move c to table
    choose x in table by players[0]
    move x to shown
  }
  end game
}
"""


def _kept_top_played(events: bool) -> tuple[object, ...]:
    """The states (and events) of KEPT_TOP played to its end: where it fails (the fourth
    round's top of an empty pile), the error and its span."""
    state, seen = rulelang.load(KEPT_TOP).new_initial_state(events=events), []
    try:
        while not state.is_terminal():
            seen.append(state.to_json())
            state.apply_action(state.legal_actions(0)[0], player=0)
    except RulesRuntimeError as error:
        return seen, str(error), error.diagnostic.span, state.events() if events else None
    return seen, None


def test_a_value_that_may_be_a_component_moved_in_place_as_state_move_moves_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``move c to ZONE`` of a local that may hold a component, a zone or none: a component
    moved by ``State.move``'s lines in place (moves.component_moved), no call; the same states,
    events and error as the method."""
    from rulelang.interpreter.compiler import moves
    assert "st.move(" not in rulelang.load(KEPT_TOP).generated_code()
    in_place = [_kept_top_played(events) for events in (False, True)]
    monkeypatch.setattr(moves, "component_moved", lambda moved, to_slot, module, cat: [f"st.move({moved}, {to_slot})"])
    assert "st.move(" in rulelang.load(KEPT_TOP).generated_code()
    assert in_place == [_kept_top_played(events) for events in (False, True)]
    assert len(in_place[0][0]) == 3 and in_place[0][1] is not None   # (three cards moved, then none)
