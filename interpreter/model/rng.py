"""The state's random number generator: SplitMix64, whose whole state is one integer.

One integer copies for free with the state and serializes exactly, so the same ruleset,
seed and actions give the same game on any machine.
"""
from __future__ import annotations

from typing import TypeVar

_T = TypeVar("_T")

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a user seed."""
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Advance the generator: (new state, a uniform integer in [0, n))."""
    state, bits = next_u64(state)
    return state, (bits * n) >> 64


def shuffle(state: int, items: list[_T], last: int) -> int:
    """Shuffle ``items[: last + 1]`` in place (Fisher-Yates, from the last place down: the
    place ``i`` takes the item at ``below(i + 1)``); the generator's new state. The same
    draws as ``below`` in that loop, with the generator written in place (a shuffle draws
    once per item)."""
    mask = _MASK
    for i in range(last, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
