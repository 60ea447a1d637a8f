"""A deal's outer loop over a short range of two integers, built in place.

``for i in 1..each { for p in line { move top(pile) to p.hand } }`` computes its source once,
``as_list`` of ``inclusive_range`` (two calls a deal, four type tests, the range checked
against the longest list and the step budget). Where both ends are plain names (locals or
constants of the generated code: reading them again cannot fail nor change anything) that
hold integers and the range holds at most FREE_WORK numbers, neither call charges work nor
fails, and the list is ``tuple(range(low, high + 1))``; anything else (a bool, a long range,
another kind) goes to the two calls as before, which charge it or say what is wrong.
"""
from __future__ import annotations

import re

from ..tables.builtins import FREE_WORK
from .module import Module

_LISTED_RANGE = re.compile(r"_as_list\(st, _range\(st, (\w+), (\w+)\)\)")


def range_in_place(items: str, module: Module) -> str:
    """``items``, the text of a loop's source, with a listed range of two names built in
    place where they hold integers close enough (the calls otherwise); ``items`` itself
    where it is not such a range. A constant known to be an integer is not tested."""
    found = _LISTED_RANGE.fullmatch(items)
    if found is None:
        return items
    low, high = found.groups()
    tests = [f"type({end}) is int" for end in (low, high) if type(module.namespace.get(end)) is not int]
    return (f"(tuple(range({low}, {high} + 1)) if {' and '.join([*tests, f'{high} - {low} < {FREE_WORK}'])}"
            f" else {items})")
