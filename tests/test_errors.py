"""Every error rulelang raises to a host is a RulelangError with diagnostics, and reaches
another process (a worker's parent, a Dask client) whole: pickling keeps its class, its
diagnostics and its attributes, whatever its constructor takes."""
from __future__ import annotations

import pickle

import pytest

import rulelang
from rulelang.boards import BoardError
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import IllegalActionError, InternalError, RulelangError, RulesetError, StateDataError


def errors() -> list[RulelangError]:
    try:
        rulelang.load('game "g" { players 1 }\nphase p { x = 1 }')
    except RulesetError as error:
        from_load = error
    return [
        from_load,
        RulesetError([Diagnostic("E101", "unknown name 'a'", Span("f.rules", 3, 4, 3, 5), hint="did you mean 'b'?"),
                      Diagnostic("E102", "'b' is declared twice", Span("f.rules", 5, 1, 5, 2))]),
        IllegalActionError("it is not player 2's turn"),
        StateDataError("no zone 'dek'", path="$.zones"),
        InternalError("a bug"),
        BoardError("no space 'x'", "map.yaml", 2, 3),
    ]


@pytest.mark.parametrize("error", errors(), ids=lambda e: type(e).__name__)
def test_an_error_pickles_whole(error: RulelangError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert again.diagnostics == error.diagnostics and again.diagnostics
    assert str(again) == str(error) and repr(again) == repr(error)
    assert again.args == error.args and vars(again) == vars(error)


def test_a_load_error_keeps_its_location() -> None:
    again = pickle.loads(pickle.dumps(errors()[0]))
    assert again.diagnostic.code == "E203" and again.diagnostic.span is not None
    assert (again.diagnostic.span.line, again.diagnostic.span.column) == (2, 11)
