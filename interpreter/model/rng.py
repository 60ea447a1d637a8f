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
_BYTE_PLACES = 255  # shuffles of up to this many places have each place drawn as one byte


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
    draws as ``below`` in that loop: a few draws one by one, more computed all at once, and
    where every place fits in a byte the places taken from computed all at once too
    (``places_taken``), so that the loop only swaps."""
    if last < _PACKED_FROM:
        return _shuffle_by_draws(state, items, last)
    if last < _BYTE_PLACES:
        place = last + 1
        for j in places_taken(state, last):
            place -= 1
            items[place], items[j] = items[j], items[place]
        return (state + last * _GAMMA) & _MASK
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
    gives ``n`` times."""
    if n <= 0:
        return []
    words = array("Q", _packed_draws(state, n).to_bytes(n * _LANE // 8, "little"))
    if sys.byteorder == "big":
        words.byteswap()
    return words[::2].tolist()


def places_taken(state: int, last: int) -> bytes:
    """For a shuffle of ``items[: last + 1]`` (``0 < last < 255``): the place that each place
    from ``last`` down to 1 takes its item from, in that order, ``below(last + 1 - k)`` of
    draw ``k``, which is ``(bits * (last + 1 - k)) >> 64``. The products are made in the
    lanes of the packed draws (a lane's 64 bits times a multiplier under 256 fits its 128
    bits): one masked shift of the lanes for each bit of the multipliers, summed; each
    lane's place is then its byte 8."""
    z = _packed_draws(state, last)
    product = 0
    for bit, lanes in _multiplier_bits(last):
        product += (z & lanes) << bit
    return product.to_bytes(last * _LANE // 8, "little")[8::_LANE // 8]


def _packed_draws(state: int, n: int) -> int:
    """The 64 random bits of the next ``n`` draws from ``state`` side by side in one
    integer, 128 bits apart, the bits above each lane's 64 not cleared: what ``next_u64``
    gives ``n`` times. The ``n`` states lie in lanes so that each step of the mix is one
    operation on all of them: a product of a 64-bit lane and a 64-bit constant stays inside
    its 128 bits, and each shift whose bits are mixed again is masked to its lane."""
    lanes, steps, mask = _packing(n)
    z = (state * lanes + steps) & mask
    z = ((z ^ ((z >> 30) & mask)) * _MIX1) & mask
    z = ((z ^ ((z >> 27) & mask)) * _MIX2) & mask
    return z ^ (z >> 31)  # (what the shift brings down past a lane's 64 bits is left above them)


@lru_cache(maxsize=64)
def _multiplier_bits(last: int) -> tuple[tuple[int, int], ...]:
    """For the draws of a shuffle of ``last + 1`` items, lane ``k`` multiplied by
    ``last + 1 - k``: each bit of those multipliers with the mask of the low 64 bits of the
    lanes whose multiplier has that bit."""
    bits = []
    for bit in range((last + 1).bit_length()):
        lanes = sum(_MASK << (_LANE * k) for k in range(last) if (last + 1 - k) >> bit & 1)
        if lanes:
            bits.append((bit, lanes))
    return tuple(bits)


@lru_cache(maxsize=64)
def _packing(n: int) -> tuple[int, int, int]:
    """For ``n`` draws: the integer whose lanes hold 1 each (a state times it is the state in
    every lane), the integer whose lane ``k`` holds the ``k + 1`` steps of draw ``k``, and
    the mask of the low 64 bits of every lane."""
    lanes = sum(1 << (_LANE * k) for k in range(n))
    steps = sum((((k + 1) * _GAMMA) & _MASK) << (_LANE * k) for k in range(n))
    return lanes, steps, _MASK * lanes
