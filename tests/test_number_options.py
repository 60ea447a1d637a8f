"""The action ids of numbers offered by a choice (``Catalog.option_ids``, ``encode``): a
number, never one of the interned values, is encoded with no failed lookup and no test of
the other kinds, with the ids, and errors, of the general path."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter.model.values import RuleError
from rulelang.interpreter.tables import catalog as catalogs

GAMES = Path(__file__).resolve().parent.parent / "games"


class _Refused(dict):   # (a table of interned values that fails any lookup by subscript)
    def __getitem__(self, key: object) -> int:
        raise AssertionError("looked up")


def _game_catalog() -> catalogs.Catalog:
    return rulelang.load(GAMES / "jamaica.rules", players=4).catalog


def _ids(catalog: catalogs.Catalog, options: tuple[object, ...]) -> object:
    try:
        return catalog.option_ids(options), [catalog.encode(option) for option in options]
    except RuleError as error:
        return error.code, str(error)


def test_numbers_are_encoded_without_a_failed_lookup(monkeypatch):
    catalog = _game_catalog()
    expected = catalog.option_ids((3, 0, 12))
    monkeypatch.setattr(catalog, "code_of", _Refused(catalog.code_of))
    monkeypatch.setattr(catalogs, "isinstance", lambda value, kind: pytest.fail("a kind tested"), raising=False)
    assert catalog.option_ids((3, 0, 12)) == expected and expected[0][0] == catalog.int_base + 3
    assert catalog.encode(7) == catalog.int_base + 7


def test_numbers_have_the_ids_of_the_general_path(monkeypatch):
    catalog = _game_catalog()
    player, component = catalog.players[1], catalog.components[2]
    lists = [(3, 0, 12), (0,), (5, True), (1, None, 2), (True, 1), (player, 4), (4, player), (component, 2),
             (-1, 2), (2, -1), (2, "x"), (), (player, component)]
    fast = [_ids(catalog, options) for options in lists]
    monkeypatch.setattr(catalogs, "type", lambda value: object, raising=False)
    assert fast == [_ids(catalog, options) for options in lists]
    assert fast[0][0] == ((catalog.int_base + 3, catalog.int_base, catalog.int_base + 12), False)
    assert any(found[0] == "E604" or isinstance(found[0], str) for found in fast)
