"""The first offer of a 'choose' whose options are a subset of a list of distinct spaces known
at load (options.py): the resumable function finds the subset's index (``SUBSET``) and its
options in a table made at load; the choice makes, with that table, the action ids of each
subset at load too, so that a new decision takes its ids by the index (no tuple built, no
lookup of each option) and is kept at once by that index, as the next visit looks for it.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .options import SUBSET

if TYPE_CHECKING:
    from ..model.values import Value
    from ..tables.catalog import Catalog
    from .module import Module

__all__ = ["subset_ids"]


def subset_ids(module: Module, lines: list[str], catalog: Catalog) -> tuple[tuple[int, ...], ...] | None:
    """The action ids of each subset's options, by the subset's index, when ``lines`` (that
    compute a choice's options into ``_o``) take them from the table of a list of spaces at
    the index ``SUBSET``; None otherwise, or if an option is not an interned value."""
    table = next((match.group(1) for line in lines
                  if (match := re.fullmatch(rf"\s*_o = (_k\d+)\[{SUBSET}\]", line))), None)
    if table is None:
        return None
    subsets: tuple[tuple[Value, ...], ...] = module.namespace[table]
    ids = [catalog.option_ids(options) for options in subsets]
    if not all(interned for _, interned in ids):
        return None
    return tuple(option for option, _ in ids)
