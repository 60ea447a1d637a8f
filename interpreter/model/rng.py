"""The state's random number generator: SplitMix64, whose whole state is one integer.

One integer copies for free with the state and serializes exactly, so the same ruleset,
seed and actions give the same game on any machine. A draw among ``n`` (``below``) steps it
once; a shuffle of 5 items or more steps it once and sorts the items by keys that SHAKE128 of
its new state gives (work done in C), shorter shuffles are Fisher-Yates over ``below``.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from hashlib import shake_128
from struct import Struct
from typing import TypeVar

_T = TypeVar("_T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # the step of the state
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_KEYED_FROM = 4   # shuffles of 5 places or more sort by keys (fewer instructions, by valgrind)
# each byte's 6 low bits, above them 01 (bytes.translate): a key's exponent is never 0, so no key is
# subnormal (a process that flushes subnormal numbers to zero, as a library built with -ffast-math
# may make it, would compare two of them as equal), nor 0x7FF (infinite)
_SIX_BITS = bytes(b & 0x3F | 0x40 for b in range(256))
_next = next  # (a module global: found without the builtins' lookup)


def seed_state(seed: int) -> int:
    """The generator state for a user seed: the seed stepped from 0 (as the generator steps)
    and mixed (as a draw is), so that the states of seeds ``s`` and ``s + 1`` lie far apart
    in the generator's cycle. Unmixed, the state of ``s + 1`` was that of ``s`` one step on:
    its game drew what the other drew, one draw late (a shuffle or a roll of one game was
    the next one's)."""
    return _mixed((seed * _GAMMA + 0x2545F4914F6CDD1D) & _MASK)


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: (new state, 64 random bits)."""
    state = (state + _GAMMA) & _MASK
    return state, _mixed(state)


def _mixed(z: int) -> int:
    """SplitMix64's output function: the 64 random bits of the state ``z``."""
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Advance the generator: (new state, a uniform integer in [0, n)): ``next_u64`` written
    in place (one call fewer a draw)."""
    state = (state + _GAMMA) & _MASK
    z = ((state ^ (state >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list[_T], last: int) -> int:
    """Shuffle ``items[: last + 1]`` in place; the generator's new state. From 5 items (``n =
    last + 1``), a keyed sort done in C: the generator steps once, SHAKE128 of its new state
    (8 bytes, little-endian) gives 8 bytes for each place, each byte's two top bits become 01,
    and place ``k``'s 8 bytes read as a little-endian double are its key: a normal positive
    finite number (its exponent from 0x404 to 0x7F7) that compares as its 48 random bits (6 a
    byte) do, read as an integer, on any machine and in any floating-point mode.
    The items stand in the order of their keys, ties (where two places drew the same 48 bits)
    broken by the place: the sort is stable, and its key function gives each item its place's
    key, the places in turn (the sort asks for the keys in the items' order, once each). Fewer
    items, Fisher-Yates over ``below`` (``shuffle_by_draws``: one step for each place from
    ``last`` down to 1)."""
    if last < _KEYED_FROM:
        return shuffle_by_draws(state, items, last)
    n = last + 1
    state = (state + _GAMMA) & _MASK
    keys = _doubles(n)(shake_128(state.to_bytes(8, "little")).digest(8 * n).translate(_SIX_BITS))
    key = partial(_next, iter(keys))
    if n == len(items):
        items.sort(key=key)
    else:
        head = items[:n]
        head.sort(key=key)
        items[:n] = head
    return state


def shuffle_by_draws(state: int, items: list[_T], last: int) -> int:
    """``shuffle`` by Fisher-Yates from the last place down: the place ``i`` takes the item at
    ``below(i + 1)``, with the generator written in place, one draw at a time. Before the
    keyed sort (session 41 of issue 24) every shuffle was this one: a game saved or recorded
    then replays its history as it did with this in ``shuffle``'s place."""
    mask = _MASK
    for i in range(last, 0, -1):
        state = (state + _GAMMA) & mask
        z = ((state ^ (state >> 30)) * _MIX1) & mask
        z = ((z ^ (z >> 27)) * _MIX2) & mask
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


@lru_cache(maxsize=64)
def _doubles(n: int) -> Callable[[bytes], tuple[float, ...]]:
    """The reader of ``n`` little-endian doubles (a keyed shuffle's keys)."""
    return Struct(f"<{n}d").unpack
