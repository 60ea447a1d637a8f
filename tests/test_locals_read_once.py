"""A local read more than once in a branch of a block of the resumable function, read once
(compiler/locals_read_once.py): the first read keeps it in a Python local (``(_env12 :=
env[_k12])``, or the walk of a 'for' that binds it: ``env[_k12] = _env12 = _seq[_i]``), and
the lines after it in its branch, or in a later clause of an 'if' whose branch stopped, read
that; the same errors, counters, states and work at every step budget as reading the
environment each time, and as the run loop running one operation at a time."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.interpreter.compiler import locals_read_once, resumable

__all__ = ["counters_recorded"]   # (the fixture, used by name)

RULES = """\
    game "L" { players 2 }
    var n: int = 1
    player var score: int = 0
    phase p {
      repeat {
        for q in players {
          q.score = q.score % 5 + 1
          if q.score > 3 { choose x in [1, 2] by q  n += x } else { n += q.score + 1 }
          n = n % 50 + 12 / (n % 13 - 11)
          let t = q.score
          for y in [t, 1, 2] {
            t = t + y
            q.score += 1
          }
          n += t + q.score
          t = t + n % 4
          n += t % 5
          n += t % 3
          t = t * 2
          choose z in [0, 1] by q
          n += t % 7 + z
          n += t % 2
          n = n % 60
          if n > 50 { end game }
        }
      }
    }
"""


@pytest.mark.usefixtures("counters_recorded")
def test_a_local_read_again_in_a_block_is_read_from_a_python_local(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RULES), encoding="utf-8")
    kept = rulelang.load(path)
    with monkeypatch.context() as patch:   # (every read from the environment)
        patch.setattr(resumable, "locals_read_once", lambda lines: lines)
        read = rulelang.load(path)
    slow = one_by_one(rulelang.load(path))
    assert re.search(r"\(_env\d+ := env\[_k\d+\]\)", kept.generated_code())
    assert re.search(r"env\[_k\d+\] = _env\d+ = _seq\[_i\]", kept.generated_code())
    assert "_env" not in read.generated_code()
    failures = {str(f[0]).split(": ")[1][:4] for f in failures_where_all_agree((kept, read, slow), 4, range(1, 90))}
    assert "E603" in failures and len(failures) > 1, failures   # (the budget, and the division)


def _lines(text: str) -> list[tuple[str, None]]:
    return [(line, None) for line in textwrap.dedent(text).strip("\n").split("\n")]


def _read(text: str) -> str:
    return "\n".join(line for line, _ in locals_read_once.locals_read_once(_lines(text)))


def test_the_lines_after_a_line_that_may_bind_it_read_the_environment() -> None:
    # (a call handed the frame stops the reads in its branch and after its 'if', not in its 'else')
    assert _read("""
        _o = (_k72[env[_k12].index])
        if a:
            _k78(st, fr, _o)
            _x = env[_k12]
        elif b:
            _y = env[_k12]
        else:
            _p = env[_k12]
        _z = env[_k12]
        """) == textwrap.dedent("""\
        _o = (_k72[(_env12 := env[_k12]).index])
        if a:
            _k78(st, fr, _o)
            _x = env[_k12]
        elif b:
            _y = _env12
        else:
            _p = _env12
        _z = env[_k12]""")
    # (a read the line may not make, in a clause, or before a loop that binds it again: as it is)
    for text in ["_a = b and env[_k3]\n_c = env[_k3]", "_a = env[_k3] if b else 0\n_c = env[_k3]",
                 "if a:\n    pass\nelif env[_k3]:\n    _c = env[_k3]",
                 "_a = env[_k3]\nfor _v in _s:\n    _b = env[_k3]\n    env[_k3] = _v",
                 "_a = env[_k3]\ntry:\n    _k9(st, fr)\nexcept KeyError as error:\n    _c = env[_k3]",
                 "_a = env[_k3]\ndel env[_k3]\n_c = env[_k3]", "_a = env[_k3]\n_k5(st, env)\n_c = env[_k3]",
                 # (a frame pushed or popped: a callee's return writes into this environment)
                 "_a = env[_k3]\nst.push(_k7, _k8, {})\n_c = env[_k3]", "_a = env[_k3]\nst.pop(_v)\n_c = env[_k3]",
                 "_a = env[_k3]\n_frames = st.frames\n_c = env[_k3]",
                 "_a = env[_k3]\nst.frames[-1].env[_k3] = 2\n_c = env[_k3]",
                 # (written by any augmented assignment, or as one of a tuple's targets)
                 "_a = env[_k3]\nenv[_k3] //= 2\n_c = env[_k3]", "_a = env[_k3]\nenv[_k3] %= 2\n_c = env[_k3]",
                 "_a = env[_k3]\nenv[_k3] <<= 1\n_c = env[_k3]", "_a = env[_k3]\nenv[_k3], _b = 1, 2\n_c = env[_k3]"]:
        assert _read(text) == text.replace("_a = env[_k3]\n", "_a = env[_k3]\n"), text
    # (a procedure's call: its arguments read the Python local; after it, where a return may have
    # written into this environment, the frame is tested and the environment read again)
    assert _read("""
        _a = env[_k3]
        _depth = len(st.frames)
        _q9(st, _depth, env[_k3])
        fr.pc = pc = 6
        if st.frames[-1] is not fr:
            return steps
        _c = env[_k3]
        """) == textwrap.dedent("""\
        _a = (_env3 := env[_k3])
        _depth = len(st.frames)
        _q9(st, _depth, _env3)
        fr.pc = pc = 6
        if st.frames[-1] is not fr:
            return steps
        _c = env[_k3]""")
    # (a walk's variable, read by the lines after it in its branch)
    assert _read("env[_k4] = _seq[_i]\nenv[_k5] = (_seq, _i + 1)\n_p = env[_k4]") == \
        "env[_k4] = _env4 = _seq[_i]\nenv[_k5] = (_seq, _i + 1)\n_p = _env4"
