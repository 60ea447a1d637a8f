"""The generator: ``rng.shuffle`` makes the same draws as Fisher-Yates over ``rng.below``,
so a shuffle gives the same order (and the same game) as before it was written in place."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulelang.interpreter.model import rng


@given(st.integers(0, 2**64 - 1), st.integers(0, 80), st.data())
def test_shuffle_draws_as_below_does(state, size, data):
    last = data.draw(st.integers(-1, size - 1)) if size else -1
    expected, generator, i = list(range(size)), state, last
    while i > 0:
        generator, j = rng.below(generator, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
        i -= 1
    items = list(range(size))
    assert rng.shuffle(state, items, last) == generator
    assert items == expected
