"""Two specialisations of a procedure's code, each against its general path (the same
states, work, errors and spans, in random games, with an error in the rules, at every step
budget):
- a statement's value that counts the items of a zone passing a test (``let n = count(c for c
  in p.hand if ...)``) counted in a local as the loop finds them (compiler/tallied.py), not
  listed then counted by ``runtime.count``;
- a 'for' whose body may pause, run by the function of its procedure until it pauses
  (compiler/unpaused.py ``_walked_body``): its variable's Python local known to hold a player
  where each item of its source certainly is one, its reads without the tests of its kind;
  its list, where its source is a variable declared a list, taken as it is unless long."""
from __future__ import annotations

import re

import pytest
from conftest import at_every_budget, decisions_dropped, states_or_error

import rulelang
from rulelang.interpreter.compiler import comprehensions, unpaused

COUNTED = """\
game "T" { players 2  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
player zone hand: card visible owner
deck cards: card in pile = [card(rank: k) for k in 1..12]
var out: list[int] = []

procedure turn(p: player) {
  move top(pile) to p.hand
  let high = count(c for c in p.hand if c.rank > 4)
  out = out + [high]
  choose c in p.hand by p prompt "{p}: a card to give back"
  let low = count(c for c in p.hand if FAILS < 3)
  move c to pile
  out = out + [low, count(c for c in pile if c.rank > 2)]
}

phase play {
  shuffle pile
  for p in players {
    call turn(p)
  }
  if size(out) > 24 {
    end game
  }
  next play
}
"""


WALKED = """\
game "W" { players 3  max_steps STEPS }
component card { rank: int }
zone pile: card visible all
player zone hand: card visible owner
player zone shown: card visible all
deck cards: card in pile = [card(rank: k) for k in 1..9]
var order: list[player] = players
var out: list[int] = []

procedure round() {
  for p in order {
    move top(pile) to p.shown
  }
  for p in players {
    if top(p.shown).rank > FAILS {
      choose c in p.shown by p prompt "{p}: a card to keep"
      move c to p.hand
    }
    out = out + [size(p.hand), count(c for c in p.hand if c.rank > 4)]
  }
  for p in order {
    move p.shown to pile
  }
  order = [order[-1]] + [q for q in order if q != order[-1]]
}

phase play {
  shuffle pile
  call round()
  if size(out) > 40 {
    end game
  }
  next play
}
"""


LISTED = """\
game "L" { players 2  max_steps STEPS }
var order: list[player] = players
var out: list[int] = []

procedure round() {
  for p in order {
    choose x in [1, 2] by p prompt "{p}: a number"
    out = out + [4 / (FAILS)]
  }
  order = order + order
}

phase play {
  call round()
  if size(order) > 200 {
    end game
  }
  next play
}
"""


def _counted_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every such count listed, then counted by ``runtime.count``."""
    monkeypatch.setattr(comprehensions, "tallied", lambda *args: None)


def _walked_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variable of a walk of unknown kind, as any value."""
    monkeypatch.setattr(unpaused.UnpausedWriter, "_walked_body",
                        lambda self, node, local, indent: self.block(node.body, indent))


def _listed_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list of a walk over a variable declared a list, made a list by ``as_list``."""
    monkeypatch.setattr(unpaused.UnpausedWriter, "_a_list", lambda self, source: False)


CASES = {   # the rules (the budget STEPS, the part that may fail FAILS), the part that does not, one that does
    "counted": (COUNTED, "c.rank / 2", "10 / (c.rank - 6)", _counted_listed),   # (fails where a hand holds the 6)
    "walked": (WALKED, "4", "4 / (top(p.shown).rank - 5)", _walked_unknown),   # (fails where one shows the 5)
    # (the walk's list a declared list, taken as it is, charged once past 64 players: 128)
    "listed": (LISTED, "x", "x - 2", _listed_unknown),   # (fails where a 2 is chosen)
}


def _listing(case: str) -> str:
    rules, passing, _, _ = CASES[case]
    return rulelang.load(rules.replace("STEPS", "100000").replace("FAILS", passing)).generated_code()


def _unpaused() -> str:
    """The function of procedure 'round' until it pauses."""
    (function,) = [unit for unit in re.split(r"\n(?=def )", _listing("walked")) if "until it pauses" in unit]
    return decisions_dropped(function)   # (the decision it pauses at as the lowered code writes it)


def test_the_counts_are_counted_in_place():
    assert len(re.findall(r"\b(_n\d+) \+= 1\n", _listing("counted"))) >= 2
    assert not re.search(r"_count\(_a\d+\)", _listing("counted"))


def test_a_walk_over_a_declared_list_is_not_made_a_list(monkeypatch):
    assert re.search(r"(_seq\d+) = st\.global_values\[_k\d+\]\n +if len\(\1\) > 64:", _listing("listed"))
    _listed_unknown(monkeypatch)
    assert re.search(r"_seq\d+ = _as_list\(st, st\.global_values", _listing("listed"))


def test_the_walks_variable_is_read_as_a_player(monkeypatch):
    assert re.search(r"for (_l\d+) in _seq\d+:", _unpaused()) and "is _Player" not in _unpaused()
    _walked_unknown(monkeypatch)
    assert "is _Player" in _unpaused()


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("failing", [False, True])
def test_random_games_leave_the_same_states_work_and_errors_as_the_general_path(monkeypatch, case, failing):
    rules, passing, fails, general = CASES[case]
    text = rules.replace("STEPS", "100000").replace("FAILS", fails if failing else passing)
    fast = states_or_error(text, 8)
    assert (fast[0] == "E602") == failing
    general(monkeypatch)
    assert fast == states_or_error(text, 8)


@pytest.mark.parametrize("case", CASES)
def test_the_step_budget_stops_at_the_same_statement_as_the_general_path(monkeypatch, case):
    rules, passing, _, general = CASES[case]
    text = rules.replace("FAILS", passing)
    fast = at_every_budget(text, range(1, 150))
    general(monkeypatch)
    assert fast == at_every_budget(text, range(1, 150))
    assert len({outcome[2] for outcome in fast if outcome[0] == "E603"}) > 2
