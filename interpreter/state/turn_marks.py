"""Whether a ruleset says where its turns begin (``log turn PLAYER``): then the narration
heads each turn where the rules say, and no longer guesses turns from the choices made."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.check.tree import walk

if TYPE_CHECKING:
    from ..tables.catalog import Catalog


@lru_cache(maxsize=64)
def declares_turns(catalog: Catalog) -> bool:
    """Whether the declarations of ``catalog`` write a ``log turn`` anywhere."""
    return any(isinstance(node, ast.Turn) for node in walk(tuple(catalog.decls)))
