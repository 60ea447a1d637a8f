"""The cycle collector paused while a file is parsed and linted (rulelang/memory.py): its
walks over every live object made that work grow with the square of a large file's size."""
from __future__ import annotations

import gc

import pytest

from rulelang.check.linter import lint_text
from rulelang.memory import collector_paused
from rulelang.syntax.parser import parse


def _long_list(count: int, tag: str) -> str:
    numbers = ", ".join(str(i % 100) for i in range(count))
    return f'# {tag}\ngame "T" {{ players 2 }}\nvar l: list[int] = [{numbers}]\nphase main {{ log size(l) }}\n'


@pytest.fixture
def collections():
    """The cycle collector's runs while the test runs, as a list of their phases."""
    seen: list[str] = []

    def count(phase: str, info: dict[str, int]) -> None:
        seen.append(phase)
    gc.callbacks.append(count)
    yield seen
    gc.callbacks.remove(count)


def test_parsing_and_linting_a_large_file_runs_no_collection_on_the_way(collections):
    text = _long_list(20_000, "parse")   # (about 600,000 objects made on the way: 80 runs unpaused)
    parse(text, "<text>")
    assert lint_text(_long_list(20_000, "lint"), "<text>") == []
    assert collections.count("start") <= 2 and gc.isenabled()   # (one after each: the young objects once)


def test_the_collector_is_back_as_it_was_after_the_block_and_after_an_error():
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        assert not gc.isenabled()
        raise KeyError("a failure inside the block")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused(), collector_paused():
            pass
        assert not gc.isenabled()   # a caller's own choice is kept
    finally:
        gc.enable()
