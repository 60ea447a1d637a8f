"""A field of a value computed once, read in a statement's whole test through an assignment
expression instead of a call of the field's reader (interpreter/compiler/assigned_reads.py):
the same states and work as with the calls, and at every step budget the same error at the
same place (a none, a component without the field), in an 'if' and in the test of any()'s
items; a text Python would refuse keeps its calls."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import load_written
from test_blocks import failures_where_all_agree, one_by_one
from test_narrowed import CARDS_AND_A_CHIP
from test_tails import counters_recorded

import rulelang
from rulelang.interpreter.compiler import assigned_reads
from rulelang.interpreter.compiler.fields import field_read
from rulelang.interpreter.compiler.module import Module

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["counters_recorded"]   # (the fixture, used by name)

TOPS = CARDS_AND_A_CHIP + """\
    phase play {
      repeat {
        for p in players {
          choose x in [1, 2, 3, 4] by p
          if x < 4 { move top(pile) to p.played }
          if top(p.played).rank > 3 { total += 1 }
          if any(top(q.played).suit == red for q in players) { total += 2 }
          if size(pile) <= 6 { end game }
        }
      }
    }
"""


def loaded(tmp_path: Path) -> rulelang.Game:
    return load_written(tmp_path, TOPS)


@pytest.mark.usefixtures("counters_recorded")
def test_fields_read_in_place_fail_where_the_reader_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    in_place = loaded(tmp_path)
    with monkeypatch.context() as patch:   # (every such field read by its reader)
        patch.setattr(assigned_reads, "_in_place", lambda module, text: text)
        called = loaded(tmp_path)
    slow = one_by_one(loaded(tmp_path))
    assigned = r"if type\(_u\d+ := [^\n]* is _Component else"
    assert len(re.findall(assigned, in_place.generated_code())) >= 2
    assert not re.findall(assigned, called.generated_code())
    outcomes = failures_where_all_agree((in_place, called, slow), 8, range(1, 60))
    failures = {re.sub(r"^.*?\d: | \(in \w+\)$", "", str(f[0])) for f in outcomes}
    assert {"E602 a none has no attribute 'rank'", "E602 a chip has no field 'suit'"} <= failures


def test_a_text_python_refuses_keeps_its_call() -> None:
    module = Module()
    reader = module.constant(field_read(rulelang.load(ROOT / "games" / "jolly_roger.rules").catalog, "power"))
    for text, kept in ((f"{reader}(_x) is _k1", False), (f"[_v for _v in {reader}(_x)]", True)):
        writer = SimpleNamespace(module=module, write=lambda node, scope, text=text: text)
        written = assigned_reads.written_assigning(writer, None, None)   # type: ignore[arg-type]
        assert (written == text) is kept and (":=" in written) is not kept


def test_the_reline_reads_the_played_cards_power_in_place() -> None:
    game = rulelang.load(ROOT / "games" / "jolly_roger.rules", players=4)
    # (the played card's power read plain: a zone of cards holds only cards, compiler/typed.py;
    # the top of the zone its last card where the zone is not empty: assigned_reads._top_zone)
    assert re.search(r"if \(+_u(\d+)\[-1\]\.record\[_k\d+\] "
                     r"if \(_u\1 := st\.zones\[_k\d+\[0\]\]\) else _k\d+\(None\)\)", game.generated_code())
