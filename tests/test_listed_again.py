"""A comprehension that computes again, for each item of a list, the expression the
statement just before it listed for the same items (``let best = max(E for p in L)``, then
``[p for p in L if E == best]``) reads each value from that list (compiler/listed_again.py):
the same states, work and errors as computing it again, at every step budget; anything else
is left as it is."""
from __future__ import annotations

import pytest
from conftest import runs_alike_without

import rulelang
from rulelang.interpreter.compiler import comprehensions

RULES = """\
game "R" { players 3  max_steps STEPS }
component card { rank: int  power: int }
zone pile: card visible all
player zone hand: card visible owner
player zone won: card visible all
deck cards: card in pile = [card(rank: 1 + k % 4, power: k % 3) for k in 1..40]
var out: list[int] = []

procedure judge(fighters: list[player]) {
  let best = max(p.hand[0].rank * 10 + p.hand[0].power for p in fighters)
  let leaders = [p for p in fighters if p.hand[0].rank * 10 + p.hand[0].power == best]
  out = out + [best, size(leaders)]
}

procedure turn() {
  for p in players {
    if size(pile) > 0 {
      move top(pile) to p.hand
    }
  }
  let active = [p for p in players if size(p.hand) > 0]
  let top_rank = max(p.ZONE[0].rank for p in active)
  let tops = [p for p in active if p.ZONE[0].rank == top_rank]
  call judge(active)
  let keeper = tops[0]
  choose c in keeper.hand by keeper prompt "{keeper}: the card to keep"
  move c to keeper.won
}

phase play {
  while size(pile) > 0 {
    call turn()
  }
  end game
}
"""


def _rules(steps: int = 100_000, zone: str = "hand") -> str:
    return RULES.replace("STEPS", str(steps)).replace("ZONE", zone)


def test_a_value_listed_just_before_is_read_from_its_list(monkeypatch):
    listing = rulelang.load(_rules()).generated_code()
    assert listing.count(" in zip(") == 3   # (judge's; the turn's, run until it pauses and in its resumable code)
    fast = runs_alike_without(monkeypatch, comprehensions, "listed_again", lambda module, before, lines, indent: lines,
                              RULES.replace("ZONE", "hand"), range(1, 120, 2), _rules(zone="won"))
    assert " in zip(" not in rulelang.load(_rules()).generated_code()   # (and where the first listing fails)
    lines = _rules().splitlines()
    listed = {n for n, line in enumerate(lines, start=1) if "let best" in line or "let top_rank" in line}
    assert listed <= {outcome[2] for outcome in fast[1] if outcome[0] == "E603"}
    assert fast[2][0] == "E602" and fast[2][2] in listed   # (a missing item: the first listing's error)


@pytest.mark.parametrize("changed", [
    ("p.ZONE[0].rank == top_rank]", "p.ZONE[0].power == top_rank]"),                      # (another expression)
    ("max(p.ZONE[0].rank for p in active)", "max(p.ZONE[0].rank for p in players)"),      # (other items)
    ("  let tops = [p", "  out = out + [1]\n  let tops = [p"),                               # (a statement between)
    ("p.ZONE[0].rank", "(p.ZONE[0].rank + count(c for c in p.won))"),                    # (work charged in both)
    ("max(p.ZONE[0].rank for p in active)", "min([p.ZONE[0].rank for p in active] + [9])"),   # (not listed so)
])
def test_what_is_not_listed_just_before_is_computed_again(changed):
    rules = RULES.replace(*changed).replace("STEPS", "100000").replace("ZONE", "hand")
    assert rules != _rules()
    assert rulelang.load(rules).generated_code().count(" in zip(") == 1   # (judge's only)


FIRST = ["_a1 = []", "_x = st.work + len(_l2)", "st.work = _x", "if _x > st.max_steps:", "    st.charge(0)",
         "for _v3 in _l2:", "    _a1.append(ELEMENT)", "_l4 = max(_a1 or (None,))"]
SECOND = ["_a5 = []", "_x = st.work + len(_l2)", "st.work = _x", "if _x > st.max_steps:", "    st.charge(0)",
          "for _v6 in _l2:", "    if (TEST == _l4):", "        _a5.append(_v6)"]


@pytest.mark.parametrize(("element", "again"), [
    ("((_u7 := st.zones[_v3.index])[0] * 2)", True),
    ("(_fn8(st, _v3) * 2)", False),          # (a call: it may charge work)
    ("(_v3.index + st.work)", False),        # (the work read)
    ("(_v3.index + _l4)", False),            # (the local the first statement binds)
    ("(_v3.index * 3)", False),              # (not the second's)
])
def test_only_a_value_computed_alike_without_work_is_read_again(element, again):
    from rulelang.interpreter.compiler.listed_again import listed_again
    from rulelang.interpreter.compiler.module import Module
    test = element.replace("_v3", "_v6").replace("_u7", "_u9").replace("* 3", "* 2")
    before = ["    " + line for line in ["_l0 = 1", *FIRST]]
    second = [line.replace("TEST", test) for line in SECOND]
    written = listed_again(Module(), [line.replace("ELEMENT", element) for line in before], second, 1)
    assert (written != second) == again
    if again:
        assert written[5:] == ["for _v6, _w1 in zip(_l2, _a1):", "    if ((_w1) == _l4):", "        _a5.append(_v6)"]
    assert listed_again(Module(), [line.replace("ELEMENT", element) for line in before], second, 2) == second
