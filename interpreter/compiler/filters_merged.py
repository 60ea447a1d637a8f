"""Two filters of one list, one statement after the other, ``let a = [p for p in L if X is A]``
then ``let b = [p for p in L if X is B]``, made by one loop: each item's ``X`` computed once,
tested against ``A`` for the first list and against ``B`` for the second.

Both are lifted (comprehensions.py: loops in lines of their statements) and written one after
the other at one indentation: nothing runs between them but the first statement's own lines
(its tuple, its local, kept in the environment too where the procedure may pause), which
neither ``L`` nor ``X`` reads. The first loop computes ``X`` first for each item, as before:
where it fails, it fails at the same item with the same work charged. Where it does not, the
second loop, which would compute the same values from the same state, is made of them: an
identity test cannot fail. Its items are still charged, after the loop, at its own statement,
so that its step-budget error, if any, is where it was; nothing else differs before it.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rulelang.diagnostics import Span

_LISTED = [r"(_a\d+) = \[\]", r"(_s\d+) = (.+)"]
_CHARGED = ["_x = st.work + len({items})", "st.work = _x", "if _x > st.max_steps:", "    st.charge(0)"]
_READ_ONCE = r"(_h\d+) = (env\[_k\d+\]) if {items} else None"
_FILTER = [r"for (_v\d+) in {items}:", r"    if \(\((.+)\) is (_k\d+)\):", r"        {listed}\.append\({var}\)"]


def filters_merged(lines: list[tuple[str, Span | None]], second: list[str], indent: int,
                   fresh: Callable[[str], str]) -> list[str]:
    """``second`` (a lifted comprehension's lines, to be written at ``indent`` after ``lines``)
    made by the loop of the filter just before it, where both are such filters (that loop's
    lines changed in place); the lines left to write: its items charged. Else ``second``."""
    margin = "    " * indent
    theirs = _filter(second)
    if theirs is None:
        return second
    for size in (12, 11, 10):   # (with an entry read once or not; its local kept in the environment or not)
        window = [text for text, _ in lines[-size:]]
        if len(window) < size or not all(text.startswith(margin) for text in window):
            continue
        ours = _filter([text[len(margin):] for text in window[:-2 if window[-1].lstrip().startswith("env[") else -1]])
        if ours is not None and _same_filter(ours, theirs, window, margin):
            break
    else:
        return second
    at = len(lines) - size
    loop = at + 6 + (ours["entry"] is not None)
    value, span = fresh("_e"), lines[loop][1]
    item, body = ours["var"], f"{margin}    "
    lines[loop + 1:loop + 3] = [(text, span) for text in (
        f"{body}{value} = {ours['x']}",
        f"{body}if {value} is {ours['constant']}:", f"{body}    {ours['listed']}.append({item})",
        f"{body}if {value} is {theirs['constant']}:", f"{body}    {theirs['listed']}.append({item})")]
    lines.insert(at + 1, (f"{margin}{theirs['listed']} = []", lines[at][1]))
    return second[1:6]


def _filter(lines: list[str]) -> dict[str, str | None] | None:
    """The parts of a filter's lines (``_LISTED``, an entry maybe read once, ``_FILTER``), or None."""
    if len(lines) not in (9, 10):
        return None
    first, second = re.fullmatch(_LISTED[0], lines[0]), re.fullmatch(_LISTED[1], lines[1])
    if first is None or second is None:
        return None
    listed, items, source = first.group(1), second.group(1), second.group(2)
    if lines[2:6] != [line.format(items=items) for line in _CHARGED]:
        return None
    entry = re.fullmatch(_READ_ONCE.format(items=items), lines[6]) if len(lines) == 10 else None
    if len(lines) == 10 and entry is None:
        return None
    loop = lines[-3:]
    walk = re.fullmatch(_FILTER[0].format(items=items), loop[0])
    test = re.fullmatch(_FILTER[1], loop[1])
    if walk is None or test is None or loop[2] != f"        {listed}.append({walk.group(1)})":
        return None
    return {"listed": listed, "items": items, "source": source, "var": walk.group(1), "x": test.group(1),
            "constant": test.group(2), "entry": entry.group(2) if entry else None,
            "held": entry.group(1) if entry else None}


def _same_filter(ours: dict[str, str | None], theirs: dict[str, str | None], window: list[str], margin: str) -> bool:
    """Whether ``theirs`` filters the same source by the same value as ``ours`` (whose
    statement's lines are ``window``), which nothing that statement binds is read by."""
    bound = re.fullmatch(r"(_l\d+) = tuple\((_a\d+)\)", window[10 if ours["entry"] else 9][len(margin):]) \
        if len(window) > (10 if ours["entry"] else 9) else None
    if bound is None or bound.group(2) != ours["listed"] or ours["source"] != theirs["source"] \
            or ours["entry"] != theirs["entry"]:
        return False
    kept = [text.strip().split(" = ")[0] for text in window[(11 if ours["entry"] else 10):]]
    x = str(theirs["x"]).replace(str(theirs["var"]), str(ours["var"]))
    if theirs["held"] is not None:
        x = x.replace(str(theirs["held"]), str(ours["held"]))
    written = [bound.group(1), *kept]
    return x == ours["x"] and not any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", f"{x} {ours['source']}")
                                      for name in written)
