"""The cycle collector paused while the front end builds and checks a file's trees.

Parsing and checking allocate a great many small objects (parse-tree nodes, AST nodes,
diagnostics) that all stay alive until the stage ends. CPython's cycle collector runs
after every few hundred allocations and, from time to time, walks every object alive:
for a large file that makes the work grow with the square of its size (a 240 KB list of
62,000 numbers took 4.9 s of CPU to parse, 1.7 s without the collector). Those trees hold
no cycles (they are freed by reference counting alone), so the stages run with the
collector paused, and it is switched back on, as it was, when they end.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cycle collector off; on again afterwards if it was on (a
    block inside another leaves it to the outer one)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
