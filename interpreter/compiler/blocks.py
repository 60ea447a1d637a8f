"""The operations of a resumable function (resumable.py) as blocks entered at their first.

A resumable function once tested its program counter before every operation, and counted a
step after each: ``steps += 1; if steps > limit: raise``. Most operations go on to the next
one, and the function is entered at a few of them only: the start, where the run goes on
after a pause or a call, and where a jump or a test goes. A block is the run of operations
from one such entry up to the next entry or to the first operation that may go elsewhere
(pause, jump, call, or go on to a position known only when it runs); its operations run
one after the other with no test of the counter between them, and its steps are counted
together: before the block, ``steps + k > limit`` (its ``k`` operations would pass the
budget) hands the run to the run loop's ``run_one`` (one operation, as the run loop ran
them), which then fails at the very operation, count and program counter the operation by
operation form fails at; else the block runs and ``steps += k`` where its last operation
counted its step. A position no block starts at (a saved state's, or one that the run goes
on from only in a rare case) is run by ``run_one`` too, and the function is entered again
after it. The local ``pc`` is set only where a block ends; ``fr.pc`` where it was written
before (where something reads it). The function compiled keeps the counts but not these
tests (optimistic.py): it tests the budget only where it goes back, and a run that passes it
runs again one operation at a time, which fails where these tests make it fail.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..model.program import Code

__all__ = ["blocks_at", "dispatch", "entries", "jump_target"]

LEAF = 4  # the blocks of a range tested one by one
FAN = 4  # the ranges under one test of the counter's range, so a jump skips the others

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)
Block = tuple[int, "int | None", list[Line]]  # the operations a block starts at (a second: or None), its lines



def jump_target(box: object) -> int:
    """The operation a jump box (``[target]``, patched and threaded by now) goes to."""
    assert isinstance(box, list) and isinstance(box[0], int) and box[0] >= 0, "a jump was never patched"
    return box[0]


COUNTED = ("steps += 1", "if steps > limit:")  # where an operation counts its step (the raise follows)
_SETS = re.compile(r"(?<![.\w])pc = (.*)$")  # a line that sets the local counter (to what)
_TO = re.compile(r"(\d+)(?: if .* else (\d+))?")  # ... to a position, or to one of two by a test
_BOTH = re.compile(r"pc = (\d+) if (.*) else (\d+)")  # (at no indent, its last line) to one of two by a test


def split(lines: list[Line]) -> tuple[list[Line], list[Line]]:
    """The lines of one operation before the count of its step, and those after it."""
    for n in range(len(lines) - 2):
        if (lines[n][0], lines[n + 1][0]) == COUNTED:
            return lines[:n], lines[n + 3:]
    raise AssertionError("an operation that counts no step")


def goes_to(code: Code, at: int, lines: list[Line]) -> set[int] | None:
    """Where operation ``at`` (its ``lines``) may go on within the function: the positions
    its lines set the counter to; None where it may pause, end the game or change the
    running procedures, or goes on to a position known only when it runs."""
    if at not in code.local:
        return None
    found: set[int] = set()
    for line, _ in split(lines)[0]:
        sets = _SETS.search(line)
        if sets is None:
            continue
        to = _TO.fullmatch(sets.group(1))
        if to is None:
            return None
        found.update(int(n) for n in to.groups() if n is not None)
    return found


def entries(code: Code, operations: list[list[Line]]) -> tuple[set[int], set[int]]:
    """The operations the function is entered at, and those of them it is entered at only
    from outside: those the run goes on at within it (``_reached``); every operation that
    may pause, end the game or change the running procedures (a Python function of its
    procedure pushes its frame there), and every one the run stops before (``Code.stops``)."""
    reached = _reached(code, operations)
    outside = {*code.stops, *(at for at in range(len(operations)) if at not in code.local)}
    return reached | {at for at in outside if at < len(operations)}, outside - reached


def _reached(code: Code, operations: list[list[Line]]) -> set[int]:
    """The operations the run goes on at other than from the one before: the first; those a
    jump, a test or a 'for' goes to (other than on to the next); the one after an operation
    that goes on elsewhere than there, or to a position known only when it runs (where a
    decision goes on, after it or after the jump that follows it: past an 'otherwise', to
    a menu's option; where a call goes on), where something goes to it (``Code.resumed``):
    not after a 'break' or at the end of a menu's option that leaves it, where nothing does."""
    size = len(operations)
    found = {0}
    for at, lines in enumerate(operations):
        targets = goes_to(code, at, lines)
        if targets is None or (at + 1 not in targets and at + 1 in code.resumed):
            found.add(at + 1)
        found.update(target for target in targets or () if target != at + 1)
    return {at for at in found if 0 <= at < size}


def blocks_at(operations: list[list[Line]], code: Code, entered: tuple[Collection[int], Collection[int]],
              run_one: str) -> list[Block]:
    """The block that starts at each operation ``entered`` at (``entries``): its operations up to the
    next start, the first that may not go on to the next, or the end; ``run_one`` names the
    run loop's one operation, which runs a block that would pass the step budget. A start
    entered only from outside (where the run stops, or a frame is pushed) that the block
    before goes on to is that block's second entry, its step counted with theirs."""
    found: list[Block] = []
    starts, outside = entered
    for first in sorted(starts):
        last = first
        while last + 1 < len(operations) and last + 1 not in starts and last + 1 in (
                goes_to(code, last, operations[last]) or ()):
            last += 1
        before = found[-1] if found else None
        if before is not None and before[1] is None and first in outside and first == last and \
                first in (goes_to(code, first - 1, operations[first - 1]) or ()):
            found[-1] = (before[0], first, _side_entered(operations, before[0], first, run_one))
            continue
        found.append((first, None, _block(operations, first, last, run_one)))
    return found


def _side_entered(operations: list[list[Line]], first: int, side: int, run_one: str) -> list[Line]:
    """The lines of operations ``first`` to ``side``, entered at either end (at ``side``:
    that operation alone), the steps counted before the last runs (it reads none)."""
    head, tail = split(operations[side])
    return [(f"if pc == {first}:", None), *_indented(_run_to(operations, first, side, run_one)),
            (f"    steps += {side - first + 1}", None), ("else:", None),
            *_indented(_guarded(1, side, run_one)), ("    steps += 1", None), *head, *tail]


def _indented(lines: list[Line]) -> list[Line]:
    return [(f"    {line}", span) for line, span in lines]


def _guarded(count: int, first: int, run_one: str) -> list[Line]:
    """The test before ``count`` operations from ``first`` on: ``run_one`` runs them where
    they would pass the step budget."""
    return [(f"if steps + {count} > limit:   # (one operation at a time: the budget ends in it)", None),
            (f"    fr.pc = {first}", None),
            (f"    return {run_one}(st, fr, steps, limit)", None)]


def _run_to(operations: list[list[Line]], first: int, last: int, run_one: str) -> list[Line]:
    """The test of the budget before operations ``first`` to ``last``, then the lines of
    those before ``last``, each going on to the next (or leaving the block, its steps
    counted so far)."""
    lines = _guarded(last - first + 1, first, run_one)
    for at in range(first, last):
        head = [(line.replace("fr.pc = pc = ", "pc = "), span) for line, span in split(operations[at])[0]]
        lines += _going_on(head, at + 1, [f"steps += {at - first + 1}", "continue"])
    return lines


def _block(operations: list[list[Line]], first: int, last: int, run_one: str) -> list[Line]:
    """The lines of operations ``first`` to ``last``: one as it is, several with one count
    of their steps (and ``run_one`` where they would pass the budget). One that goes on
    elsewhere than the next leaves the block there, its steps counted so far."""
    if first == last:
        return operations[first]
    head, tail = split(operations[last])
    return [*_run_to(operations, first, last, run_one), *head, (f"steps += {last - first + 1}", None), *tail]


def _going_on(head: list[Line], following: int, leave: list[str]) -> list[Line]:
    """The lines ``head`` of an operation that may go on to operation ``following``, as a
    block runs them: the local ``pc`` set and ``leave`` where they go elsewhere, on to the
    next at once where they do (the frame's counter is read nowhere before it is written)."""
    if head[-1][0] == f"pc = {following}":
        return head[:-1]   # (it always goes on to the next)
    left: list[Line] = [(f"    {line}", None) for line in leave]
    tested = _tested(head[-1], following, left)
    if tested is not None:   # (a test)
        return [*head[:-1], *tested]
    texts = [line for line, _ in head]
    tried = _tested((texts[-3][4:], head[-3][1]), following, left) if len(head) > 3 and texts[-3].startswith(
        "    pc = ") and texts[-2] == "except KeyError as error:" and texts[-1].startswith("    raise ") else None
    if tried is not None:   # (a test of names that may have no value: its lines in 'try')
        return [*head[:-3], *((f"    {line}", line_span) for line, line_span in tried), *head[-2:]]
    otherwise = len(texts) - 1 - texts[::-1].index("else:") if "else:" in texts else 0
    branch = max((n for n in range(otherwise) if not texts[n].startswith(" ")), default=-1)
    if otherwise and texts[branch].startswith("if ") and texts[otherwise - 1].startswith("    pc = ") \
            and texts[-1] == f"    pc = {following}" and all(
                line.startswith("    ") for line in texts[branch + 1:otherwise] + texts[otherwise + 1:]):
        return [*head[:otherwise], *left, *((line[4:], span) for line, span in head[otherwise + 1:-1])]  # (a 'for')
    return [*head, (f"if pc != {following}:", None), *left]


def _tested(line: Line, following: int, left: list[Line]) -> list[Line] | None:
    """``pc = A if TEST else B``, one of them ``following``, as the lines that go on at once
    to it or set ``pc`` to the other and ``left`` (None for another line)."""
    both = _BOTH.fullmatch(line[0])
    if both is None or str(following) not in (both.group(1), both.group(3)):
        return None
    test, other = (f"if not ({both.group(2)}):", both.group(3)) if both.group(1) == str(following) else (
        f"if {both.group(2)}:", both.group(1))
    return [(test, line[1]), (f"    pc = {other}", line[1]), *left]


def dispatch(found: list[Block], end: int, indent: str) -> list[Line]:
    """The lines that run the blocks ``found`` (in order of their first operation) from
    ``pc`` on: a test of the counter's range for each of at most FAN ranges, nested down to
    LEAF blocks tested one by one (so a block is found in a few tests, and one that goes on
    to the next finds it at once); ``end``, the operation after the last block. A range's
    test needs no lower bound: a block that goes back (to a ``pc`` not past it) goes on at
    the top, so ``pc`` is at least the range's first where it is tested."""
    if len(found) <= LEAF:
        lines: list[Line] = []
        for first, side, body in found:
            tested = f"pc == {first}" if side is None else f"pc == {first} or pc == {side}"
            lines.append((f"{indent}if {tested}:", None))
            lines += [(indent + "    " + line, span) for line, span in body]
        return lines
    step = LEAF
    while step * FAN < len(found):
        step *= FAN
    lines = []
    for low in range(0, len(found), step):   # (a jump back skips the tests of the ranges after it)
        high = found[low + step][0] if low + step < len(found) else end
        lines.append((f"{indent}if pc < {high}:", None))
        lines += dispatch(found[low:low + step], high, indent + "    ")
    return lines
