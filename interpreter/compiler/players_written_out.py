"""A comprehension of one clause over a short list of players known at load (``players``),
``[p for p in players if TEST]``, written out player by player: each test with the player a
constant of the code, his index a literal and what a constant table of slots holds at that
index read at load (``_k34[p.index]`` -> ``5``), no loop.

The same list, the same work (its items charged at once, as ``runtime.items`` charges a
list known to be one) and the same errors: the tests are made in the list's order, each as
the loop would make it for that player, and nothing after the comprehension reads its
variable.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..model.values import Player
from .assigned_reads import assigned_in_place

if TYPE_CHECKING:
    from .module import Module

MOST_PLAYERS = 8   # the players of a list written out at most (more: the loop)

_OVER_PLAYERS = re.compile(r"for (_v\d+) in _items\(st, (_k\d+)\)")


def players_written_out(module: Module, listed: str, element: str, loops: list[str],
                        charged: list[str]) -> list[str] | None:
    """The lines of the lifted comprehension ``listed`` (its ``element`` and ``loops``) over a
    list of players known at load, written out; ``charged``: lines that charge ``@N`` items.
    None where it is not one (then as it is)."""
    clause = _OVER_PLAYERS.fullmatch(loops[0]) if loops else None
    tests = loops[1:]
    if clause is None or len(tests) > 1 or (tests and not tests[0].startswith("if ")):
        return None
    var, players = clause.group(1), module.namespace.get(clause.group(2))
    if type(players) is not tuple or not 0 < len(players) <= MOST_PLAYERS \
            or any(type(p) is not Player for p in players):
        return None
    lines = [f"{listed} = []", *(line.replace("@N", str(len(players))) for line in charged)]
    for player in players:
        # (a statement's test now: its reads of fields in place, assigned_reads.py)
        test = ["if " + assigned_in_place(module, _for_player(module, text.removeprefix("if "), var, player))
                for text in tests]
        append = f"{listed}.append({_for_player(module, element, var, player)})"
        lines += [f"{test[0]}:", f"    {append}"] if test else [append]
    return lines


def _for_player(module: Module, text: str, var: str, player: Player) -> str:
    """``text`` with the item ``var`` the constant ``player``: his index a literal, a constant
    table of integers read at it where the text reads one so."""
    text = re.sub(rf"\b{var}\.index\b", str(player.index), text)

    def read(found: re.Match[str]) -> str:
        table = module.namespace.get(found.group(1))
        if type(table) is tuple and player.index < len(table) and type(table[player.index]) is int:
            return str(table[player.index])
        return found.group(0)
    text = re.sub(rf"\b(_k\d+)\[{player.index}\]", read, text)
    return re.sub(rf"\b{var}\b", module.constant(player), text)
