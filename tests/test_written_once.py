"""A local that a line of a resumable function's block writes, read by the lines after it
in its branch from a Python local the write sets too (held_reads._written_once): the same
errors, counters, states and work at every step budget as reading the environment, and as
the run loop running one operation at a time."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.interpreter.compiler import held_reads

__all__ = ["counters_recorded"]   # (the fixture, used by name)

RULES = """\
    game "W" { players 2 }
    var n: int = 0
    phase p {
      repeat {
        for q in players {
          choose x in [1, 2, 3] by q
          let t = x * 2
          n += t + 12 / (n - t - 2)
          if t > 4 { n += t } else { let t = 1  n += t }
          let seen = []
          for y in [x, 1, x, 2, 1] {
            if y not in seen { seen = seen + [y] }
          }
          n += size(seen)
          if n > 60 { end game }
        }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
def test_a_local_written_then_read_in_a_block_is_read_from_a_python_local(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RULES), encoding="utf-8")
    kept = rulelang.load(path)
    with monkeypatch.context() as patch:   # (every read from the environment)
        patch.setattr(held_reads, "_written_once", lambda lines, at: None)
        read = rulelang.load(path)
    slow = one_by_one(rulelang.load(path))
    assert " = _held" in kept.generated_code() and " = _held" not in read.generated_code()
    # (a loop whose body binds the local again reads it from the environment at each round)
    assert re.search(r"not in \(env\[_k\d+\] if", kept.generated_code())
    failures = {str(f[0]).split(": ")[1][:4] for f in failures_where_all_agree((kept, read, slow), 4, range(1, 60))}
    assert "E603" in failures
