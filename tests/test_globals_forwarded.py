"""A global variable read just after the generated code wrote it reads the local it was
written from (compiler/globals_forwarded.py), and a loop's guard that the test before it
already decided is left out (compiler/tests_proven.py): the same errors, spans, counters
where the budget ran out, states and work at every step budget as the code that reads the
variables' dict each time and tests the guard, and as the run loop running one operation at
a time."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from test_blocks import counters_recorded, failures_where_all_agree, one_by_one

import rulelang
from rulelang.diagnostics import Span
from rulelang.interpreter.compiler import globals_forwarded, procedures, resumable, tests_proven, unpaused

__all__ = ["counters_recorded"]   # (the fixture, used by name)

# (raid: a 'for' over a list whose first test and the 'while' after it compare the same two
# int variables, a menu in the loop, a variable written then logged and tested; tally, a
# procedure that never pauses; the division fails, and the budget runs out, at some steps)
RULES = """\
    game "F" { players 2 }
    var drawn: int = 0
    var cap: int = 0
    var total: int = 0
    var line: list[player] = players
    procedure tally(k: int) {
      total += k
      cap = total % 3 + k
      log "tally " + total + " cap " + cap
      if total > cap { total = total % 90 }
    }
    procedure raid() {
      cap = total % 5 + 2
      drawn = 0
      log "cap " + cap + ", drawn " + drawn
      for q in line {
        if drawn >= cap {
          break
        }
        let lost = false
        while drawn < cap {
          choose by q {
            option "draw" {
              drawn += 1
              log "" + q + " draws (" + drawn + " of " + cap + ")"
              total += 60 / (total % 11 - 5)
              if total % 7 == 0 {
                lost = true
                break
              }
            }
            option "stop" {
              break
            }
          }
        }
        if lost {
          total += drawn
        }
      }
    }
    phase p {
      repeat {
        call raid()
        call tally(drawn)
        if total > 150 { end game }
      }
    }
"""


def _plain(lines: list[tuple[str, object]], *_: object) -> list[tuple[str, object]]:
    return lines


@pytest.mark.usefixtures("counters_recorded")
def test_variables_read_from_their_written_locals_and_guards_left_out_agree_with_the_general_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(RULES), encoding="utf-8")
    kept = rulelang.load(path)
    with monkeypatch.context() as patch:   # (every variable read from the dict, every guard tested)
        for module in (resumable, unpaused, procedures):
            patch.setattr(module, "globals_forwarded", _plain)
        patch.setattr(resumable, "tests_proven", _plain)
        general = rulelang.load(path)
    slow = one_by_one(rulelang.load(path))
    code, plain = kept.generated_code(), general.generated_code()
    guard = r"if not \(\(_st_global_values\[_k\d+\] < _st_global_values\[_k\d+\]\)\):"
    assert len(re.findall(guard, code)) < len(re.findall(guard, plain))   # (the guard after the test)
    assert re.search(r"if not \(\(_t\d+ < _st_global_values\[_k\d+\]\)\):", code)   # (drawn += 1, then its test)
    assert re.search(r"st\.log_lines\.append\(\(_k\d+, _env\d+, _t\d+, ", code) or \
        re.search(r"st\.log_lines\.append\(\(_k\d+, env\[_k\d+\], _t\d+, ", code)   # (and its log line)
    assert re.search(r"st\.log_lines\.append\(\(_k\d+, _t\d+, _k\d+, \)\)", code)   # (cap = ..., drawn = 0, logged)
    assert not re.search(r"_t\d+ <", plain)
    failures = {str(f[0]).split(": ")[1][:4] for f in failures_where_all_agree((kept, general, slow), 4, range(1, 120))}
    assert "E603" in failures and len(failures) > 1, failures   # (the budget, and the division)


def _lines(text: str) -> list[tuple[str, Span | None]]:
    return [(line, None) for line in textwrap.dedent(text).strip("\n").split("\n")]


def _forwarded(text: str) -> str:
    return "\n".join(line for line, _ in globals_forwarded.globals_forwarded(_lines(text)))


_WRITE = textwrap.dedent("""\
    def f(st):
        _t3 = _updated(st.global_values[_k1], _k2, _k9)
        if st.event_log is None:
            st.global_values[_k1] = _t3
        else:
            _set_global(st, _k1, _t3)
""")


def test_a_read_after_the_write_reads_its_local_up_to_what_may_change_it() -> None:
    text = _WRITE + textwrap.indent(textwrap.dedent("""\
        log(st.global_values[_k1], st.global_values[_k5])
        if x:
            _say(st, _k7, (st.global_values[_k1], ))
        st.global_values[_k8] += 1
        y = st.global_values[_k1]
    """), "    ")
    assert _forwarded(text).split("\n")[6:] == [
        "    log(_t3, st.global_values[_k5])",
        "    if x:",
        "        _say(st, _k7, (_t3, ))",
        "    st.global_values[_k8] += 1",   # (a variable written otherwise: nothing known after it)
        "    y = st.global_values[_k1]"]


@pytest.mark.parametrize("line", [
    "_p3(st, 1)",                    # (the state handed to a procedure)
    "_k40(st, fr, _p)",              # (to a helper)
    "st.pop(None)",                  # (a method of the state that may write one)
    "_set_global(st, _k8, 3)",       # (another variable written: any write stops it)
    "_t3 = 4",                       # (the local bound again)
    "_t3, _z = 4, 5",
    "del _t3",
])
def test_a_line_that_may_change_the_variable_or_its_local_stops_it(line: str) -> None:
    text = _WRITE + f"    {line}\n    y = st.global_values[_k1]\n"
    assert _forwarded(text).split("\n")[-1] == "    y = st.global_values[_k1]"


@pytest.mark.parametrize("operator", ["=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=",
                                      "@="])
def test_a_store_to_the_variable_is_left_a_store_and_stops_it(operator: str) -> None:
    store = f"    st.global_values[_k1] {operator} 2"
    assert _forwarded(f"{_WRITE}{store}\n    y = st.global_values[_k1]\n").split("\n")[-2:] == [
        store, "    y = st.global_values[_k1]"]


@pytest.mark.parametrize("comparison", ["==", "!=", "<=", ">=", "<", ">"])
def test_a_comparison_of_the_variable_is_a_read(comparison: str) -> None:
    text = _WRITE + f"    y = st.global_values[_k1] {comparison} 2\n"
    assert _forwarded(text).split("\n")[-1] == f"    y = _t3 {comparison} 2"


@pytest.mark.parametrize(("loop", "forwarded"), [
    ("for _v in _s:\n        n += st.global_values[_k1]\n", True),
    ("for _v in _s:\n        n += st.global_values[_k1]\n        _p3(st)\n", False),   # (round 2 after a call)
    ("for _t3 in _s:\n        n += st.global_values[_k1]\n", False),   # (binds the local)
    ("while st.global_values[_k1] < 3:\n        _t3 = 1\n", False),
])
def test_a_loop_is_entered_only_if_none_of_its_lines_stops_it(loop: str, forwarded: bool) -> None:
    text = _forwarded(_WRITE + "    " + loop)
    assert ("st.global_values[_k1]" not in "\n".join(text.split("\n")[6:])) is forwarded


def test_a_read_in_another_branch_or_after_leaving_the_block_reads_the_dict() -> None:
    text = """\
        def f(st):
            if a:
                if st.event_log is None:
                    st.global_values[_k1] = _t3
                else:
                    _set_global(st, _k1, _t3)
                b = st.global_values[_k1]
            else:
                c = st.global_values[_k1]
            d = st.global_values[_k1]
    """
    assert _forwarded(text).split("\n")[6:] == [
        "        b = _t3", "    else:", "        c = st.global_values[_k1]", "    d = st.global_values[_k1]"]
    held = text.replace("b = st.global_values[_k1]", "g = st.global_values")   # (the table held elsewhere)
    assert _forwarded(held) == textwrap.dedent(held).strip("\n")


def _proven(text: str) -> str:
    return "\n".join(line for line, _ in tests_proven.tests_proven(_lines(text), {"_k1", "_k2"}))


_GUARDED = """\
    def f(st):
        if not ((st.global_values[_k1] >= st.global_values[_k2])):
            pc = 6
            env[_k5] = False
            if not ((st.global_values[_k1] < st.global_values[_k2])):
                pc = 18
                break
            steps += 2
"""


def test_a_guard_decided_by_the_test_around_it_is_left_out() -> None:
    assert _proven(_GUARDED).split("\n")[3:] == ["        env[_k5] = False", "        steps += 2"]


@pytest.mark.parametrize(("change", "kept"), [
    (("env[_k5] = False", "_p3(st)"), True),                   # (a call between: it may write them)
    (("env[_k5] = False", "st.global_values[_k1] = 3"), True),
    (("<", "<="), True),                                       # (not the opposite test)
    (("_k2", "_k7"), True),                                    # (a variable not declared int)
    (("steps += 2", "else:\n                steps += 2"), True),   # (its 'else' would be left alone)
    (("env[_k5] = False", "while x:\n                env[_k5] = False"), True),
])
def test_a_guard_is_kept_unless_certainly_decided(change: tuple[str, str], kept: bool) -> None:
    text = _GUARDED.replace(*change) if change[0] != "<" else _GUARDED.replace(" < ", " <= ")
    assert ("_k1] <" in _proven(text)) is kept


def test_a_guard_alone_in_its_block_leaves_a_pass() -> None:
    text = """\
        def f(st):
            if not ((st.global_values[_k1] > st.global_values[_k2])):
                if x:
                    if not ((st.global_values[_k1] <= st.global_values[_k2])):
                        break
                y = 1
    """
    assert _proven(text).split("\n")[2:] == ["        if x:", "            pass", "        y = 1"]


@pytest.mark.parametrize(("branch", "forwarded"), [
    ("if _decide:\n    _k40(st, _f, _p)\n    return _DECIDED\n", True),   # (it leaves: nothing after it)
    ("if _decide:\n    _k40(st, _f, _p)\n    raise _runaway(1)\n", True),
    ("if a:\n    pass\nelse:\n    _k40(st, _f, _p)\n    return 1\n", True),
    ("if _decide:\n    _k40(st, _f, _p)\n", False),   # (it goes on after)
    ("if _decide:\n    _k40(st, _f, _p)\n    continue\n    return 1\n", False),   # (a jump that may leave it)
    ("if _decide:\n    if b:\n        return 2\n    _k40(st, _f, _p)\n", False),   # (its last line goes on)
    ("try:\n    _k40(st, _f, _p)\n    return 1\nexcept KeyError:\n    pass\n", False),   # (a 'try' may go on after)
])
def test_a_branch_that_leaves_the_function_stops_nothing_after_it(branch: str, forwarded: bool) -> None:
    # (a procedure's function makes the decision it pauses at in such a branch: decided.py)
    lines = _WRITE + textwrap.indent(branch, "    ") + "    y = st.global_values[_k1]\n"
    assert (_forwarded(lines).split("\n")[-1] == "    y = _t3") is forwarded
    looped = _WRITE + "    while x:\n" + textwrap.indent(branch, "        ") + "        y = st.global_values[_k1]\n"
    assert (_forwarded(looped).split("\n")[-1] == "        y = _t3") is forwarded


def test_what_a_branch_that_leaves_binds_is_bound_in_it_only() -> None:
    text = _WRITE + textwrap.indent(textwrap.dedent("""\
        if a:
            b = st.global_values[_k1]
            _t3 = 4
            c = st.global_values[_k1]
            return None
        d = st.global_values[_k1]
    """), "    ")
    assert [line.strip() for line in _forwarded(text).split("\n")[7:]] == [
        "b = _t3", "_t3 = 4", "c = st.global_values[_k1]", "return None", "d = _t3"]
