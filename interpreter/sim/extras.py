"""The optional parts of rulelang that simulation can use (Dask's distributed for clusters,
matplotlib for plots): the error raised when one is asked for but not installed."""
from __future__ import annotations

from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulelangError


class MissingExtraError(RulelangError, RuntimeError):
    """An optional part of rulelang (Dask, matplotlib) is not installed (E609 missing-extra);
    the diagnostic's message says how to install it."""

    def __init__(self, message: str):
        super().__init__([Diagnostic("E609", message)])

