"""A call of a small function of the rules in the element of a comprehension written as
loops (``comprehensions.lifted``), or in the left side of a function's ``a or b`` that
returns it if it decides (``loops._returned``), written in place before that value: its
charge as its prologue makes it (the same work), the function itself called where that
charge passes the budget (the same E603, raised by the call, in the same statement), then
its one value. Only where the call is computed first, and once: nothing the element
computes before it can fail or charge (a table not yet read, a call not yet made:
``_plus(st, ``), and it is in no value Python computes after what follows it or not at all
(``A if C else B``, a comprehension's element); and only a function whose code is its
prologue and one value without calls, tables or environment, of locals as arguments: the
same work, errors and values, with no call made an item. The lines read and write the
work of the state, so a function's body with them never counts its work in a local
(``loops.work_kept``: a line that uses the state otherwise leaves the count to the state)."""
from __future__ import annotations

import re

from .module import Module

_CALL = re.compile(r"\b(_fn\d+)\(st, (_v\d+)\)")
"""A call of a function of the rules that needs no depth, of one local."""

_BEFORE = re.compile(r"(?:(?:st\.\w+|_k\d+)\[|\(|\w+\((?:st, )?|sum\(_a\d+\), )*")
"""What an element may compute before the call: tables of the state or constants not yet
read (subscripts not closed), calls not yet made (their first argument the call): nothing
that fails or charges; or the sum of a list already made (``aggregates``: of integers it
cannot overflow), which cannot fail or charge either."""

_DEFERRED = re.compile(r"\b(?:if|for|lambda)\b")
"""After the call, what would make Python compute it after a later value, several times or
not at all: the call is then left as it is (where the words are not of these, a call that
could be written in place is left too)."""

_SMALL = re.compile(r"def (\w+)\(st, (_v\d+)\):  # [^\n]*\n"
                    r"    _w = st\.work \+ (\d+)\n    st\.work = _w\n"
                    r"    if _w > st\.max_steps:\n        st\.charge\(0\)\n"
                    r"    return ([^\n]*)\n")
"""The source of a small function: its prologue (its charge), then one value."""

def in_place(module: Module, element: str) -> tuple[list[str], str]:
    """The lines to run before ``element`` and the element then, its first call of a small
    function written in place (none: no lines, ``element`` as it is)."""
    call = _CALL.search(element)
    if call is None or not _BEFORE.fullmatch(element[:call.start()]) or _DEFERRED.search(element, call.end()):
        return [], element
    value = _small_value(module.units.get(call.group(1), ""), call.group(2))
    if value is None:
        return [], element
    work, result = module.fresh("_w"), module.fresh("_c")
    lines = [f"{work} = st.work + {value[0]}", f"if {work} > st.max_steps:", f"    {call.group(0)}",
             f"st.work = {work}", f"{result} = {value[1]}"]
    return lines, element[:call.start()] + result + element[call.end():]


def _small_value(source: str, argument: str) -> tuple[str, str] | None:
    """The work a small function charges and its value of ``argument`` (None: not small)."""
    found = _SMALL.fullmatch(source)
    if found is None:
        return None
    value = found.group(4)
    if re.search(r"\w\(|\b_t\d|\benv\b|\b_depth\b|\bst\b", value):
        return None
    return found.group(3), re.sub(rf"\b{found.group(2)}\b", argument, value)
