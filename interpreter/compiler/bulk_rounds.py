"""The rounds of a compiled 'for' charged at once, where nothing in its body counts a step.

A round of a loop written as Python counts a step in place (``ProcedureWriter.step``): past
``max_steps`` it fails with E603 at the loop. A loop whose body counts no step of its own (no
loop, no call of a procedure or of a function of the ruleset) and cannot leave before its last
round (no 'break', no 'return') reads ``st.rounds`` only in those tests; when all its rounds
fit within the budget, no round can fail, so they are charged together before the first one
and each round only tests a flag. Otherwise each round counts its step as before: the same
count, and E603 at the same round, at every budget.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import get_args

from rulelang import ast
from rulelang.check.tree import walk
from rulelang.diagnostics import Span

from .invariant_fields import fields_read_once

# The statements a body charged at once may hold: none counts a step, none leaves the loop.
_COUNTING_NO_STEP = (ast.Block, ast.Let, ast.Assign, ast.If, ast.Move, ast.Gain, ast.Pay, ast.Log, ast.Reveal,
                     ast.Narrate, ast.Turn, ast.Continue)
_STATEMENTS = (*get_args(ast.Stmt), ast.Option)


def charged_at_once(body: ast.Block, functions: Collection[str]) -> bool:
    """Whether every round of a loop of ``body`` may be charged before the first: it holds only
    statements that count no step and run to their end, and calls none of ``functions`` (the
    ruleset's, which count a step each)."""
    for node in walk(body):
        if isinstance(node, _STATEMENTS) and not isinstance(node, _COUNTING_NO_STEP):
            return False
        if isinstance(node, ast.Call) and node.function in functions:
            return False
    return True


def charge_lines(items: str, flag: str) -> list[str]:
    """The lines before such a loop over the list ``items``: ``flag`` set where all its rounds
    fit within the budget, and then those rounds counted."""
    return [f"{flag} = st.rounds + len({items}) <= st.max_steps",
            f"if {flag}:",
            f"    st.rounds += len({items})"]


def read_before_the_rounds(lines: list[tuple[str, Span | None]], at: int, charged: str | None, items: str,
                           fresh: Callable[[str], str]) -> None:
    """For a loop whose ``for`` is ``lines[at]`` (over ``items``) charged at once (``charged``:
    its rounds call no procedure), the state's lists and an entry of the environment its body
    reads read before its rounds (``hold_state_lists``, ``entry_read_once``); others as they are.
    In any loop, a field of a component its body reads more than once, of a local it uses only
    so, read before it (``fields_read_once``)."""
    at = fields_read_once(lines, at, fresh)
    if charged is not None:
        entry_read_once(lines, hold_state_lists(lines, at, fresh), charged, items, fresh)


# The state's own lists a round of moves reads: no statement of a body charged at once binds
# them again (a State makes them once; only clone, restore and setup make others).
_STATE_LIST = re.compile(r"\bst\.(zones|component_zone|component_knowledge|event_log)\b")


def hold_state_lists(lines: list[tuple[str, Span | None]], at: int, fresh: Callable[[str], str]) -> int:
    """Before the loop of such a body whose ``for`` is ``lines[at]``: each of the state's lists
    that its body reads more than once a round read into a local, which the body reads; where
    the ``for`` is then."""
    indent = len(lines[at][0]) - len(lines[at][0].lstrip())
    end = at + 1
    while end < len(lines) and (len(lines[end][0]) - len(lines[end][0].lstrip()) > indent or not lines[end][0].strip()):
        end += 1
    body = " ".join(text for text, _ in lines[at + 1:end])
    held = {name: fresh("_y") for name in sorted(set(_STATE_LIST.findall(body)))
            if len(re.findall(rf"\bst\.{name}\b", body)) > 1}
    if not held:
        return at
    for k in range(at + 1, end):
        text, span = lines[k]
        lines[k] = _STATE_LIST.sub(lambda m: held.get(m.group(1), m.group(0)), text), span
    span = lines[at][1]
    lines[at:at] = [(f"{' ' * indent}{local} = st.{name}", span) for name, local in held.items()]
    return at + len(held)


def entry_read_once(lines: list[tuple[str, Span | None]], at: int, charged: str, items: str,
                    fresh: Callable[[str], str]) -> None:
    """The loop of ``for`` ``lines[at]``, charged at once (``charged``, over ``items``), whose
    body starts with a line that first reads an entry of the environment (``x = env[K]...``),
    which no line of it writes (nor the frame or the environment whole): that entry read once
    before the loop where its rounds are charged and it has items, else after each round's
    step, into a local that the body reads (the same read first at the same point, at the
    same span: nothing before it in a round but the step)."""
    indent = len(lines[at][0]) - len(lines[at][0].lstrip())
    if at + 5 >= len(lines) or lines[at + 1][0] != f"{' ' * (indent + 4)}if not {charged}:" \
            or lines[at + 4][0].strip() != "st.rounds += 1":   # (the round's step: bulk_rounds' form)
        return
    first = re.match(r" *\w+ = env\[(_k\d+)\]", lines[at + 5][0])
    end = at + 1
    while end < len(lines) and len(lines[end][0]) - len(lines[end][0].lstrip()) > indent:
        end += 1
    if first is None or end <= at + 5:
        return
    entry = f"env[{first.group(1)}]"
    body = [text for text, _ in lines[at + 5:end]]
    if entry in lines[at][0]:   # (the loop's own variable: 'for env[K] in ...' writes it each round)
        return
    if any(_WRITTEN.search(text.replace(entry, "_")) or re.search(rf"{re.escape(entry)}\s*(?:[-+*/|&]?=[^=])", text)
           for text in body):
        return
    local, span = fresh("_h"), lines[at + 5][1]
    for k in range(at + 5, end):
        lines[k] = lines[k][0].replace(entry, local), lines[k][1]
    lines.insert(at + 5, (f"{' ' * (indent + 8)}{local} = {entry}", span))
    lines.insert(at, (f"{' ' * indent}{local} = {entry} if {items} and {charged} else None", span))


_WRITTEN = re.compile(r"\bfr\b|\benv\b(?!\[_k\d+\])|\bdel env\b|\benv\.")   # (the frame, or its locals whole)
