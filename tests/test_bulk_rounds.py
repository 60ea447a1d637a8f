"""The rounds of a compiled 'for' whose body counts no step charged at once where they all fit
within the budget (compiler/bulk_rounds.py): the same states, work and step-budget errors, at
the same spans, as each round counting its own step, at every budget; and a global variable
written in place where no events are kept (ProcedureWriter.global_write), as set_global writes it;
a loop whose body reads no environment leaves its last item there once, as each round did."""
from __future__ import annotations

import re

import pytest
from conftest import played_to_the_end

import rulelang
from rulelang.errors import RulesRuntimeError
from rulelang.interpreter.compiler import bulk_rounds, procedures, resumable

RULES = """\
game "B" { players 1  max_steps STEPS }
component card { rank: int } shown as "{rank}"
deck cards: card in draw = [card(rank: r) for r in 1..9]
zone draw: card visible count
zone table: card visible all
player zone hand: card visible all
var total: int = 0
var kept: list[int] = []

function twice(n: int) -> int = n * 2

procedure deal(n: int) {
  for i in 1..n {
    for p in players {
      move top(draw) to p.hand
    }
  }
}

procedure tally() {
  for c in players[0].hand {
    let r = c.rank
    if r > 4 { total += r } else { kept = kept + [r] }
  }
  for c in players[0].hand {
    if c.rank == 3 { break }
    total += 1
  }
  for c in players[0].hand {
    total += twice(c.rank)
  }
}

phase play {
  call deal(3)
  for k in [1, 2] {
    choose c in players[0].hand by players[0]
    move c to table
    for d in players[0].hand { total += d.rank }
    for e in [1, 2, 3] { for f in [e] { total += f } }
  }
  call tally()
  end game
}
"""


def _outcome(steps: int) -> tuple[object, ...]:
    return played_to_the_end(rulelang.load(RULES.replace("STEPS", str(steps))))


def test_rounds_charged_at_once_give_what_each_round_counted_gives_at_every_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resumable, "preludes", lambda code, blocks: [])   # (each block's lines once: counted)
    code = rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    # The inner loop of deal, the first of tally, the two after the choice (some written both
    # in a procedure's function and in place); not the loops that hold a loop, a 'break' or a
    # call of a function.
    assert code.count(" <= st.max_steps\n") == 6
    least = next(steps for steps in range(1, 500) if not isinstance(_outcome(steps)[0], str))
    budgets = range(1, least + 2)
    at_once = [_outcome(steps) for steps in budgets]
    monkeypatch.setattr(procedures, "charged_at_once", lambda body, functions: False)
    assert " <= st.max_steps\n" not in rulelang.load(RULES.replace("STEPS", "1000")).generated_code()
    assert at_once == [_outcome(steps) for steps in budgets]
    lines = {outcome[1].line for outcome in at_once if isinstance(outcome[0], str)}
    assert lines >= {14, 21, 40}   # (the budget runs out inside loops charged at once too)


def _played(rules: str, events: bool) -> tuple[object, ...]:
    state = rulelang.load(rules).new_initial_state(events=events)
    while not state.is_terminal():
        state.apply_action(state.legal_actions(0)[-1], player=0)
    return state.to_json(), state.events() if events else None


def test_a_global_written_in_place_gives_the_states_and_events_of_set_global(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RULES.replace("STEPS", "1000")   # (total and kept: globals written in loops, paused or not)
    code = rulelang.load(rules).generated_code()
    assert re.search(r"if (?:_st_|st\.)event_log is None:\n +(?:_st_|st\.)global_values\[_k\d+\] = ", code)
    in_place = [_played(rules, events) for events in (False, True)]
    monkeypatch.setattr(procedures.ProcedureWriter, "global_write", lambda self, indent, name, new, span:
                        self.emit(indent, f"_set_global(st, {name}, {new})", span))
    assert not re.search(r"(?:_st_|st\.)global_values\[_k\d+\] = ", rulelang.load(rules).generated_code())
    assert in_place == [_played(rules, events) for events in (False, True)]
    assert any(event["type"] == "set" for event in in_place[1][1])   # (the events of the writes kept)


def _states(rules: str) -> list[object]:
    state = rulelang.load(rules).new_initial_state()
    seen = [state.to_json()]
    while not state.is_terminal():
        state.apply_action(state.legal_actions(0)[-1], player=0)
        seen.append(state.to_json())
    return seen


def test_a_loop_that_reads_no_environment_leaves_its_last_item_there_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RULES.replace("STEPS", "1000")
    code = rulelang.load(rules).generated_code()
    assert re.search(r"\n( +)if _s\d+:\n\1    env\[_k\d+\] = _l\d+\n", code)   # (for d in players[0].hand)
    once = _states(rules)
    assert once[1]["frames"][0]["env"]["d"] == {"component": 7}   # (the saved state holds it at the pause)
    monkeypatch.setattr(procedures, "_READS_THE_FRAME", re.compile(""))   # (each round writes it)
    assert not re.search(r"\n( +)if _s\d+:\n\1    env\[", rulelang.load(rules).generated_code())
    assert once == _states(rules)


OTHER_LOCALS = """\
game "O" { players 1 }
component card { rank: int }
deck cards: card in draw = [card(rank: r) for r in 1..6]
zone draw: card visible count
player zone hand: card visible all
var total: int = 0

phase play {
  for c in draw { move c to players[0].hand }
  let extra = 2
  for k in [1, 2] {
    choose c in players[0].hand by players[0]
    move c to draw
    for g in players[0].hand { total += g.rank + extra }
  }
  end game
}
"""


def test_a_loop_that_reads_other_locals_of_the_environment_leaves_its_last_item_there_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its body reads ``extra`` from the environment, not its own ``g``: written there once."""
    code = rulelang.load(OTHER_LOCALS).generated_code()
    g = re.search(r"# (_k\d+) = 'g'\n", code)
    assert g and re.search(rf"\n( +)if _s\d+:\n\1    env\[{g.group(1)}\] = _l\d+\n", code)
    once = _states(OTHER_LOCALS)
    assert once[1]["frames"][0]["env"]["g"] == {"component": 4}   # (the hand's last, at the second pause)
    monkeypatch.setattr(procedures, "_READS_THE_FRAME", re.compile(""))   # (each round writes it)
    assert not re.search(r"\n( +)if _s\d+:\n\1    env\[", rulelang.load(OTHER_LOCALS).generated_code())
    assert once == _states(OTHER_LOCALS)


CARDS = """\
component card { rank: int } shown as "{rank}"
deck cards: card in draw = [card(rank: r) for r in 1..12]
zone draw: card visible count
player zone hand: card visible owner
player zone played: card visible all
"""

MOVES = """\
game "M" { players 3  max_steps STEPS }
""" + CARDS + """\
var total: int = 0
phase play {
  for p in players {
    move top(draw) to p.hand
    move top(draw) to p.hand
    move top(draw) to p.hand
  }
  for r in 1..3 {
    choose c in players[0].hand by players[0]
    move c to players[0].played
    for p in players { if size(p.hand) > 0 and p != players[0] { move top(p.hand) to p.played } }
    for p in players { move p.played to draw }
    total += 1
  }
  end game
}
"""


def test_the_state_lists_held_in_locals_give_what_the_state_read_each_round_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop charged at once whose rounds move cards reads the state's lists (zones, where each
    component is, the events) from locals read once before it: the same states, events, work and
    step-budget errors as the rounds reading the state (bulk_rounds.hold_state_lists)."""
    rules = MOVES.replace("STEPS", "1000")
    shape = r"\n( +)(_y\d+ = (?:_st_|st\.)\w+\n\1)*_y\d+ = (?:_st_|st\.)zones\n\1for "
    assert re.search(shape, rulelang.load(rules).generated_code())
    outcome = lambda steps: played_to_the_end(rulelang.load(MOVES.replace("STEPS", str(steps))))  # noqa: E731
    least = next(steps for steps in range(1, 500) if not isinstance(outcome(steps)[0], str))
    budgets = range(1, least + 2)
    held = [outcome(steps) for steps in budgets], [_played(rules, events) for events in (False, True)]
    monkeypatch.setattr(bulk_rounds, "hold_state_lists", lambda lines, at, fresh: at)
    assert not re.search(r"_y\d+ = st\.", rulelang.load(rules).generated_code())
    assert held == ([outcome(steps) for steps in budgets],
                    [_played(rules, events) for events in (False, True)])
    assert {outcome[1].line for outcome in held[0] if isinstance(outcome[0], str)} >= {18}   # (its last loop)
    assert held[0][-1][0]["globals"]["total"] == 3


PICKS = """\
game "E" { players 5  max_steps STEPS }
""" + CARDS + """\
procedure turn() {
  let active = players
  simultaneous p in active choose pick in p.hand
  for p in active { move pick[p] to p.played }
  for p in players { move p.played to draw }
}
phase play {
  move top(draw) to players[0].hand
  move top(draw) to players[1].hand
  move top(draw) to players[2].hand
  move top(draw) to players[3].hand
  move top(draw) to players[4].hand
  call turn()
  end game
}
"""


def _picked(steps: int) -> tuple[object, ...]:
    """Every player's last option at each simultaneous choice: where the rules fail, or the
    saved state and work at the end."""
    try:
        state = rulelang.load(PICKS.replace("STEPS", str(steps))).new_initial_state()
        while not state.is_terminal():
            for player in state.current_players():
                state.apply_action(state.legal_actions(player)[-1], player=player)
    except RulesRuntimeError as error:
        return str(error), error.diagnostic.span
    return state.to_json(), state.work


def test_an_entry_read_once_before_a_loop_gives_what_each_round_reading_it_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reveal's ``pick[p]``: the entry ``pick`` read before the loop where its rounds are
    charged at once, else after each round's step (bulk_rounds.entry_read_once): the same
    states, work and step-budget errors as each round reading it."""
    code = rulelang.load(PICKS.replace("STEPS", "1000")).generated_code()
    assert re.search(r"\n +(_h\d+) = env\[_k\d+\] if _s\d+ and _b\d+ else None\n(.*\n){5} +\1 = env\[", code)
    least = next(steps for steps in range(1, 500) if not isinstance(_picked(steps)[0], str))
    budgets = range(1, least + 2)
    once = [_picked(steps) for steps in budgets]
    monkeypatch.setattr(bulk_rounds, "entry_read_once", lambda lines, at, charged, items, fresh: None)
    assert not re.search(r"_h\d+ = env\[_k\d+\] if _s", rulelang.load(PICKS.replace("STEPS", "1000")).generated_code())
    assert once == [_picked(steps) for steps in budgets]
    assert {outcome[1].line for outcome in once if isinstance(outcome[0], str)} >= {10}   # (the reveal)
