"""Boards: static graphs of spaces, built once from data and queried often.

A board is a fixed set of spaces with static attributes and fixed relations
between them. It is built once when a ruleset loads and never changes; every
query answers from tables computed at construction (or computed once on first
use and kept), so the interpreter can ask as often as it likes.

Three kinds of board:

``square``
    A width x height grid, spaces named like chess squares: a column letter
    then a row number from 1 (``a1`` is the south-west corner). A space's
    index is ``y * width + x`` and its attributes include ``x`` and ``y``
    (both from 0; ``y`` grows northward). See :func:`square_grid`.
``hex``
    Hexes at axial coordinates ``(q, r)``, any outline, holes allowed;
    neighbours come from the coordinates. See :func:`hex_grid`.
``graph``
    Named spaces joined by directed ``next`` edges: a track that may fork,
    rejoin and close into a loop, plus optional undirected ``edges``.

Board files (YAML or JSON, see ``schemas/board.schema.json``) are loaded by
:func:`load_board_file`; every mistake in one is a :class:`BoardError` with
the file, line and column of the offending node.

Directions (:meth:`Board.direction`, :meth:`Board.step`), numbered clockwise:

hex (pointy-topped; r grows south-eastward), from east::

    0 e  (+1, 0)    1 se (0, +1)    2 sw (-1, +1)
    3 w  (-1, 0)    4 nw (0, -1)    5 ne (+1, -1)

square, orthogonal neighbours (the default), from north (+y)::

    0 n (0, +1)    1 e (+1, 0)    2 s (0, -1)    3 w (-1, 0)

square with ``diagonal=True``: 0 n, 1 ne, 2 e, 3 se, 4 s, 5 sw, 6 w, 7 nw.

Graph boards have no directions. ``Board.directions`` holds the short names in
index order; the opposite of ``d`` is ``(d + len(directions) // 2) % len(directions)``.

The package's modules: ``board`` (spaces and the board's queries), ``parsing`` (a board
file's text into data), ``schema`` (validating board data), ``building`` (graph, hex and
square boards from validated data), ``loading`` (the constructors below) and ``errors``
(:class:`BoardError`).

Example:

>>> board = square_grid("main", 3, 3)
>>> centre = board.space("b2")
>>> [str(s) for s in board.neighbors(centre)]
['b1', 'a2', 'c2', 'b3']
>>> board.step(centre, 0), board.distance(board.space("a1"), board.space("c3"))
(Space(board='main', index=7, name='b3'), 4)
>>> len(board.lines(3))
8
"""


from __future__ import annotations

from .board import Board, Geometry, Space, interned_space
from .building import column_name
from .errors import BoardError
from .loading import board_from_data, hex_grid, load_board_file, square_grid
from .parsing import JSON
from .schema import SCHEMA_PATH, Scalar

__all__ = [
    "JSON", "SCHEMA_PATH", "Board", "BoardError", "Geometry", "Scalar", "Space", "board_from_data",
    "column_name", "hex_grid", "interned_space", "load_board_file", "square_grid",
]
