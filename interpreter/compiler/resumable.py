"""The lowered code of a procedure that may pause as one resumable generated function.

The run loop of a state (``State._run_until_decision``) once dispatched every operation of
a lowered procedure (lower.py) itself: a round of its loop, a look-up and a call each. The
function written here runs the operations of one ``Code`` from ``frame.pc`` on, with an
explicit resume table: a test on the program counter before each operation, in order, so
that an operation that goes on to the next finds it at once. Jumps and the rounds of a
'for' are written inline; every other operation is called. It stops after an operation
that may pause, end the game or change the running procedures (one not in ``Code.local``),
and when the procedure is past its last operation (it returns); the run loop goes on from
there. A state's position stays its frames' program counters, so saved states, clones and
replays keep their meaning: the function is only a faster way to run the same operations,
each counted as one step as before, and ``frame.pc`` is the running operation whenever
one runs (errors are located by it). Code that Python cannot compile keeps ``run_one``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.program import Code, Run

if TYPE_CHECKING:
    from .module import Module

__all__ = ["write_run"]

LEAF = 4  # the operations of a range tested one by one
FAN = 4  # the ranges under one test of the counter's range, so a jump skips the others


def write_run(code: Code, module: Module) -> None:
    """Give ``code.ops`` its resumable function (left as it is if Python cannot compile it)."""
    name = module.fresh("_r")
    lines = [f"def {name}(st, fr, steps, limit):  # the resumable code of a procedure",
             "    env = fr.env", "    pc = fr.pc", "    while True:"]
    size = len(code.ops)
    lines += _ranges(code, module, 0, size, "        ")
    lines += [f"        if pc >= {size}:", "            st.pop(None)", "            return steps"]
    try:
        run: Run = module.define(name, "\n".join(lines) + "\n")
    except (SyntaxError, RecursionError, MemoryError):  # (too large for Python: run one by one)
        return
    code.ops.run = run


def _ranges(code: Code, module: Module, start: int, end: int, indent: str) -> list[str]:
    """The lines that run operations ``start`` to ``end - 1`` from ``pc`` on: a test of the
    counter's range for each of at most FAN ranges, nested down to LEAF operations tested one
    by one (so an operation is found in a few tests, and one that goes on to the next finds
    it at once). The first range's test needs no lower bound: ``pc`` is at least ``start``
    where it is made."""
    if end - start <= LEAF:
        lines: list[str] = []
        for at in range(start, end):
            lines.append(f"{indent}if pc == {at}:")
            lines += [indent + "    " + line for line in _operation(code, at, module)]
        return lines
    step = LEAF
    while step * FAN < end - start:
        step *= FAN
    lines = []
    for low in range(start, end, step):  # (a jump back skips the tests of the ranges after it)
        high = min(low + step, end)
        lines.append(f"{indent}if pc < {high}:" if low == start else f"{indent}if {low} <= pc < {high}:")
        lines += _ranges(code, module, low, high, indent + "    ")
    return lines


_COUNT = ["steps += 1", "if steps > limit:", "    raise _runaway(limit)"]
# After a call that pushed a frame: the called procedure runs (while Python's own calls stay
# within NESTED of each other), and its caller goes on if it is the innermost again.
NESTED = 48
_CALLED = ["_called = st.frames[-1]",
           f"if _called is fr or len(st.frames) > {NESTED}:",
           "    return steps",
           "steps = _called.code.run(st, _called, steps, limit)",
           "if st.pending is not None or st.terminal or st.frames[-1] is not fr:",
           "    return steps"]


def _operation(code: Code, at: int, module: Module) -> list[str]:
    """The lines that run operation ``at`` and leave ``pc`` (and ``fr.pc``) where it goes on."""
    shape = code.shapes.get(at)
    if shape is not None and shape[0] == "jump":
        target = _target(shape[1])
        back = ["continue"] if target <= at else []
        return [f"fr.pc = pc = {target}", *_COUNT, *back]
    if shape is not None and shape[0] == "for":
        walk, var, end = (module.constant(shape[1]), module.constant(shape[2]), _target(shape[3]))
        return [f"_seq, _i = env[{walk}]",
                "if _i >= len(_seq):",
                f"    del env[{walk}]",
                f"    fr.pc = pc = {end}",
                "else:",
                f"    env[{var}] = _seq[_i]",
                f"    env[{walk}] = (_seq, _i + 1)",
                f"    fr.pc = pc = {at + 1}",
                *_COUNT, *(["continue"] if end <= at else [])]
    if shape is not None and shape[0] == "start":  # a 'for' starts its walk: (the list, the next index)
        source = module.constant(shape[2], f"<the list of operation {at}>")
        return [f"env[{module.constant(shape[1])}] = (_as_list(st, {source}(st, env)), 0)",
                f"fr.pc = pc = {at + 1}", *_COUNT]
    if shape is not None and shape[0] == "drop":  # a 'for' left by a jump out of it: its walk dropped
        return [f"env.pop({module.constant(shape[1])}, None)", f"fr.pc = pc = {at + 1}", *_COUNT]
    op = module.constant(code.ops[at], f"<operation {at}>")
    if shape is not None and shape[0] == "push":  # the call runs here, and the caller goes on after it
        return [f"{op}(st, fr)", *_COUNT, *_CALLED, "pc = fr.pc"]
    if shape is not None and shape[0] == "unpaused":  # a call that pushed frames only if it paused
        return [f"{op}(st, fr)", *_COUNT, "if st.frames[-1] is not fr:", *("    " + line for line in _CALLED),
                "pc = fr.pc"]
    if at in code.local:
        return [f"{op}(st, fr)", *_COUNT, "pc = fr.pc"]
    return [f"{op}(st, fr)", *_COUNT, "return steps"]


def _target(box: object) -> int:
    """The operation a jump box (``[target]``, patched and threaded by now) goes to."""
    assert isinstance(box, list) and isinstance(box[0], int) and box[0] >= 0, "a jump was never patched"
    return box[0]
