"""The state's random number generator: SplitMix64, whose whole state is one integer.

One integer copies for free with the state and serializes exactly, so the same ruleset,
seed and actions give the same game on any machine.
"""
from __future__ import annotations

import sys
from array import array
from functools import lru_cache
from typing import TypeVar

_T = TypeVar("_T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # the step of the state
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_LANE = 128  # bits of one draw's place in a packed integer: a 64-bit value times a 64-bit constant fits
# Shuffles of at least this many draws compute them packed (fewer instructions from 4 draws, by
# valgrind), where an array item of type "Q" is 64 bits as the packing reads it.
_PACKED_FROM = 4 if array("Q").itemsize == 8 else sys.maxsize


def seed_state(seed: int) -> int:
    """The generator state for a user seed."""
    return (seed * _GAMMA + 0x2545F4914F6CDD1D) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: (new state, 64 random bits)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Advance the generator: (new state, a uniform integer in [0, n)): ``next_u64`` written
    in place (one call fewer a draw)."""
    state = (state + _GAMMA) & _MASK
    z = ((state ^ (state >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list[_T], last: int) -> int:
    """Shuffle ``items[: last + 1]`` in place (Fisher-Yates, from the last place down: the
    place ``i`` takes the item at ``below(i + 1)``); the generator's new state. The same
    draws as ``below`` in that loop: a few draws one by one, more computed all at once
    (``draws``), so that the loop only swaps."""
    if last < _PACKED_FROM:
        return _shuffle_by_draws(state, items, last)
    places = last + 1  # the place last + 1 - k - 1 takes the item at draw k of [0, last + 1 - k)
    for bits in draws(state, last):
        j = (bits * places) >> 64
        places -= 1
        items[places], items[j] = items[j], items[places]
    return (state + last * _GAMMA) & _MASK


def _shuffle_by_draws(state: int, items: list[_T], last: int) -> int:
    """``shuffle`` with the generator written in place, one draw at a time."""
    mask = _MASK
    for i in range(last, 0, -1):
        state = (state + _GAMMA) & mask
        z = ((state ^ (state >> 30)) * _MIX1) & mask
        z = ((z ^ (z >> 27)) * _MIX2) & mask
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


def draws(state: int, n: int) -> list[int]:
    """The 64 random bits of the next ``n`` draws from ``state``, in order: what ``next_u64``
    gives ``n`` times. The ``n`` states lie side by side in one integer, 128 bits apart, so
    that each step of the mix is one operation on all of them: a product of a 64-bit lane
    and a 64-bit constant stays inside its 128 bits, and each shift whose bits are mixed again is
    masked to its lane."""
    if n <= 0:
        return []
    lanes, steps, mask = _packing(n)
    z = (state * lanes + steps) & mask
    z = ((z ^ ((z >> 30) & mask)) * _MIX1) & mask
    z = ((z ^ ((z >> 27) & mask)) * _MIX2) & mask
    z ^= z >> 31  # (what the shift brings down past a lane's 64 bits, none of its words read)
    words = array("Q", z.to_bytes(n * _LANE // 8, "little"))
    if sys.byteorder == "big":
        words.byteswap()
    return words[::2].tolist()


@lru_cache(maxsize=64)
def _packing(n: int) -> tuple[int, int, int]:
    """For ``n`` draws: the integer whose lanes hold 1 each (a state times it is the state in
    every lane), the integer whose lane ``k`` holds the ``k + 1`` steps of draw ``k``, and
    the mask of the low 64 bits of every lane."""
    lanes = sum(1 << (_LANE * k) for k in range(n))
    steps = sum((((k + 1) * _GAMMA) & _MASK) << (_LANE * k) for k in range(n))
    return lanes, steps, _MASK * lanes
