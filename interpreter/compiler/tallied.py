"""A statement's value that is the count of a lifted comprehension over a zone whose element
is its item (``let found = count(t for t in p.haul if t.find == coin)``): the items that
pass counted in a local as the loop finds them, instead of appended to a list that
``runtime.count`` then scans for false and none (a component is neither: it counts every
item of the list). The loop, its items charged and its tests are the lifted ones
(comprehensions.py), unchanged: the same work, the same errors at the same item."""
from __future__ import annotations

import re

from ..tables import runtime
from .module import Module
from .patterns import pattern


def tallied(module: Module, text: str, listed: str, element: str, loops: list[str],
            source: str | None) -> str | None:
    """The local that counts in place, where ``text`` (a statement's value) is the count of
    ``listed``, a list of the items of a zone (``source``) that pass the tests of ``loops``
    (one clause, its item the ``element``); else None."""
    found = pattern(rf"(\w+)\({listed}\)").fullmatch(text)
    if found is None or module.namespace.get(found.group(1)) is not runtime.count or source != "zone":
        return None
    clause = re.match(r"for (\w+) in ", loops[0])
    if clause is None or clause.group(1) != element or not all(loop.startswith("if ") for loop in loops[1:]):
        return None
    return module.fresh("_n")
