"""'shuffle ZONE' of a zone the rules name, run in place by the resumable function.

A shuffle is an operation that may stop (with explicit chance, one chance decision for each
place: chance.py), so the resumable function called it and returned to the run loop, which
called the function again to go on after it: three calls (the operation, its target's
expression, the shuffle of the zone's list) and the function's entry and dispatch again.
Where the target is a zone the rules name (no local or variable of that name: the zone is
known as the code is written) and the generator draws the order at once (no explicit chance,
no shuffle under way in the frame's environment), the function shuffles the zone's list
itself (``chance.shuffle_zone_in_place``, as the operation does), sets the frame's counter
past it as the operation does, counts its step, and goes on to the operation after it (the
next block); otherwise it calls the operation and goes on only if no decision is pending,
as the run loop would. The same draws, events, knowledge, steps and errors.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import ZoneRef

if TYPE_CHECKING:
    from ..tables.catalog import Catalog

SHAPE = "shuffle"
"""The shape (``Code.shapes``) of such a shuffle: (SHAPE, the zone, its environment key)."""


def named_zone(cat: Catalog, target: ast.Expr, scope: set[str]) -> ZoneRef | None:
    """The zone that ``target`` certainly is where it is a zone's name read as the game's
    constant (no local of ``scope``, no variable, so named); else None."""
    if not isinstance(target, ast.Name) or target.name in scope or target.name in cat.global_vars:
        return None
    zone = cat.constants.get(target.name)
    return zone if type(zone) is ZoneRef else None


def shuffle_lines(op: str, at: int, zone: str, key: str, in_place: str, count: list[str]) -> list[str]:
    """The lines of the operation ``at`` (called ``op``) that shuffles ``zone`` (the
    constants' names; ``key``: its environment entry while under way): ``in_place`` does it
    where it draws at once, else the operation runs; ``count`` counts the step; the run goes
    on at the frame's counter unless a decision is pending."""
    return [f"if st.explicit_chance or {key} in env:",
            f"    {op}(st, fr)",
            "else:",
            f"    {in_place}(st, {zone})",
            f"    fr.pc = {at + 1}",
            *count,
            "if st.pending is not None:",
            "    return steps",
            "pc = fr.pc"]
