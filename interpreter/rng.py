"""The state's random number generator: SplitMix64, whose whole state is one integer.

One integer copies for free with the state and serializes exactly, so the same ruleset,
seed and actions give the same game on any machine.
"""
from __future__ import annotations

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
