"""The signature table of the builtin functions (rulelang/check/signatures.py) and the runtime
agree: the runtime implements exactly the functions the table declares, each taking the
arguments the table says; and the front end checks calls against the table."""
from __future__ import annotations

import inspect

import pytest

from rulelang.check.linter import lint_text
from rulelang.check.signatures import AGGREGATE, BOARD, QUERY, SIGNATURES, names_with_role
from rulelang.interpreter.compiler.aggregates import COMPILED_AGGREGATES
from rulelang.interpreter.tables.builtins import AGGREGATES, BUILTINS, LOAD_TIME
from rulelang.interpreter.tables.catalog import Catalog

POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def positional_arity(function, skip: int) -> tuple[int, int]:
    """(required, all) positional parameters of ``function``, after the first ``skip``."""
    params = [p for p in inspect.signature(function).parameters.values() if p.kind in POSITIONAL][skip:]
    return sum(p.default is inspect.Parameter.empty for p in params), len(params)


def test_the_runtime_implements_exactly_the_declared_queries():
    assert set(BUILTINS) == names_with_role(QUERY)


def test_the_runtime_compiles_exactly_the_declared_aggregates():
    assert AGGREGATES == names_with_role(AGGREGATE) == COMPILED_AGGREGATES


def test_the_runtime_builds_boards_with_exactly_the_declared_constructors():
    assert names_with_role(BOARD) == LOAD_TIME
    assert all(callable(getattr(Catalog, "_" + name, None)) for name in LOAD_TIME)


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_each_query_takes_the_declared_arguments(name):
    signature = SIGNATURES[name]
    assert positional_arity(BUILTINS[name], skip=1) == (signature.min_args, signature.max_args)   # after the state


@pytest.mark.parametrize("name", ["square_grid", "load_board"])
def test_each_board_constructor_takes_the_declared_arguments(name):
    method = getattr(Catalog, "_" + name)
    signature = SIGNATURES[name]
    params = inspect.signature(method).parameters
    required = [p for p in list(params)[1:] if params[p].default is inspect.Parameter.empty]
    assert len(required) == signature.min_args
    assert set(signature.keywords) <= set(params)


@pytest.mark.parametrize("call", ["size(3)", "top([1], \"2\")", "bank(1)", "next_player(2)", "sum(3)",
                                  "square_grid(\"3\", 3)"])
def test_plainly_wrong_arguments_are_e206(call):
    assert codes(f'game "T" {{ players 1 }}\nphase main {{\n  log {call}\n  end game\n}}\n') == ["E206"]


def test_signatures_are_consistent():
    for signature in SIGNATURES.values():
        assert 0 <= signature.min_args <= signature.max_args
        assert not signature.keywords or signature.role == BOARD
        assert not signature.needs_key or signature.role == AGGREGATE


def codes(text: str) -> list[str]:
    return [d.code for d in lint_text(text) if d.severity == "error"]


@pytest.mark.parametrize("call", ["size()", "size([1], [2])", "top([1], 2, 3)", "insert([1], 0)", "sum([1], [2])",
                                  "min(1, 2, 3)", "best([1, 2])", "worst(x for x in [1])"])
def test_wrong_calls_are_e201(call):
    assert codes(f'game "T" {{ players 1 }}\nphase main {{\n  log {call}\n  end game\n}}\n') == ["E201"]


@pytest.mark.parametrize("call", ["size([1])", "top([1])", "top([1], 1)", "slice([1], 0)", "slice([1], 0, 1)",
                                  "min(1, 2)", "max(x for x in [1])", "best(x for x in [1] by x)"])
def test_right_calls_are_clean(call):
    assert codes(f'game "T" {{ players 1 }}\nphase main {{\n  log {call}\n  end game\n}}\n') == []
