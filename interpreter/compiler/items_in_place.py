"""The clause ``for v in _items(st, SOURCE)`` of a comprehension written as loops
(``comprehensions.lifted``) as the lines ``runtime.items`` runs, then the loop over their
list: the source's list (``sequence`` of what is not a tuple: the same error), its items
charged as ``State.charge`` charges them where there are any (the same work, the same
E603), with no call made a source."""
from __future__ import annotations

import re

from .module import Module

_CLAUSE = re.compile(r"for (\w+) in _items\(st, (.*)\)")
"""A clause over the items ``runtime.items`` gives of a source, before its source is
known to be the call's one argument."""


def clause_lines(module: Module, clause: str) -> list[str]:
    """The lines (not indented, the loop last, without its colon) that run ``clause``:
    the clause as it is where it is not over ``_items`` of one source."""
    found = _CLAUSE.fullmatch(clause)
    if found is None or not _one_argument(found.group(2)):
        return [clause]
    items, work = module.fresh("_s"), module.fresh("_w")
    return [f"{items} = {found.group(2)}", f"if type({items}) is not tuple:",
            f"    {items} = _sequence(st, {items})", f"if {items}:", f"    {work} = st.work + len({items})",
            f"    st.work = {work}", f"    if {work} > st.max_steps:", "        st.charge(0)",
            f"for {found.group(1)} in {items}"]


def _one_argument(text: str) -> bool:
    """Whether ``text`` is one value: its brackets closed, none closed before it opened,
    no comma outside them, no string (whose brackets would not count)."""
    if "'" in text or '"' in text:
        return False
    depth = 0
    for char in text:
        depth += 1 if char in "([{" else -1 if char in ")]}" else 0
        if depth < 0 or (depth == 0 and char == ","):
            return False
    return depth == 0
