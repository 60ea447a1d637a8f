"""``min``/``max`` of two values (``runtime.least_of_two``, ``most_of_two``) and ``x += n``
/ ``x -= n`` (``effects.updated``) of two integers computed with no check, with the values,
ties and errors of the checked path."""
from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rulelang.interpreter.model.values import RuleError
from rulelang.interpreter.tables import effects, runtime

_VALUES = [0, 1, 2, -3, 2**63 - 1, -(2**63 - 1), 10**20, True, False, "x", None, 1.5]


def _checked_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """min and max by the checked path alone, and no value an integer to ``updated``'s test
    of two (bounded's own test kept)."""
    monkeypatch.setattr(runtime, "least_of_two",
                        lambda a, b: runtime.checked("min", min, (a, b), fallback=runtime._min_in_rules_order))
    monkeypatch.setattr(runtime, "most_of_two",
                        lambda a, b: runtime.checked("max", max, (a, b), fallback=runtime._max_in_rules_order))
    monkeypatch.setattr(effects, "type", lambda value: object, raising=False)


def _results(count: int) -> list[object]:
    rng, found = random.Random(11), []
    for _ in range(count):
        a, b = rng.choice(_VALUES), rng.choice(_VALUES)
        found += [_result(runtime.least_of_two, a, b), _result(runtime.most_of_two, a, b),
                  _result(effects.updated, a, b, "+="), _result(effects.updated, a, b, "-=")]
    return found


def _result(function: Callable[..., object], *args: object) -> object:
    try:
        value = function(*args)
    except RuleError as error:
        return error.code, str(error)
    return value, type(value)


def test_two_integers_need_no_check(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("checked")
    monkeypatch.setattr(runtime, "checked", refused)
    assert (runtime.least_of_two(3, -2), runtime.most_of_two(3, -2)) == (-2, 3)
    assert effects.updated(2**63 - 2, 1, "+=") == 2**63 - 1 and effects.updated(5, 7, "-=") == -2
    with pytest.raises(AssertionError):
        runtime.least_of_two(True, 1)   # (a boolean: checked)


def test_two_integers_give_what_the_checked_path_gives(monkeypatch):
    fast = _results(400)
    _checked_only(monkeypatch)
    assert fast == _results(400)
    assert any(isinstance(found[0], str) for found in fast) and any(found[1] is int for found in fast)
