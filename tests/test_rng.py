"""The generator: ``rng.shuffle`` makes the same draws as Fisher-Yates over ``rng.below``,
so a shuffle gives the same order (and the same game) as before it was written in place,
and the draws computed all at once (``rng.draws``) are those of ``rng.next_u64`` in turn."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulelang.interpreter.model import rng


@given(st.integers(0, 2**64 - 1), st.integers(0, 80), st.data())
def test_shuffle_draws_as_below_does(state, size, data):
    last = data.draw(st.integers(-1, size - 1)) if size else -1
    expected, generator = _shuffled_by_below(state, size, last)
    items = list(range(size))
    assert rng.shuffle(state, items, last) == generator
    assert items == expected


def test_shuffles_of_every_size_up_to_200_draw_as_below_does():
    state = rng.seed_state(12345)
    for size in range(201):
        expected, generator = _shuffled_by_below(state, size, size - 1)
        items = list(range(size))
        assert (rng.shuffle(state, items, size - 1), items) == (generator, expected), size
        state = generator ^ size


@given(st.integers(0, 2**64 - 1), st.integers(0, 150))
def test_draws_at_once_are_the_draws_one_by_one(state, n):
    one_by_one = []
    generator = state
    for _ in range(n):
        generator, bits = rng.next_u64(generator)
        one_by_one.append(bits)
    assert rng.draws(state, n) == one_by_one


@given(st.integers(0, 2**64 - 1), st.integers(1, 254))
def test_places_taken_at_once_are_below_of_each_draw(state, last):
    # The packed products give each place's draw below(last + 1 - k) as one byte.
    expected, generator = [], state
    for places in range(last + 1, 1, -1):
        generator, j = rng.below(generator, places)
        expected.append(j)
    assert list(rng.places_taken(state, last)) == expected


def test_shuffles_around_the_widest_place_of_a_byte_draw_as_below_does():
    state = rng.seed_state(7)
    for size in range(250, 262):
        expected, generator = _shuffled_by_below(state, size, size - 1)
        items = list(range(size))
        assert (rng.shuffle(state, items, size - 1), items) == (generator, expected), size


def test_the_generator_is_splitmix64():
    # SplitMix64 from the state 0: the reference values of its published implementation.
    state, first = rng.next_u64(0)
    _, second = rng.next_u64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)
    assert rng.draws(0, 2) == [first, second]


@given(st.integers(0, 2**64 - 1), st.integers(1, 10**6))
def test_below_is_the_high_bits_of_a_product(state, n):
    following, bits = rng.next_u64(state)
    assert rng.below(state, n) == (following, (bits * n) >> 64)


def _shuffled_by_below(state: int, size: int, last: int) -> tuple[list[int], int]:
    expected, generator, i = list(range(size)), state, last
    while i > 0:
        generator, j = rng.below(generator, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
        i -= 1
    return expected, generator
