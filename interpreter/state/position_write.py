"""Writing positions: a state as readable text, "FEN for any ruleset", and how a position
names the things of a game (``PositionNames``, ``component_name``, ``zone_name``), which
reading one (position_read.py) undoes.

``position_text(state, initial)`` writes one (``State.to_position``). A position names
everything: zones, components by label, spaces by name, players as ``player N``, variables
and supplies by name, the phase, who is to act and the exact program position. Like FEN it
leaves out the history: the actions applied, the count of decisions, the log and events; and
a variable at its declared initial value (the game's initial tables) is left out too. The
format is documented in docs/state-format.md.
"""
from __future__ import annotations

import json
import re
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulelang import boards

from ..model.serialize import BIG_INT, encode_value
from ..model.values import CHANCE, Component, EnumType, EnumValue, Player, Ref, Value, ZoneRef

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog
    from .initial_tables import InitialTables
    from .state import State

HEADER = "# rulelang position"
"""The first line that ``position_text`` writes (a comment: readers need not have it)."""
KEYWORDS = frozenset({"none", "true", "false", "player", "zone", "supply", "die", "board", "enum"})
"""Words that start a value of their own: an enumeration value so named is written TYPE.NAME."""


# ================================================================ names

class PositionNames:
    """How the things of one game are named in a position, both ways."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.copies: dict[tuple[str, str], list[int]] = {}   # (type, label) -> ids, in id order
        for c in catalog.components:
            self.copies.setdefault((c.type, c.label), []).append(c.id)
        self.enum_values: dict[str, list[EnumValue]] = {}
        for enum in catalog.enums.values():
            for v in enum.values:
                self.enum_values.setdefault(v.name, []).append(v)

    def copy_number(self, c: Component) -> int:
        """Which copy of its label ``c`` is (1-based, in id order)."""
        return self.copies[(c.type, c.label)].index(c.id) + 1

    def shared(self, c: Component) -> bool:
        """Whether other components of its type have its label."""
        return len(self.copies[(c.type, c.label)]) > 1


_NAMES: weakref.WeakKeyDictionary[Game, PositionNames] = weakref.WeakKeyDictionary()


def position_names(game: Game) -> PositionNames:
    """The names of ``game``'s things (made once per game)."""
    names = _NAMES.get(game)
    if names is None:
        names = _NAMES[game] = PositionNames(game.catalog)
    return names


# ================================================================ writing

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def position_text(st: State, initial: InitialTables) -> str:
    """The position of ``st`` (see the module docstring), leaving out the variables at their
    values in ``initial``, the initial tables of ``st``'s game (``Game.initial_values``);
    reading it back gives a state whose ``to_json()`` is ``st.to_json()`` apart from the
    history, decisions and log."""
    return "\n".join(_Writer(st, initial).lines()) + "\n"


class _Writer:
    """Writes the lines of one state's position."""

    def __init__(self, st: State, initial: InitialTables):
        self.st = st
        self.catalog = st.game.catalog
        self.names = position_names(st.game)
        self.initial = initial

    def lines(self) -> Iterator[str]:
        yield from self._header()
        yield from self._globals()
        yield from self._owners()
        yield from self._zones()
        yield from self._frames()

    def _header(self) -> Iterator[str]:
        st = self.st
        yield HEADER
        yield f"game {quoted(st.game.title or '')}"
        yield f"players {st.game.num_players}"
        yield f"seed {_int(st.seed)}"
        yield f"rng {st.rng}"
        if st.explicit_chance:
            yield "explicit chance"
        if st.terminal:
            yield "over"
            return
        yield f"phase {st.frames[0].name}"
        yield "to act " + (", ".join(actor_name(p) for p in st.current_players()) or "nobody")

    def _globals(self) -> Iterator[str]:
        for name, value in self.st.global_values.items():
            if not _same(value, self.initial.global_values.get(name)):
                yield f"global {name} = {self.value(value)}"

    def _owners(self) -> Iterator[str]:
        """One line per player, space or component with variables off their initial value or
        tokens of a supply; then the bank when a supply's count there is off the rest."""
        st, catalog = self.st, self.catalog
        for p in catalog.players:
            yield from self._owner_line(f"player {p.index + 1}", st.player_values, self.initial.player_values,
                                        p.index, catalog.holder_slot(p))
        for i, s in enumerate(catalog.spaces):
            yield from self._owner_line(f"space {self.space(s)}", st.space_values, self.initial.space_values, i, None)
        for c in catalog.components:
            yield from self._owner_line(f"component {self.component(c, self.names.shared(c))}", st.component_values,
                                        self.initial.component_values, c.id, catalog.holder_slot(c))

    def _owner_line(self, owner: str, values: dict[str, list[Value]], initial: dict[str, list[Value]], index: int,
                    holder: int | None) -> Iterator[str]:
        parts = [f"{name} = {self.value(table[index])}" for name, table in values.items()
                 if not _same(table[index], initial[name][index])]
        if holder is not None:
            parts += [f"{name} = {counts[holder]}" for name, counts in self.st.supply_counts.items() if counts[holder]]
        if parts:
            yield f"{owner} " + ", ".join(parts)

    def _zones(self) -> Iterator[str]:
        exact = self._exact_groups()
        for ref, zone in zip(self.catalog.zone_refs, self.st.zones, strict=True):
            if zone:
                items = ", ".join(self.component(c, (c.type, c.label) in exact) for c in zone)
                yield f"zone {zone_name(ref)}: {items}"

    def _exact_groups(self) -> set[tuple[str, str]]:
        """The labels whose copies must be named exactly (``@N``) in the zones: those whose
        copies do not appear in id order, as a reader would assign them."""
        order: dict[tuple[str, str], list[int]] = {}
        for zone in self.st.zones:
            for c in zone:
                order.setdefault((c.type, c.label), []).append(c.id)
        return {key for key, ids in order.items() if ids != sorted(ids)}

    def _frames(self) -> Iterator[str]:
        for f in self.st.frames:
            head = f"frame {f.name} pc {f.pc}" + (f" returns to {_key(f.ret)}" if f.ret is not None else "")
            env = ", ".join(f"{_key(k)} = {self.value(v)}" for k, v in f.env.items())
            yield head + (f": {env}" if env else "")

    # ---- values
    def value(self, v: Value) -> str:
        """A value as position text (the reader's ``value``)."""
        if v is None or isinstance(v, bool):
            return {None: "none", True: "true", False: "false"}[v]
        if isinstance(v, int):
            return _int(v)
        if isinstance(v, str):
            return quoted(v)
        if isinstance(v, tuple):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{self.value(k)}: {self.value(x)}" for k, x in v.items()) + "}"
        return self._object(v)

    def _object(self, v: Value) -> str:
        if isinstance(v, Player):
            return f"player {v.index + 1}"
        if isinstance(v, Component):
            return self.component(v, self.names.shared(v))
        if isinstance(v, EnumValue):
            bare = len(self.names.enum_values[v.name]) == 1 and v.name not in KEYWORDS
            return v.name if bare else f"{v.type}.{v.name}"
        if isinstance(v, boards.Space):
            return self.space(v)
        if isinstance(v, ZoneRef):
            return f"zone {zone_name(v)}"
        if isinstance(v, Ref):
            return f"{v.kind} {v.name}"
        if isinstance(v, EnumType):
            return f"enum {v.name}"
        raise TypeError(f"a position cannot hold a {type(v).__name__}")

    def component(self, c: Component, exact: bool) -> str:
        return component_name(c, self.names.copy_number(c) if exact else None)

    @staticmethod
    def space(s: boards.Space) -> str:
        return f"{s.board}.{s.name if _BARE.fullmatch(s.name) else quoted(s.name)}"


def component_name(c: Component, copy: int | None = None) -> str:
    """A component as a position names it: ``TYPE "label"``, then ``@N`` for copy N."""
    return f"{c.type} {quoted(c.label)}" + (f"@{copy}" if copy is not None else "")


def _same(a: Value, b: Value) -> bool:
    """Equal as saved data (so 1 and true differ)."""
    return json.dumps(encode_value(a)) == json.dumps(encode_value(b))


_LOCAL = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_]*")


def _key(name: str) -> str:
    """A local variable's name: bare, or quoted (the engine's ``x@N`` for a ``let``
    that hides an outer one)."""
    return name if _LOCAL.fullmatch(name) else quoted(name)


def quoted(text: str) -> str:
    """A text as a position writes it: quoted and escaped as in JSON."""
    return json.dumps(text, ensure_ascii=False)


def _int(n: int) -> str:
    """An integer as text: hexadecimal from BIG_INT on (no length limit)."""
    return str(n) if -BIG_INT < n < BIG_INT else hex(n)


def zone_name(ref: ZoneRef) -> str:
    """A zone as a position names it: ``deck``, ``hand of player 1``."""
    return ref.name if ref.owner is None else f"{ref.name} of player {ref.owner.index + 1}"


def actor_name(player: int) -> str:
    """Who acts, as a position's "to act" line names them: ``chance`` or ``player N``."""
    return "chance" if player == CHANCE else f"player {player + 1}"
