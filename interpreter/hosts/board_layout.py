"""Where to draw each space of a board: the layout the web page draws boards with.

Pure functions of a ``Board``. A layout puts the centre of each space at ``(x, y)`` in cell
units, ``y`` growing downward as on a page, the top-left corner of the drawing at (0, 0):

- a square grid: a cell per space, row 1 (``y`` 0 of the board data, which grows
  northward) at the bottom;
- a hex grid: pointy-topped hexes from their axial coordinates ``(q, r)``, each row half a
  hex to the right of the one above; a hex is 1 wide and ``HEX_HEIGHT`` tall;
- a graph board (a track that may fork and rejoin): the main route from the first space
  laid around a rectangle when it closes into a loop, along the rows of a snake when it
  does not; the branches of a fork side by side across the route, each spread over the
  length of the longest one. Spaces that the main route and its forks do not reach go in
  a row below.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .label_places import label_places

if TYPE_CHECKING:
    from rulelang.boards import Board

HEX_HEIGHT = 2 / math.sqrt(3)
"""The height of a pointy-topped hex 1 wide (from point to point)."""
HEX_ROW = 1.5 / math.sqrt(3)
"""The distance between the centres of two rows of hexes 1 wide."""
LANE = 1.0
"""The distance across the route between two branches of a fork."""
ASPECT = 1.6
"""Width / height of the rectangle a closed track goes around."""
SNAKE_GAP = 2.0
"""The distance between two rows of an open track (room for the branches of a fork)."""

Point = tuple[float, float]
Successors = Sequence[Sequence[int]]


@dataclass(frozen=True)
class Placed:
    """A space's place along a track: its distance from the start along the main route, and
    its offset across the route (0 on the route, +-LANE/2... on the branches of a fork)."""

    along: float
    across: float


def board_layout(board: Board) -> dict[str, Any]:
    """The layout of ``board`` as data: its name, kind, the shape of its cells, its extent
    (``width``, ``height``) and each space's centre and attributes; ``links`` are the
    directed successors of a graph board ([] for grids). A graph board's space also has the
    side of its circle to write its name on (``label``: ``[0, -1]`` above, ``[1, 0]`` right...),
    where no arrow, circle or other name lies, and the side for a corner badge (``corner``:
    a diagonal such as ``[1, 1]`` below right when one is free) where neither they nor other
    badges lie
    (``label_places.py``)."""
    links: list[list[int]] = []
    if board.kind == "square":
        centres, cell, size = square_centres(board), "square", (1.0, 1.0)
    elif board.kind == "hex":
        centres, cell, size = hex_centres(board), "hex", (1.0, HEX_HEIGHT)
    else:
        successors = successor_lists(board)
        centres, cell, size = track_centres(successors), "circle", (1.0, 1.0)
        links = [[i, j] for i, targets in enumerate(successors) for j in targets]
    shifted, width, height = fitted(centres, size)
    spaces = [{"name": s.name, "index": s.index, "x": x, "y": y, "attributes": dict(s.attributes)}
              for s, (x, y) in zip(board.spaces, shifted, strict=True)]
    if cell == "circle":
        sides, corners = label_places([s.name for s in board.spaces], shifted, links)
        for space, side, corner in zip(spaces, sides, corners, strict=True):
            space["label"], space["corner"] = list(side), list(corner)
    return {"name": board.name, "kind": board.kind, "cell": cell, "width": width, "height": height,
            "spaces": spaces, "links": links}


def successor_lists(board: Board) -> list[list[int]]:
    """The indices of the spaces that follow each space."""
    return [[s.index for s in board.successors(space)] for space in board.spaces]


def fitted(centres: Sequence[Point], size: Point) -> tuple[list[Point], float, float]:
    """Centres moved so that the drawing starts at (0, 0), cells of ``size`` whole; and the
    extent (width, height) of the drawing. Coordinates are rounded to 4 decimals."""
    if not centres:
        return [], 0.0, 0.0
    left = min(x for x, _ in centres) - size[0] / 2
    top = min(y for _, y in centres) - size[1] / 2
    moved = [(round(x - left, 4), round(y - top, 4)) for x, y in centres]
    width = max(x for x, _ in moved) + size[0] / 2
    height = max(y for _, y in moved) + size[1] / 2
    return moved, round(width, 4), round(height, 4)


def square_centres(board: Board) -> list[Point]:
    """A cell per space at its ``x``; row ``y`` 0 (row 1) at the bottom."""
    coordinates = [(_whole(s.attributes.get("x")), _whole(s.attributes.get("y"))) for s in board.spaces]
    top = max((y for _, y in coordinates), default=0)
    return [(float(x), float(top - y)) for x, y in coordinates]


def hex_centres(board: Board) -> list[Point]:
    """Pointy-topped hexes at axial ``(q, r)``: ``r`` grows downward, each row half a hex
    to the right of the one above."""
    return [(_whole(s.attributes.get("q")) + _whole(s.attributes.get("r")) / 2, _whole(s.attributes.get("r")) * HEX_ROW)
            for s in board.spaces]


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# ---------------------------------------------------------------- tracks


def track_centres(successors: Successors) -> list[Point]:
    """The centre of each space of a track whose space ``i`` leads to ``successors[i]``."""
    placed, length, closed = route_places(successors)
    if closed and length >= 4:
        centres = best_loop(placed, length)
    else:
        centres = {index: snake_point(place, max(length, 1.0)) for index, place in placed.items()}
    bottom = max((y for _, y in centres.values()), default=-1.0) + 1.5
    missing = [i for i in range(len(successors)) if i not in centres]
    for column, index in enumerate(missing):
        centres[index] = (float(column), bottom)
    return [centres[i] for i in range(len(successors))]


def route_places(successors: Successors, start: int = 0) -> tuple[dict[int, Placed], float, bool]:
    """Where each space of the main route and of its forks lies along the route; the length
    of the route; whether it closes into a loop (comes back to ``start``)."""
    placed: dict[int, Placed] = {}
    along, node = 0.0, start
    while 0 <= node < len(successors) and node not in placed:
        placed[node] = Placed(along, 0.0)
        following = list(successors[node])
        if not following:
            return placed, along, False
        merge, branches = fork_of(node, following, successors)
        if merge is None:
            node, along = following[0], along + 1
            continue
        span = max(len(branch) for branch in branches) + 1
        for number, branch in enumerate(branches):
            across = (number - (len(branches) - 1) / 2) * LANE
            for step, index in enumerate(branch, 1):
                placed.setdefault(index, Placed(along + step * span / (len(branch) + 1), across))
        node, along = merge, along + span
    return placed, along, node == start and len(placed) > 1


def fork_of(fork: int, following: Sequence[int], successors: Successors) -> tuple[int | None, list[list[int]]]:
    """Where the branches from space ``fork`` to ``following`` meet again, and the spaces of
    each branch before it; (None, []) for a single way on or branches that never meet."""
    if len(following) < 2:
        return None, []
    chains = [first_chain(branch, successors, fork) for branch in following]
    others = [set(chain) for chain in chains[1:]]
    merge = next((index for index in chains[0] if all(index in chain for chain in others)), None)
    if merge is None:
        return None, []
    return merge, [chain[:chain.index(merge)] for chain in chains]


def first_chain(index: int, successors: Successors, fork: int) -> list[int]:
    """The spaces from ``index`` on, each time to the first of its successors, until one
    comes again, the track ends, or it comes back to ``fork``."""
    chain: list[int] = []
    seen: set[int] = {fork}
    while 0 <= index < len(successors) and index not in seen:
        chain.append(index)
        seen.add(index)
        if not successors[index]:
            break
        index = successors[index][0]
    return chain


def best_loop(placed: dict[int, Placed], length: float) -> dict[int, Point]:
    """The places of a closed route of ``length`` steps around a rectangle of whole sides,
    started where the branches of its forks lie farthest from the other spaces (a fork at a
    corner would crowd them)."""
    width, height = rectangle(length)
    best: tuple[float, dict[int, Point]] | None = None
    for shift in range(2 * (width + height)):
        centres = {index: loop_point(Placed(place.along + shift, place.across), width, height)
                   for index, place in placed.items()}
        gap = closest_to_branches(centres, [i for i, place in placed.items() if place.across])
        if best is None or gap > best[0] + 1e-9:
            best = (gap, centres)
        if gap >= 1 - 1e-9:
            break
    assert best is not None
    return best[1]


def rectangle(length: float) -> tuple[int, int]:
    """The sides of a rectangle, about ASPECT times as wide as high, whose perimeter holds
    ``length`` steps (one more when ``length`` is odd): every space on the rectangle lies on
    a whole point, its corners too."""
    height = max(1, round(length / 2 / (1 + ASPECT)))
    return max(1, math.ceil(length / 2) - height), height


def closest_to_branches(centres: dict[int, Point], branches: Sequence[int]) -> float:
    """The least distance between a space on a branch of a fork and any other space."""
    return min((math.dist(centres[i], centres[j]) for i in branches for j in centres if j != i), default=math.inf)


def loop_point(place: Placed, width: int, height: int) -> Point:
    """A place on a ``width`` x ``height`` rectangle, clockwise from its top-left corner;
    ``across`` outward (up on the top side, right on the right side...)."""
    t = place.along % (2 * (width + height))
    if t < width:
        x, y, outward = t, 0.0, (0.0, -1.0)
    elif t < width + height:
        x, y, outward = float(width), t - width, (1.0, 0.0)
    elif t < 2 * width + height:
        x, y, outward = width - (t - width - height), float(height), (0.0, 1.0)
    else:
        x, y, outward = 0.0, height - (t - 2 * width - height), (-1.0, 0.0)
    return x + place.across * outward[0], y + place.across * outward[1]


def snake_point(place: Placed, length: float) -> Point:
    """A place on an open track: rows left to right, then right to left, SNAKE_GAP apart;
    ``across`` upward."""
    row_length = max(4, math.ceil(math.sqrt(length * 3)))
    row = int(place.along // row_length)
    t = place.along - row * row_length
    x = t if row % 2 == 0 else row_length - 1 - t
    return x, row * SNAKE_GAP - place.across
