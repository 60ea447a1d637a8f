"""The error of a board: bad board data, a board file that cannot be read, or a query a
board cannot answer. A member of rulelang's error family (diagnostic E401 bad-board-data)
that stays a ``ValueError``."""

from __future__ import annotations

from pathlib import Path

from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulelangError


class BoardError(RulelangError, ValueError):
    """A problem with a board or a board query.

    ``message`` says what is wrong; ``file``, ``line`` and ``column`` (1-based)
    say where, when the problem is in a data file. Its diagnostic is E401 at that place
    (the file's first line when only the file is known; no place for a board query);
    ``str(error)`` is ``file:line:column: message`` without the code, as it always was.
    """

    def __init__(self, message: str, file: str | Path | None = None,
                 line: int | None = None, column: int | None = None, *, quotable: bool = True):
        self.message = message
        self.quotable = quotable
        self.file = None if file is None else str(file)
        self.line = line
        self.column = column
        super().__init__([Diagnostic("E401", message, self._span())])
        self.args = (message,)   # as a ValueError of the message: repr and pickling unchanged

    def _span(self) -> Span | None:
        """Where the problem is: a point in the data file, when it is in one."""
        if self.file is None:
            return None
        return Span.point(self.file, self.line or 1, self.column or 1)

    def __str__(self) -> str:
        where = [str(part) for part in (self.file, self.line, self.column) if part is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message
