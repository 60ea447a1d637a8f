"""``sorted(x for x in ... by k)`` (``runtime.in_order_by``): pairs whose keys are all
integers sorted in place with no check, in the order, ties and errors of the checked path."""
from __future__ import annotations

import random

import pytest

from rulelang.interpreter.model.values import RuleError
from rulelang.interpreter.tables import runtime


def _checked_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key made not an integer to the fast path's test: the checked path for all."""
    monkeypatch.setattr(runtime, "type", lambda value: object, raising=False)


def test_integer_keys_need_no_check(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("checked")
    monkeypatch.setattr(runtime, "checked", refused)
    assert runtime.in_order_by([("a", 3), ("b", 1), ("c", 3), ("d", -2)], False) == ("d", "b", "a", "c")
    assert runtime.in_order_by([("a", 3), ("b", 1), ("c", 3), ("d", -2)], True) == ("a", "c", "b", "d")
    with pytest.raises(AssertionError):
        runtime.in_order_by([("a", True), ("b", 1)], False)   # (a boolean: checked)


def _orders(count: int) -> list[object]:
    rng, found = random.Random(7), []
    for _ in range(count):
        keys = [rng.choice([0, 1, 2, -3, 10**20, True, False, "x", None]) for _ in range(rng.randrange(0, 6))]
        pairs = [(f"e{i}", key) for i, key in enumerate(keys)]
        found += [_ordered(pairs, descending) for descending in (False, True)]
    return found


def _ordered(pairs: list[tuple[str, object]], descending: bool) -> object:
    try:
        return runtime.in_order_by(pairs, descending)
    except RuleError as error:
        return str(error)


def test_the_same_orders_and_errors_as_the_checked_path(monkeypatch):
    fast = _orders(400)
    _checked_only(monkeypatch)
    assert fast == _orders(400) and any(isinstance(found, str) for found in fast)
