"""How many decisions a 'choose' keeps to give again: fewer where its options may be a zone,
until one is given again.

A choice keeps the decision it makes for a list of options (choices.py, ``made``), up to
``DECISIONS_KEPT`` a statement, so that a state that offers the same list again gives the
same decision at once. A zone's components (a hand dealt from a shuffled pile) seldom come
back as the same list: each kept decision is then a dictionary entry made and hashed, and
objects that every collection of the garbage collector walks, for nothing. A choice whose
options may be a zone (zone_choices.py) keeps at most ``PROBE`` decisions until one of them
is given again (by the code in place, or by ``given``: its list came back); from then on, up
to ``DECISIONS_KEPT`` as any choice. A decision not kept is made again as the kept one was:
the same options, ids, player and positions (only ``shared`` differs, as for a list with
copies), so states, work and errors are the same; only the time and memory differ.
"""
from __future__ import annotations

PROBE = 64
"""The decisions a choice whose options may be a zone keeps before one of them is given again."""


def kept_limit(zone: bool, most: int) -> list[int]:
    """The number of decisions a choice keeps for now, in a list of one that the code which
    gives a kept decision again raises to ``most`` (``found_again``): ``PROBE`` where its
    options may be a zone (``zone``), else ``most`` from the start."""
    return [min(PROBE, most) if zone else most]


def found_again(limit: str, most: str) -> str:
    """The line (the constants' names: the statement's ``kept_limit`` and ``most``) that a
    kept decision given again runs: the choice keeps up to ``most`` from now on."""
    return f"{limit}[0] = {most}"
