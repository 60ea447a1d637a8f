"""Building boards from validated data: graph boards (tracks that fork, rejoin and loop),
hex maps and square grids, each space with its attributes; a mistake the schema cannot see
(a duplicate id, an unknown space, a grid of the wrong size) is a BoardError located in the
data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import cast

from .board import Board, Geometry, freeze
from .parsing import JSON, DataPath, Locator
from .schema import BoardData, GraphBoardData, GraphSpaceData, HexBoardData, SquareBoardData, validate

# The shapes of grids, without coordinates: a board gets its own with ``replace(shape, coords=...)``.
HEX = Geometry(
    vectors=((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)),
    names=("e", "se", "sw", "w", "nw", "ne"),
    axes=((1, 0), (0, 1), (-1, 1)),
)
_SQUARE_AXES = ((1, 0), (0, 1), (1, 1), (1, -1))
SQUARE4 = Geometry(vectors=((0, 1), (1, 0), (0, -1), (-1, 0)), names=("n", "e", "s", "w"), axes=_SQUARE_AXES)
SQUARE8 = Geometry(
    vectors=((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)),
    names=("n", "ne", "e", "se", "s", "sw", "w", "nw"),
    axes=_SQUARE_AXES,
)


def column_name(x: int) -> str:
    """The letters of column ``x`` (from 0): a..z, then aa, ab, ... like a spreadsheet."""
    letters = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def build_board(name: str, data: JSON, loc: Locator) -> Board:
    """The board that ``data`` describes, once the schema accepts it; ``loc`` places errors."""
    validate(data, loc)
    board = cast(BoardData, data)   # the schema guarantees this shape
    if board["kind"] == "graph":
        return _graph_board(name, board, loc)
    if board["kind"] == "hex":
        return _hex_board(name, board, loc)
    return _square_board(name, board, loc)


def _attributes(item: Mapping[str, object], exclude: Iterable[str]) -> dict[str, object]:
    return {k: freeze(v) for k, v in item.items() if k not in exclude}


def _check_unique(ids: Sequence[str], loc: Locator, section: str) -> dict[str, int]:
    """Map each id to its index; BoardError at the second use of an id."""
    index: dict[str, int] = {}
    for i, space_id in enumerate(ids):
        if space_id in index:
            raise loc.error(f"duplicate id {space_id!r} (first used by {section}[{index[space_id]}])",
                            (section, i))
        index[space_id] = i
    return index


def _graph_board(name: str, data: GraphBoardData, loc: Locator) -> Board:
    spaces = data["spaces"]
    ids = [str(s["id"]) for s in spaces]
    index = _check_unique(ids, loc, "spaces")
    successors = [_next_indices(s, i, index, loc) for i, s in enumerate(spaces)]
    edges = [_edge(index, pair, e, loc) for e, pair in enumerate(data.get("edges", []))]
    attributes = [_attributes(s, ("id", "next")) for s in spaces]
    return Board(name, "graph", ids, attributes, successors, edges=edges)


def _edge(index: dict[str, int], pair: Sequence[str | int], e: int, loc: Locator) -> tuple[int, int]:
    """The space indices of edge ``e``, a pair of space ids."""
    a, b = (_lookup(index, end, loc, ("edges", e, k)) for k, end in enumerate(pair))
    return a, b


def _next_indices(space: GraphSpaceData, i: int, index: dict[str, int], loc: Locator) -> list[int]:
    targets = space.get("next", [])
    if not isinstance(targets, list):
        return [_lookup(index, targets, loc, ("spaces", i, "next"))]
    return [_lookup(index, t, loc, ("spaces", i, "next", k)) for k, t in enumerate(targets)]


def _lookup(index: dict[str, int], space_id: object, loc: Locator, path: DataPath) -> int:
    try:
        return index[str(space_id)]
    except KeyError:
        raise loc.error(f"unknown space id {str(space_id)!r}", path) from None


def _hex_board(name: str, data: HexBoardData, loc: Locator) -> Board:
    hexes = data["hexes"]
    coords = [(h["q"], h["r"]) for h in hexes]
    at: dict[tuple[int, int], int] = {}
    for i, qr in enumerate(coords):
        if qr in at:
            raise loc.error(f"duplicate coordinates q={qr[0]}, r={qr[1]} (first used by hexes[{at[qr]}])",
                            ("hexes", i))
        at[qr] = i
    ids = [str(h.get("id", f"{q},{r}")) for h, (q, r) in zip(hexes, coords, strict=True)]
    _check_unique(ids, loc, "hexes")
    attributes = [_attributes(h, ("id",)) for h in hexes]
    return Board(name, "hex", ids, attributes, geometry=replace(HEX, coords=tuple(coords)))


def _square_board(name: str, data: SquareBoardData, loc: Locator) -> Board:
    width, height = data["width"], data["height"]
    cells = [(x, y) for y in range(height) for x in range(width)]
    names = [f"{column_name(x)}{y + 1}" for x, y in cells]
    attributes: list[dict[str, object]] = [{"x": x, "y": y} for x, y in cells]
    for attribute, rows in data.get("attributes", {}).items():
        path = ("attributes", attribute)
        _check_grid(rows, width, height, loc, path)
        for k, row in enumerate(rows):  # first row drawn is the north edge
            for x, value in enumerate(row):
                attributes[(height - 1 - k) * width + x][attribute] = value
    shape = SQUARE8 if data.get("diagonal", False) else SQUARE4
    return Board(name, "square", names, attributes, geometry=replace(shape, coords=tuple(cells)))


def _check_grid(rows: Sequence[Sequence[object]], width: int, height: int,
                loc: Locator, path: DataPath) -> None:
    """An attribute grid must not redefine x or y and must be height rows of width values."""
    if path[-1] in ("x", "y"):
        raise loc.error("x and y are set from the grid and cannot be given", path[:-1], str(path[-1]))
    if len(rows) != height:
        raise loc.error(f"expected {height} rows (the board's height), found {len(rows)}", path)
    for k, row in enumerate(rows):
        if len(row) != width:
            raise loc.error(f"expected {width} values (the board's width), found {len(row)}", (*path, k))
