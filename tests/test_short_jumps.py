"""Generated code whose comparisons CPython 3.11 can specialise (compiler/short_jumps.py).

A comparison followed by a long conditional jump (an ``EXTENDED_ARG`` between them) is never
specialised by 3.11: such a test is compiled as ``(T) or False``, which jumps into its body
over a short distance. Each test compares the code with the general path (the source compiled
as written, each operation run alone) or fails without its step.
"""
from __future__ import annotations

import dis
import sys
import types
from pathlib import Path

import pytest
from test_blocks import RULES as BLOCKS
from test_blocks import failures_where_all_agree
from test_host_path import run_one_by_one
from test_host_run_entry import CALLS

import rulelang
from rulelang.interpreter.compiler import short_jumps

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="a rewrite for CPython 3.11's specialiser")

GAMES = Path(__file__).resolve().parent.parent / "games"
LONG = "\n".join(f"        x = x + {i} * y" for i in range(60))
SOURCE = f"""\
def f(pc, y):
    x = 0
    if pc == 9:  # (a comment stays)
{LONG}
    elif pc < 20:
{LONG}
    if pc == 30:
        x = 1
    while x < 5000 and pc > 2:
{LONG}
        x = x + 1000
    return x
"""


def _functions(game: rulelang.Game) -> list[types.CodeType]:
    namespace = game.program.generated.namespace   # type: ignore[attr-defined]
    return [value.__code__ for name, value in namespace.items() if isinstance(value, types.FunctionType)
            and value.__code__.co_filename.startswith("<rules:")]


def _plain(monkeypatch: pytest.MonkeyPatch, text: str) -> rulelang.Game:
    """``text`` loaded with its source compiled as written (the general path)."""
    with monkeypatch.context() as patched:
        patched.setattr(short_jumps, "APPLIES", False)
        return rulelang.load(text)


def test_only_the_tests_whose_jump_is_long_are_written_otherwise() -> None:
    lines = short_jumps.long_tests(compile(SOURCE, "<s>", "exec"))
    assert lines == {3, 64, 127}   # (the short `if pc == 30:` stays)
    written = short_jumps.rewritten(SOURCE).split("\n")
    assert written[2] == "    if (pc == 9) or False:  # (a comment stays)"
    assert written[63] == "    elif (pc < 20) or False:"
    assert written[126] == "    while (x < 5000 and pc > 2) or False:"
    assert written[124] == "    if pc == 30:" and len(written) == len(SOURCE.split("\n"))
    # (only a while's test again at the end of its body, which jumps back over it, is left)
    assert short_jumps.long_tests(compile("\n".join(written), "<s>", "exec")) == {127}


def test_a_rewritten_test_is_specialised_and_means_what_it_meant() -> None:
    plain: dict[str, object] = {}
    fast: dict[str, object] = {}
    exec(compile(SOURCE, "<s>", "exec"), plain)   # (our own source)
    exec(short_jumps.compiled(SOURCE, "<s>", 0), fast)
    for pc in range(40):
        for y in (0, 1, 3):
            assert fast["f"](pc, y) == plain["f"](pc, y)   # type: ignore[operator]
    assert _comparisons(fast["f"])[3] == _comparisons(fast["f"])[64] == {"COMPARE_OP_INT_JUMP"}
    assert _comparisons(plain["f"])[3] == _comparisons(plain["f"])[64] == {"COMPARE_OP"}


def _comparisons(function: object) -> dict[int, set[str]]:
    """The comparisons of ``function`` as it runs now (specialised or not), by line."""
    found: dict[int, set[str]] = {}
    for instruction in dis.get_instructions(function, adaptive=True):   # type: ignore[call-overload]
        if instruction.opname.startswith("COMPARE_OP") and instruction.positions is not None:
            found.setdefault(instruction.positions.lineno or 0, set()).add(instruction.opname)
    return found


@pytest.mark.parametrize("path", sorted(p.name for p in GAMES.glob("*.rules")))
def test_no_test_of_a_seed_game_has_a_long_jump_after_its_comparison(path: str) -> None:
    game = rulelang.load(GAMES / path)
    units = game.program.generated.units   # type: ignore[attr-defined]
    for code in _functions(game):
        lines = units[code.co_name].split("\n")
        for line in short_jumps.long_tests(code):   # (left: a while's test again at the end of its body,
            text = lines[line - 1].strip()           # and a comparison whose jump goes over a long operand after it)
            assert text.startswith("while ") or " and " in text or " or " in text, (code.co_name, text)
    if path == "jolly_roger.rules":   # (none left; as written, its resumable functions' dispatch has them)
        assert not any(short_jumps.long_tests(code) for code in _functions(game))
        assert short_jumps.long_tests(compile(game.generated_code(), "<all>", "exec"))


@pytest.mark.parametrize("text", [BLOCKS, CALLS], ids=["blocks", "calls"])
def test_states_errors_and_budgets_are_those_of_the_source_as_written(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, plain, slow = rulelang.load(text), _plain(monkeypatch, text), run_one_by_one(rulelang.load(text))
    assert not any(short_jumps.long_tests(code) for code in _functions(fast))
    assert any(short_jumps.long_tests(code) for code in _functions(plain))
    failures = failures_where_all_agree((fast, plain, slow), 3, range(1, 90))
    assert len(failures) >= 5
    assert failures_where_all_agree((fast, plain), 3, range(10_000, 10_001)) == failures_where_all_agree(
        (slow,), 3, range(10_000, 10_001))

