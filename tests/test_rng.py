"""The generator: SplitMix64 for ``below``; ``rng.shuffle`` of 5 places or more is a sort by
keys drawn from SHAKE128 of the generator's next state (one step), which these tests write
again plainly (place ``k``'s key is its 8 bytes' 48 bits, the 6 low bits of each, then ``k``);
fewer places are Fisher-Yates over ``rng.below``. Both give every order, evenly."""
from __future__ import annotations

import hashlib
import math
import struct
import sys
from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from rulelang.interpreter.model import rng

_GAMMA = 0x9E3779B97F4A7C15


@given(st.integers(0, 2**64 - 1), st.integers(0, 300), st.data())
def test_a_shuffle_is_its_plain_definition(state, size, data):
    last = data.draw(st.integers(-1, size - 1)) if size else -1
    expected, generator = _shuffled_plainly(state, size, last)
    items = list(range(size))
    assert rng.shuffle(state, items, last) == generator
    assert items == expected


def test_shuffles_of_every_size_up_to_260_are_their_plain_definition():
    state = rng.seed_state(12345)
    for size in range(261):
        expected, generator = _shuffled_plainly(state, size, size - 1)
        items = [f"item {k}" for k in range(size)]
        assert (rng.shuffle(state, items, size - 1), items) == (generator, [f"item {k}" for k in expected]), size
        state = generator ^ size


@given(st.integers(0, 2**64 - 1), st.integers(5, 256))
def test_a_keyed_shuffle_steps_the_generator_once_and_is_a_permutation(state, size):
    items = list(range(size))
    assert rng.shuffle(state, items, size - 1) == (state + _GAMMA) % 2**64
    assert sorted(items) == list(range(size))
    again = list(range(size))
    assert rng.shuffle(state, again, size - 1) == (state + _GAMMA) % 2**64
    assert again == items  # the same state, the same order


@given(st.integers(0, 2**64 - 1), st.integers(5, 256), st.integers(0, 3))
def test_a_keyed_shuffle_compares_no_items(state, size, tail):
    """The sort compares keys only (each item gets its place's key, the places in turn): items
    that cannot be ordered, and one object at several places, stand where the plain
    definition puts their places, whole lists and heads of longer ones alike."""
    expected, generator = _shuffled_plainly(state, size + tail, size - 1)
    same, others = object(), [object() for _ in range(size + tail)]
    items = [same if k % 3 == 0 else others[k] for k in range(size + tail)]
    placed = list(items)
    assert rng.shuffle(state, placed, size - 1) == generator
    assert all(a is items[k] for a, k in zip(placed, expected, strict=True))


class _Repeated:
    """A stand-in for SHAKE128 whose digest repeats ``blocks``: keys that tie, where the
    real digest ties with a chance of about 2^-48 a pair."""

    def __init__(self, blocks: list[bytes]) -> None:
        self.blocks = blocks

    def __call__(self, data: bytes) -> _Repeated:
        return self

    def digest(self, length: int) -> bytes:
        return b"".join(self.blocks[k % len(self.blocks)] for k in range(length // 8))


def test_tied_keys_keep_their_places_order(monkeypatch):
    # every key equal: the items stay as they are; keys 2, 1, 2, 1, ...: the places of key 1
    # first, then those of key 2, each in their order (ties go to the lower place); no item
    # is compared (objects cannot be ordered)
    items = [object() for _ in range(9)]
    monkeypatch.setattr(rng, "shake_128", _Repeated([bytes(8)]))
    placed = list(items)
    rng.shuffle(7, placed, 8)
    assert placed == items
    monkeypatch.setattr(rng, "shake_128", _Repeated([bytes([2] + [0] * 7), bytes([1] + [0] * 7)]))
    placed = list(items)
    rng.shuffle(7, placed, 8)
    assert placed == [items[k] for k in (1, 3, 5, 7, 0, 2, 4, 6, 8)]


@given(st.integers(0, 2**64 - 1), st.integers(0, 4))
def test_ashuffle_by_draws_steps_the_generator_once_a_place(state, size):
    after, generator = _shuffled_by_below(state, size, size - 1)
    items = list(range(size))
    assert rng.shuffle(state, items, size - 1) == generator
    assert items == after


@given(st.integers(0, 2**64 - 1), st.integers(1, 40), st.integers(1, 40))
def test_the_places_after_last_are_left_as_they_are(state, shuffled, tail):
    items = list(range(shuffled + tail))
    rng.shuffle(state, items, shuffled - 1)
    assert items[shuffled:] == list(range(shuffled, shuffled + tail))
    assert sorted(items[:shuffled]) == list(range(shuffled))


def test_every_order_of_5_and_of_4_comes_evenly():
    # Fixed seeds: the counts are the same at every run. Chi-square over the 120 (24) orders,
    # 119 (23) degrees of freedom: its mean 119 (23), sd ~15 (~7); the bound is ~6 sd out.
    for size, bound in ((5, 215), (4, 65)):
        state, counts = rng.seed_state(size), Counter[tuple[int, ...]]()
        shuffles = 100 * math.factorial(size)
        for _ in range(shuffles):
            items = list(range(size))
            state = rng.shuffle(state, items, size - 1)
            counts[tuple(items)] += 1
        assert set(counts) == set(permutations(range(size)))
        expected = shuffles / math.factorial(size)
        assert sum((c - expected) ** 2 / expected for c in counts.values()) < bound, size


def test_each_item_of_32_lands_in_each_place_evenly():
    # 32 x 32 cells of 100 expected each, every row and column summing to 3,200: the statistic
    # is about 990 (sd ~45) over independent streams, for Python's random.shuffle as for this
    # one (1,001 for this stream); the bound is ~6 sd out.
    state, counts = rng.seed_state(32), [[0] * 32 for _ in range(32)]
    for _ in range(3200):
        items = list(range(32))
        state = rng.shuffle(state, items, 31)
        for place, item in enumerate(items):
            counts[item][place] += 1
    assert sum((c - 100) ** 2 / 100 for row in counts for c in row) < 990 + 6 * 45


def test_the_generator_is_splitmix64():
    # SplitMix64 from the state 0: the reference values of its published implementation.
    state, first = rng.next_u64(0)
    _, second = rng.next_u64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_no_key_is_subnormal_or_infinite():
    # a key is 8 bytes of the table's values read as a double: the least and the greatest
    # of them bound every key, and both are normal and finite, so a process that flushes
    # subnormal numbers to zero orders the keys as any other does
    values = set(rng._SIX_BITS)
    assert len(values) == 64
    least, greatest = (struct.unpack("<d", bytes([end] * 8))[0] for end in (min(values), max(values)))
    assert sys.float_info.min <= least < greatest < math.inf


@given(st.integers(0, 2**64 - 1), st.integers(1, 10**6))
def test_below_is_the_high_bits_of_a_product(state, n):
    following, bits = rng.next_u64(state)
    assert rng.below(state, n) == (following, (bits * n) >> 64)


def _shuffled_plainly(state: int, size: int, last: int) -> tuple[list[int], int]:
    """What ``rng.shuffle`` gives ``list(range(size))``, written plainly: from 5 places on,
    SHAKE128 of the next state's 8 bytes (little-endian) gives 8 bytes a place, and the places
    stand in the order of (their bytes' 6 low bits each, as a little-endian integer of 48 bits,
    the place); else Fisher-Yates over ``below``."""
    n = last + 1
    if n < 5:
        return _shuffled_by_below(state, size, last)
    state = (state + _GAMMA) % 2**64
    digest = hashlib.shake_128(state.to_bytes(8, "little")).digest(8 * n)
    random_bits = [sum((digest[8 * k + b] % 64) << (6 * b) for b in range(8)) for k in range(n)]
    order = sorted(range(n), key=lambda k: (random_bits[k], k))
    return order + list(range(n, size)), state


def _shuffled_by_below(state: int, size: int, last: int) -> tuple[list[int], int]:
    expected, generator, i = list(range(size)), state, last
    while i > 0:
        generator, j = rng.below(generator, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
        i -= 1
    return expected, generator


def _stream(state: int, count: int) -> list[int]:
    drawn = []
    for _ in range(count):
        state, bits = rng.next_u64(state)
        drawn.append(bits)
    return drawn


def test_neighbouring_seeds_draw_nothing_in_common():
    # (Once the state of seed s + 1 was that of seed s one step on: each game drew the
    # other's draws one late, and a keyed shuffle of one was a shuffle of the next.)
    for seed in range(50):
        assert not set(_stream(rng.seed_state(seed), 40)) & set(_stream(rng.seed_state(seed + 1), 40)), seed
