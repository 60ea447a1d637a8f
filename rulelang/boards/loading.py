"""The constructors of boards: square and hex grids from their sizes or hexes, and boards
from board data or from a board file (YAML or JSON) read within bounds."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from rulelang.files import MAX_BOARD_BYTES, FileAccessError, decode_text, read_confined

from .board import Board
from .building import build_board
from .errors import BoardError
from .parsing import JSON, Locator, parse_board_text
from .schema import Scalar


def square_grid(name: str, width: int, height: int, *, diagonal: bool = False,
                attributes: Mapping[str, Sequence[Sequence[Scalar]]] | None = None) -> Board:
    """A width x height square board, spaces named a1 (south-west) onwards.

    ``attributes`` maps an attribute name to ``height`` rows of ``width``
    values, the first row being the north edge (as the board is drawn).
    """
    data: dict[str, JSON] = {"kind": "square", "width": width, "height": height, "diagonal": diagonal}
    if attributes:
        data["attributes"] = {k: [list(row) for row in rows] for k, rows in attributes.items()}
    return board_from_data(name, data)


def hex_grid(name: str, hexes: Iterable[Mapping[str, JSON] | tuple[int, int]]) -> Board:
    """A hex board from hexes in axial coordinates, in board order.

    Each hex is a ``(q, r)`` pair or a mapping ``{"q": .., "r": .., "id": ..,
    **attributes}`` as in a board file; ids default to ``"q,r"``.
    """
    items = [h if isinstance(h, Mapping) else {"q": h[0], "r": h[1]} for h in hexes]
    return board_from_data(name, {"kind": "hex", "hexes": [dict(h) for h in items]})


def board_from_data(name: str, data: Mapping[str, JSON], *, file: str | Path | None = None) -> Board:
    """Validate board data (the parsed form of a board file) and build the board."""
    return build_board(name, data, Locator(None, file))


def load_board_file(name: str, path: str | Path) -> Board:
    """Load, validate and build the board in a YAML or JSON file.

    Every problem is a BoardError carrying the file and the 1-based line and
    column of the offending node. The file must be a regular file of at most
    MAX_BOARD_BYTES (1 MiB); no message quotes the file's text beyond a key name
    or a short value, and ``error.quotable`` is False when the file is not a
    board document (not YAML or JSON, or no mapping at its top): then the file's
    lines must not be shown.
    """
    path = Path(path)
    try:
        raw = read_confined(path, "board file", MAX_BOARD_BYTES)
        text = decode_text(raw)
    except FileAccessError as error:
        raise BoardError(f"cannot read board file: {error.reason}", path, quotable=False) from None
    except UnicodeDecodeError:
        raise BoardError("cannot read board file: it is not UTF-8 text", path, quotable=False) from None
    if "\0" in text:
        raise BoardError("cannot read board file: it holds a NUL character", path, quotable=False)
    return _board_of_text(name, path, text)


@functools.lru_cache(maxsize=8)
def _board_of_text(name: str, path: Path, text: str) -> Board:
    """The board ``name`` built from the ``text`` of the file ``path``. Kept for the same
    name, path and text: a lint reads each board file for the name checks, then again to
    build the data, and parsing YAML and validating it is most of a lint's time for a large
    board. A Board never changes once built (its caches give the same answers), so one
    serves both; a BoardError is raised anew each time (an exception is never kept)."""
    try:
        data, root = parse_board_text(text, path)
    except BoardError as error:
        error.quotable = False
        raise
    except RecursionError:
        raise BoardError("board file is nested too deeply", path, quotable=False) from None
    except ValueError:   # an integer too long for Python to read
        raise BoardError("board file holds a number too large to read", path, quotable=False) from None
    try:
        return build_board(name, data, Locator(root, path))
    except BoardError as error:
        error.quotable = isinstance(data, dict)
        raise
    except RecursionError:
        raise BoardError("board file is nested too deeply", path, quotable=False) from None
