"""A server's memory budget across its sessions (docs/protocol.md, "Limits"): the states a
session holds and the games it loaded from a client's text are counted by their size in
memory (a deep ``sys.getsizeof``, measured once for each game's first state); when a new one
would pass the budget, the sessions idle the longest give back what they hold, then the
request is refused (``P014``).
"""
from __future__ import annotations

import sys
import threading
import time
import types
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.limits import MAX_MEMORY_BYTES

from ..game import Game
from ..model.values import Component
from .protocol import ProtocolError

if TYPE_CHECKING:
    from ..state.state import State
    from .sessions import Session

RECLAIM_IDLE_SECONDS = 60.0             # a session idle this long may be reclaimed for another
MAX_OBJECTS_MEASURED = 1_000_000        # objects a measure walks at most
UNMEASURED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
              types.MethodType, Game)


def deep_size(value: object, shared: tuple[type, ...] = (), left_out: tuple[type, ...] = ()) -> int:
    """The bytes of ``value`` and of what it holds (containers, attributes, slots), each
    object once; games, classes, functions and modules left out (they are shared), the
    objects of the ``shared`` types walked through but not counted, and those of the
    ``left_out`` types neither counted nor walked."""
    seen: set[int] = set()
    pending, total = [value], 0
    while pending and len(seen) < MAX_OBJECTS_MEASURED:
        item = pending.pop()
        if id(item) in seen or isinstance(item, (UNMEASURED, left_out)):
            continue
        seen.add(id(item))
        if not isinstance(item, shared):
            total += sys.getsizeof(item)
        pending.extend(held_by(item))
    return total


IMMUTABLE = (str, int, float, bytes, tuple, frozenset, type(None))   # what copies of a state share


def held_by(item: object) -> list[object]:
    """The objects ``item`` holds."""
    if isinstance(item, dict):
        return [*item.keys(), *item.values()]
    if isinstance(item, (list, tuple, set, frozenset)):
        return list(item)
    held = list(vars(item).values()) if hasattr(item, "__dict__") else []
    for slot in getattr(type(item), "__slots__", ()):
        if isinstance(slot, str) and hasattr(item, slot):
            held.append(getattr(item, slot))
    return held


_STATE_SIZES: weakref.WeakKeyDictionary[Game, int] = weakref.WeakKeyDictionary()


def state_size(state: State) -> int:
    """The bytes a state of this game takes, beyond what its copies share (its mutable
    parts: measured on its game's first state). Its components are the game's, shared by
    every state of it (frozen, with their fields): a state's zones only point at them."""
    size = _STATE_SIZES.get(state.game)
    if size is None:
        size = _STATE_SIZES.setdefault(state.game, deep_size(state, IMMUTABLE, left_out=(Component,)))
    return size


def game_size(game: Game) -> int:
    """The bytes a game holds (its tables and compiled program, without what games share)."""
    return deep_size(list(vars(game).values()))


@dataclass
class Holder:
    """What one session holds of the budget, and when it last asked something."""

    session: weakref.ReferenceType[Session]
    bytes: int = 0
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0


@dataclass
class MemoryBudget:
    """The memory the sessions of one server hold together, at most ``limit`` bytes."""

    limit: int = MAX_MEMORY_BYTES
    reclaim_idle_seconds: float = RECLAIM_IDLE_SECONDS
    holders: dict[int, Holder] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def used(self) -> int:
        with self.lock:
            return self._total()

    def _total(self) -> int:
        """(Under the lock.) The bytes every session holds together."""
        return sum(holder.bytes for holder in self.holders.values())

    def holder(self, session: Session) -> Holder:
        """(Under the lock.) The holder of ``session``, new if it has none."""
        found = self.holders.get(id(session))
        if found is None or found.session() is not session:
            found = self.holders[id(session)] = Holder(weakref.ref(session))
        return found

    def begin(self, session: Session) -> None:
        """``session`` starts a request: it cannot be reclaimed until it ends."""
        with self.lock:
            held = self.holder(session)
            held.busy += 1
            held.last_used = time.monotonic()

    def end(self, session: Session) -> None:
        with self.lock:
            held = self.holder(session)
            held.busy -= 1
            held.last_used = time.monotonic()

    def charge(self, session: Session, size: int, what: str) -> None:
        """Count ``size`` bytes more for ``session``; first reclaim idle sessions if that
        passes the limit, then P014 if it still would."""
        with self.lock:
            total = self._total()
            if total + size > self.limit:
                total -= self.reclaim(total + size - self.limit, session)
            if total + size > self.limit:
                raise ProtocolError("P014", f"the server's memory budget ({self.limit // 2**20} MiB for every "
                                            f"session) is reached: {what} needs {size // 1024 + 1} KiB more; "
                                            "close states or games first")
            self.holder(session).bytes += size

    def release(self, session: Session, size: int) -> None:
        with self.lock:
            held = self.holder(session)
            held.bytes = max(held.bytes - size, 0)

    def leave(self, session: Session) -> None:
        """``session`` is over: what it held is free."""
        with self.lock:
            self.holders.pop(id(session), None)

    def reclaim(self, needed: int, asking: Session) -> int:
        """(Under the lock.) Take back what the sessions idle longest hold, oldest first,
        until ``needed`` bytes are free; the bytes freed."""
        now, freed = time.monotonic(), 0
        idle = sorted((h for h in self.holders.values() if h.busy == 0 and h.bytes > 0
                       and now - h.last_used >= self.reclaim_idle_seconds and h.session() is not asking),
                      key=lambda h: h.last_used)
        for held in idle:
            session = held.session()
            if session is not None:
                session.forget_everything(f"reclaimed for memory after {now - held.last_used:.0f} s idle")
            freed += held.bytes
            held.bytes = 0
            if freed >= needed:
                break
        return freed
