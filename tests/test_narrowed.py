"""A 'let' local read as a component by the first test of an 'if' is read without testing
its kind in the rest of the statement (interpreter/compiler/narrowed.py): the same states and
work as with every read tested, and at every step budget the same error at the same place
(a none at the first test, a component without the field at a later one), in a procedure
that may pause (written until it pauses, and resumable) as in one that never does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_tails import counters_recorded

import rulelang
from rulelang.interpreter.compiler import procedures

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)

CARDS_AND_A_CHIP = """\
    game "N" { players 2 }
    enum suit { red, blue }
    component card { suit: suit  rank: int } shown as "{rank}"
    component chip { rank: int } shown as "chip {rank}"
    zone pile: component visible all
    player zone played: component visible all
    deck cards: card in pile = [card(suit: s, rank: r) for s in values(suit) for r in 1..5]
    deck chips: chip in pile = [chip(rank: 1)]
    var total: int = 0
    setup { shuffle pile }
"""
WEIGHED = CARDS_AND_A_CHIP + """\
    procedure weigh(p: player) {
      let c = top(p.played)
      if c.rank > 3 {
        total += 1
      } elif c.suit == red {
        total += c.rank
      } else {
        total -= c.rank
      }
      PAUSE
    }
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4] by p
          if x < 4 { move top(pile) to p.played }
          call weigh(p)
          if size(pile) <= 6 { end game }
        }
      }
    }
"""
PAUSING = """if total > 6 {
        choose y in [1, 2] by p
        total -= y * 3
      }"""


def loaded(tmp_path: Path, rules: str) -> rulelang.Game:
    return load_written(tmp_path, rules)


@pytest.mark.usefixtures("counters_recorded")
@pytest.mark.parametrize("pause", ["", PAUSING])
def test_reads_narrowed_by_the_first_test_fail_where_tested_reads_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pause: str) -> None:
    rules = WEIGHED.replace("PAUSE", pause)
    narrowed = loaded(tmp_path, rules)
    with monkeypatch.context() as patch:   # (every read of the local tests its kind)
        patch.setattr(procedures, "read_first", lambda writer, condition, written: {})
        tested = loaded(tmp_path, rules)
    slow = one_by_one(loaded(tmp_path, rules))
    tests = r"if type\(_l\d+\) is _Component else _no_attribute"
    assert len(re.findall(tests, narrowed.generated_code())) < len(re.findall(tests, tested.generated_code()))
    outcomes = failures_where_all_agree((narrowed, tested, slow), 8, range(1, 70))
    failures = {re.sub(r"^.*?\d: ", "", str(f[0])) for f in outcomes}
    assert {"E602 a none has no attribute 'rank' (in weigh)", "E602 a chip has no field 'suit' (in weigh)"} <= failures


def test_the_reline_reads_the_card_played_once_tested() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    reline = game.generated_code()
    # (its first test of the card's power tests the card's kind; the tests after it do not; and
    # none tests the field, which a card from a zone of cards has: compiler/typed.py)
    first = r"\n( +)if \(+(_l\d+)\.record\[_k\d+\] if \2 is not None else _no_attribute.*\n"   # (a card or none)
    later = r"\1elif \(+\2\.record\[_k\d+\]\) is not"
    assert re.search(first + r"(\1    .*\n)+" + later, reline)
