"""Reading the keys of saved states before format 4 that name a hiding 'let' by its line and
column (``k@410:7``): each becomes the key the compiled code uses, ``k@N`` (compiler/let_keys.py).

Against the text the state was saved with, a key finds its 'let' at its line and column. Against
a text whose lines moved (formatted, a comment added), the 'let's of a name are still in the
same order: the keys of a frame are matched to its procedure's hiding 'let's of their name in
order, each to the nearest in the text that leaves room for the others (the one way when the
frame holds a key for each of them). A key that finds no 'let' is kept as it is, as before.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..model.program import Code

OLD_KEY = re.compile(r"(?P<name>[^@]+)@(?P<line>\d+):(?P<column>\d+)")
"""A hiding 'let''s key before format 4."""

Place = tuple[int, int]   # a line and column


def with_let_keys(frames: Sequence[Mapping[str, Any]], code: Mapping[str, Code]) -> list[dict[str, Any]]:
    """``frames`` (saved data, outermost first) with the old keys of their locals and of the
    callers' locals that receive return values (``returns_to``) renamed to today's."""
    renamed = [dict(frame) for frame in frames]
    for n, frame in enumerate(renamed):
        name, env = frame.get("procedure"), frame.get("env")
        procedure = code.get(name) if isinstance(name, str) else None
        if procedure is None or not isinstance(env, dict):
            continue
        callee = renamed[n + 1] if n + 1 < len(renamed) else None
        returns_to = callee.get("returns_to") if callee is not None else None
        keys = [*env, *([returns_to] if isinstance(returns_to, str) else [])]
        new = new_keys(keys, procedure.hidden)
        if new:
            frame["env"] = {new.get(key, key): value for key, value in env.items()}
            if callee is not None and isinstance(returns_to, str):
                callee["returns_to"] = new.get(returns_to, returns_to)
    return renamed


def new_keys(keys: Sequence[str], hidden: Mapping[str, Mapping[str, Place]]) -> dict[str, str]:
    """Today's key of each old key among ``keys``, given a procedure's hiding 'let's."""
    old: dict[str, dict[str, Place]] = {}
    for key in keys:
        match = OLD_KEY.fullmatch(key)
        if match is not None:
            place = (int(match["line"]), int(match["column"]))
            old.setdefault(match["name"], {})[key] = place
    renamed: dict[str, str] = {}
    for name, places in old.items():
        lets = sorted(hidden.get(name, {}).items(), key=lambda item: _ordinal(item[0]))
        olds = sorted(places.items(), key=lambda item: item[1])
        matched = matched_in_order([place for _, place in olds], [place for _, place in lets])
        for (old_key, _), index in zip(olds, matched, strict=False):   # (none matched: more keys than lets)
            renamed[old_key] = lets[index][0]
    return renamed


def matched_in_order(olds: Sequence[Place], lets: Sequence[Place]) -> list[int]:
    """For each of ``olds`` (in order), the index of its 'let' among ``lets`` (in order):
    increasing, the nearest overall (by lines, then columns). Empty when there are more olds
    than lets."""
    if len(olds) > len(lets):
        return []
    far = float("inf")
    # cost[i][j]: the least distance of the first i olds matched among the first j lets
    cost = [[0.0] * (len(lets) + 1)] + [[far] * (len(lets) + 1) for _ in olds]
    for i, old in enumerate(olds, 1):
        for j, let in enumerate(lets, 1):
            cost[i][j] = min(cost[i][j - 1], cost[i - 1][j - 1] + _distance(old, let))
    chosen, j = [], len(lets)
    for i in range(len(olds), 0, -1):
        while cost[i][j] == cost[i][j - 1]:
            j -= 1
        chosen.append(j - 1)
        j -= 1
    return chosen[::-1]


def _distance(old: Place, let: Place) -> float:
    return abs(old[0] - let[0]) * 1000 + abs(old[1] - let[1])


def _ordinal(key: str) -> int:
    return int(key.rpartition("@")[2])
