"""Regular expressions that the passes build from the names of the code they read (a local's
key, a Python local), compiled once a process.

``re`` keeps the last 512 patterns it compiled; the passes build thousands a game (one for
each key and local asked about), so the ones asked again had been dropped and were compiled
again (a tenth of ``rulelang test games/``'s CPU went to ``re``'s compiler). Here each is
kept, so a pattern asked again, in this game or the next, is compiled no more.
"""
from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["pattern"]


@lru_cache(maxsize=16384)
def pattern(text: str) -> re.Pattern[str]:
    """``re.compile(text)``, compiled once."""
    return re.compile(text)
