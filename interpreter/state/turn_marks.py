"""Whether a ruleset says where its turns begin (``log turn PLAYER``): then the narration
heads each turn where the rules say, and no longer guesses turns from the choices made."""
from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rulelang import ast
from rulelang.check.tree import walk

if TYPE_CHECKING:
    from ..tables.catalog import Catalog

_DECLARED: WeakKeyDictionary[Catalog, bool] = WeakKeyDictionary()   # once per game, gone with it


def declares_turns(catalog: Catalog) -> bool:
    """Whether the declarations of ``catalog`` write a ``log turn`` anywhere."""
    found = _DECLARED.get(catalog)
    if found is None:
        found = _DECLARED[catalog] = any(isinstance(node, ast.Turn) for node in walk(tuple(catalog.decls)))
    return found
