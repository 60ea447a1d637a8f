"""Where to write each space's name beside a track's circle: on the side that no arrow, no
other circle and no other name takes.

A track (a graph board) draws each space as a circle with its name outside it, and an arrow
from each space to each of its successors. A name always above its circle crosses the
arrows of a route that runs up or down (the sides of a loop); this module tries the eight
sides of each circle, in cell units of ``board_layout``, and keeps the free one (the one
with least overlap), preferring above, then outward (away from the board's middle), then
below, then the corners. Names are placed one after the other, each avoiding those placed
before it.

The page draws the circle and the name at the sizes below (as fractions of the distance
between neighbouring centres), so that what is measured here is what is drawn.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

CIRCLE_RADIUS = 0.36
"""The radius of a space's circle, in cells."""
NAME_HEIGHT = 0.18
"""The height of a space's name (its font size), in cells."""
CHARACTER_WIDTH = 0.62
"""The width of one character of a name, in name heights (a little more than most are)."""
NAME_GAP = 0.05
"""The room between a circle and its name, in cells."""
CORNER_WIDTH = 0.36
CORNER_HEIGHT = 0.2
"""The room kept for a space's corner badge (a short text, such as the points printed on a
space, that a ruleset's presentation writes there), in cells."""
CORNER_GAP = 0.02
"""The room between a circle and its corner badge, in cells."""
CORNERS: tuple[Point, ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
"""The sides tried for a corner badge: the diagonals first."""
INSIDE: Point = (0, 0)
"""The corner badge of a space with no free side: inside its circle, at the top."""
MAX_PLACED = 2000
"""Boards with more spaces keep every name above its circle (600 spaces take a quarter of a
second)."""

Point = tuple[float, float]
SIDES: tuple[Point, ...] = ((0, -1), (1, 0), (-1, 0), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
"""The sides tried, as directions from the circle's centre (``y`` grows downward)."""


@dataclass(frozen=True)
class Box:
    """An upright rectangle: its left, top, right and bottom edges."""

    left: float
    top: float
    right: float
    bottom: float

    def overlap(self, other: Box) -> float:
        """The area the two boxes share (0 when they do not meet)."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0

    def moved(self, dx: float, dy: float) -> Box:
        """The box moved by (dx, dy)."""
        return Box(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)


def name_width(name: str) -> float:
    """The width of a space's name as the page writes it, in cells."""
    return max(1, len(name)) * CHARACTER_WIDTH * NAME_HEIGHT


def side_box(size: Point, side: Point, gap: float) -> Box:
    """The box of ``size`` (width, height) beside a circle at (0, 0), on ``side``: its edge
    (or corner, on a diagonal) nearest the circle ``gap`` off the circle's edge."""
    (width, height), length = size, math.hypot(*side)
    x, y = side[0] / length * (CIRCLE_RADIUS + gap), side[1] / length * (CIRCLE_RADIUS + gap)
    left = x - width / 2 if side[0] == 0 else x if side[0] > 0 else x - width
    top = y - height / 2 if side[1] == 0 else y if side[1] > 0 else y - height
    return Box(left, top, left + width, top + height)


def name_box(width: float, side: Point) -> Box:
    """The box of a name ``width`` wide beside a circle at (0, 0), on ``side``."""
    return side_box((width, NAME_HEIGHT), side, NAME_GAP)


def corner_box(side: Point) -> Box:
    """The box of a corner badge beside a circle at (0, 0), on ``side``."""
    return side_box((CORNER_WIDTH, CORNER_HEIGHT), side, CORNER_GAP)


def segment_inside(box: Box, start: Point, end: Point) -> float:
    """The length of the segment from ``start`` to ``end`` that lies inside ``box``
    (Liang-Barsky clipping)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, start[0] - box.left), (dx, box.right - start[0]),
                 (-dy, start[1] - box.top), (dy, box.bottom - start[1])):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    return max(0.0, high - low) * math.hypot(dx, dy)


def arrow_segments(centres: Sequence[Point], links: Sequence[Sequence[int]]) -> list[tuple[Point, Point]]:
    """Each link as the segment the page draws: from circle edge to circle edge."""
    segments = []
    for link in links:
        a, b = centres[link[0]], centres[link[1]]
        length = math.dist(a, b)
        if length <= 2 * CIRCLE_RADIUS:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        segments.append(((a[0] + ux * CIRCLE_RADIUS, a[1] + uy * CIRCLE_RADIUS),
                         (b[0] - ux * CIRCLE_RADIUS, b[1] - uy * CIRCLE_RADIUS)))
    return segments


def circle_box(centre: Point) -> Box:
    """The upright box around a space's circle."""
    x, y = centre
    return Box(x - CIRCLE_RADIUS, y - CIRCLE_RADIUS, x + CIRCLE_RADIUS, y + CIRCLE_RADIUS)


def side_order(centre: Point, middle: Point) -> list[Point]:
    """The sides in the order of preference: above; the side away from the board's middle;
    below; the other side; then the corners, the outward ones first."""
    outward = 1 if centre[0] >= middle[0] else -1
    upward = -1 if centre[1] <= middle[1] else 1
    return [(0, -1), (outward, 0), (0, 1), (-outward, 0),
            (outward, upward), (-outward, upward), (outward, -upward), (-outward, -upward)]


Segment = tuple[Point, Point]


def segment_box(segment: Segment) -> Box:
    """The upright box around a segment."""
    (x1, y1), (x2, y2) = segment
    return Box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def cells_of(box: Box) -> Iterator[tuple[int, int]]:
    """The unit cells (of the board's cells) that ``box`` meets."""
    for x in range(math.floor(box.left), math.floor(box.right) + 1):
        for y in range(math.floor(box.top), math.floor(box.bottom) + 1):
            yield x, y


@dataclass
class Obstacles:
    """What a name must not cover: the arrows, the circles and the names placed so far, each
    filed under the unit cells it meets, so that a box is measured against its neighbours only."""

    cells: dict[tuple[int, int], list[Box | Segment]] = field(default_factory=dict)

    def add(self, obstacle: Box | Segment) -> None:
        """Files ``obstacle`` under every cell it meets."""
        around = obstacle if isinstance(obstacle, Box) else segment_box(obstacle)
        for cell in cells_of(around):
            self.cells.setdefault(cell, []).append(obstacle)

    def cost(self, box: Box, ignored: Box | None = None) -> float:
        """How much of ``box`` is covered: the length of arrows in it, the area of boxes
        (``ignored`` left out: the space's own circle)."""
        near = {id(o): o for cell in cells_of(box) for o in self.cells.get(cell, ()) if o is not ignored}
        return sum(box.overlap(o) if isinstance(o, Box) else segment_inside(box, *o) for o in near.values())


def label_places(names: Sequence[str], centres: Sequence[Point],
                 links: Sequence[Sequence[int]]) -> tuple[list[Point], list[Point]]:
    """For each space, the side of its circle to write its name on, as a direction
    (``(0, -1)``: above, ``(1, 0)``: right...); and the side for its corner badge, a diagonal
    if one is free, where neither arrows, circles, names nor other badges lie (``INSIDE``, in
    the circle, when no side is)."""
    if len(centres) > MAX_PLACED or not centres:
        return [(0, -1)] * len(centres), [(1, 1)] * len(centres)
    obstacles = Obstacles()
    circles = [circle_box(c) for c in centres]
    for segment in arrow_segments(centres, links):
        obstacles.add(segment)
    for circle in circles:
        obstacles.add(circle)
    sides = name_sides(names, centres, circles, obstacles)
    return sides, corner_sides(centres, circles, obstacles)


def corner_sides(centres: Sequence[Point], circles: Sequence[Box], obstacles: Obstacles) -> list[Point]:
    """The side of each corner badge (``label_places``), the spaces with fewest free sides
    first (a space between two branches of a fork before one on a plain stretch)."""
    costs = [corner_costs(centre, circle, obstacles) for centre, circle in zip(centres, circles, strict=True)]
    corners: dict[int, Point] = {}
    for index in sorted(range(len(centres)), key=lambda i: sum(cost == 0 for cost in costs[i])):
        found = corner_costs(centres[index], circles[index], obstacles)
        cost, _, side = min(zip(found, range(len(CORNERS)), CORNERS, strict=True))
        corners[index] = side if cost == 0 else INSIDE
        if cost == 0:
            obstacles.add(corner_box(side).moved(*centres[index]))
    return [corners[i] for i in range(len(centres))]


def corner_costs(centre: Point, circle: Box, obstacles: Obstacles) -> list[float]:
    """How much each side of ``CORNERS`` of a space is covered (not by its own circle, whose
    box a badge beside it meets)."""
    return [obstacles.cost(corner_box(side).moved(*centre), circle) for side in CORNERS]


def name_sides(names: Sequence[str], centres: Sequence[Point], circles: Sequence[Box],
               obstacles: Obstacles) -> list[Point]:
    """The side of each name (``label_places``), the names added to ``obstacles``."""
    middle = (sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres))
    sides = []
    for name, centre, circle in zip(names, centres, circles, strict=True):
        width = name_width(name)
        # a diagonal name's box meets its circle's box, not the circle
        _, _, side = min((obstacles.cost(name_box(width, side).moved(*centre), circle), rank, side)
                         for rank, side in enumerate(side_order(centre, middle)))
        obstacles.add(name_box(width, side).moved(*centre))
        sides.append(side)
    return sides
