"""any() and all() over the indices of spaces known at load (searches.py), written out item
by item: each index a literal of the code, no loop, no charge tested per item.

The loop of ``searches._deciding`` over such a list (one level: spaces; two: lists of
spaces, each of one length, gone through by an inner any()/all()) is matched line by line;
its test of an item (``VALUE``) is written once per index, the locals of the running
procedure it reads (``env[KEY]``) read once before. The lines run only where the work the
whole search could charge stays within the budget and every such local has a value: there
no charge can fail and no read can raise, so the first deciding item gives the result and
the work its loop would have counted. Elsewhere the loop runs as it was written.
"""
from __future__ import annotations

import re

from .patterns import pattern

__all__ = ["unrolled"]

MOST_TESTS = 64  # the tests of items written out at most (more: the loop as written)

_FOUND = {"any": ("False", "True"), "all": ("True", "False")}  # (the result if no item decides, if one does)
_ENV_READ = re.compile(r"\benv\[(_k\d+)\]")


def unrolled(loop: list[str], name: str, indices: tuple[object, ...]) -> list[str] | None:
    """The lines that give ``any``/``all`` (``name``) over ``indices`` written out, before the
    ``loop`` that ``searches._deciding`` wrote for them (its work counted in ``_w``); None if
    the loop is not of a shape this knows or the list is too long."""
    if name not in _FOUND or not indices:
        return None
    if all(type(index) is int for index in indices):
        return _written_out(loop, name, [(index,) for index in indices], None, 0)
    items = [item for item in indices if type(item) is tuple]
    lengths = {len(item) for item in items}
    if len(items) != len(indices) or len(lengths) != 1 or (length := lengths.pop()) < 1 \
            or len(items) * length > MOST_TESTS or not all(type(i) is int for item in items for i in item):
        return None
    inner = _inner_name(loop)
    return None if inner is None else _written_out(loop, name, items, inner, length)


def _inner_name(loop: list[str]) -> str | None:
    """any or all: the inner search of a loop of two levels (None: not of that shape)."""
    if len(loop) != 16 or not re.fullmatch(r"    _r\d+ = (True|False)", loop[8]):
        return None
    return "any" if loop[8].endswith("False") else "all"


def _written_out(loop: list[str], name: str, items: list[tuple[object, ...]], inner: str | None,
                 length: int) -> list[str] | None:
    """``unrolled``'s lines for ``items`` (each a tuple of indices; of one index if ``inner``
    is None, the loop of one level)."""
    count = len(items)
    value = _value(loop, name, count, inner, length)
    if value is None:
        return None
    test, var = value
    keys = sorted(set(_ENV_READ.findall(test)))
    test = _ENV_READ.sub(lambda m: "_h" + m.group(1)[2:], test)
    joined = " and " if inner == "all" else " or "
    total = count + length * count
    lines = [f"if _w + {total} <= _limit{''.join(f' and {key} in env' for key in keys)}:",
             *(f"    _h{key[2:]} = env[{key}]" for key in keys)]
    missing, found = _FOUND[name]
    negation = "" if name == "any" else "not "
    variable = pattern(rf"\b{var}\b")
    tests = [[f"({variable.sub(str(index), test)})" for index in item] for item in items]
    position = 0
    for group in _sharing_their_first_test(tests, name == "any" and inner == "all"):
        shared, indent = (group[0][0], "        ") if len(group) > 1 else (None, "    ")
        if shared is not None:   # (read once: every item of the group needs it)
            lines.append(f"    if {shared}:")
        for each in group:
            position += 1
            rest = each[1:] if shared is not None else each
            lines += [f"{indent}if {negation}({joined.join(rest)}):",
                      f"{indent}    st.work = _w + {count + length * position}", f"{indent}    return {found}"]
    return [*lines, f"    st.work = _w + {total}", f"    return {missing}"]


def _sharing_their_first_test(tests: list[list[str]], grouped: bool) -> list[list[list[str]]]:
    """The items' tests (each a conjunction: ``grouped``) in runs of items that begin with the
    same test, in order: a run's first test is made once (a test reads the state, changes
    nothing and fails nowhere, so one that fails fails for every item of the run)."""
    runs: list[list[list[str]]] = []
    for each in tests:
        if grouped and len(each) > 1 and runs and runs[-1][0][0] == each[0]:
            runs[-1].append(each)
        else:
            runs.append([each])
    return runs


def _value(loop: list[str], name: str, count: int, inner: str | None, length: int) -> tuple[str, str] | None:
    """The test of an item in ``loop`` (the searched item's variable in it) and that variable,
    if the loop is exactly of the shape ``searches._deciding`` writes (None otherwise)."""
    start, found = _FOUND[name]
    if loop[:4] != [f"_w += {count}", *_CHARGE, f"_found = {start}"]:
        return None
    outer = re.fullmatch(r"for (_v\d+) in _source:", loop[4])
    if outer is None:
        return None
    deciding = [f"_found = {found}", "break"]
    if inner is None:
        test = _tested(loop[5], name)
        shape = len(loop) == 8 and [line.strip() for line in loop[6:]] == deciding
        return (test, outer.group(1)) if test is not None and shape else None
    _, decided = _FOUND[inner]
    result = loop[8].split(" = ")[0].strip()
    walk = pattern(rf"    for (_v\d+) in {outer.group(1)}:").fullmatch(loop[9])
    test = _tested(loop[10], inner)
    if [line.strip() for line in loop[5:8]] != [f"_w += {length}", *(line.strip() for line in _CHARGE)] \
            or walk is None or test is None or pattern(rf"\b{outer.group(1)}\b").search(test):
        return None
    negation = "" if name == "any" else "not "
    rest = [f"{result} = {decided}", "break", f"if {negation}{result}:", *deciding]
    return (test, walk.group(1)) if [line.strip() for line in loop[11:]] == rest else None


_CHARGE = ["if _w > _limit:", "    st.charge(_w - st.work)"]


def _tested(line: str, name: str) -> str | None:
    """The test of ``if TEST:`` (any) or ``if not TEST:`` (all)."""
    prefix = "if " if name == "any" else "if not "
    text = line.strip()
    return text[len(prefix):-1] if text.startswith(prefix) and text.endswith(":") else None
