"""The side of each track space's circle its name is written on (interpreter/hosts/label_places.py):
never over an arrow, a circle or another name."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.boards import board_from_data
from rulelang.interpreter.hosts.board_layout import board_layout
from rulelang.interpreter.hosts.label_places import (
    MAX_PLACED,
    Box,
    arrow_segments,
    circle_box,
    corner_box,
    label_places,
    name_box,
    name_width,
    segment_inside,
)

ROOT = Path(__file__).resolve().parent.parent


def loop_board(length: int) -> dict[str, Any]:
    names = [f"s{i}" for i in range(length)]
    return board_layout(board_from_data("t", {"kind": "graph", "spaces": [
        {"id": name, "next": names[(i + 1) % length]} for i, name in enumerate(names)]}))


def placed_boxes(layout: dict[str, Any]) -> list[Box]:
    """The boxes of the names, then of the corner badges."""
    spaces = layout["spaces"]
    return ([name_box(name_width(s["name"]), tuple(s["label"])).moved(s["x"], s["y"]) for s in spaces]
            + [corner_box(tuple(s["corner"])).moved(s["x"], s["y"]) if s["corner"] != [0, 0] else Box(0, 0, 0, 0)
               for s in spaces])


def assert_names_are_free(layout: dict[str, Any]) -> None:
    """No name or corner badge covers an arrow, another circle, another name or badge."""
    spaces, links = layout["spaces"], layout["links"]
    centres = [(s["x"], s["y"]) for s in spaces]
    boxes = placed_boxes(layout)
    for index, box in enumerate(boxes):
        name = spaces[index % len(spaces)]["name"]
        assert all(segment_inside(box, a, b) == 0 for a, b in arrow_segments(centres, links)), name
        assert all(box.overlap(circle_box(c)) == 0 for j, c in enumerate(centres) if j != index % len(spaces)), name
        assert all(box.overlap(other) == 0 for j, other in enumerate(boxes) if j != index), name


def test_names_beside_a_loop_go_above_its_top_and_outside_its_upright_sides() -> None:
    layout = loop_board(16)
    spaces = layout["spaces"]
    xs = [s["x"] for s in spaces]
    ys = [s["y"] for s in spaces]
    for space in spaces:
        upright_side = space["y"] != min(ys)   # the bottom corners too: an arrow comes from above
        if space["x"] == max(xs) and upright_side:
            assert space["label"] == [1, 0], space
        elif space["x"] == min(xs) and upright_side:
            assert space["label"] == [-1, 0], space
        else:
            assert space["label"] == [0, -1], space
    assert_names_are_free(layout)


@pytest.mark.parametrize("path", ["games/jamaica.rules", "games/jamaica_2p.rules"])
def test_no_name_or_corner_of_a_forked_track_lies_over_an_arrow_a_circle_a_name_or_a_corner(path: str) -> None:
    game = rulelang.load(ROOT / path, players=2 if "2p" in path else 3)
    for board in game.catalog.boards.values():
        assert_names_are_free(board_layout(board))


def test_grids_have_no_label_sides() -> None:
    grid = board_from_data("g", {"kind": "square", "width": 2, "height": 2})
    assert all("label" not in space and "corner" not in space for space in board_layout(grid)["spaces"])


def test_a_name_box_touches_its_circle_on_the_side_chosen() -> None:
    above = name_box(0.5, (0, -1))
    right = name_box(0.5, (1, 0))
    assert above.bottom == pytest.approx(-0.41) and above.left == pytest.approx(-0.25)
    assert right.left == pytest.approx(0.41) and right.top == pytest.approx(-0.09)
    below_left = corner_box((-1, 1))
    assert below_left.right == pytest.approx(-0.38 / 2 ** 0.5) and below_left.top == pytest.approx(0.38 / 2 ** 0.5)
    assert corner_box((-1, 0)).right == pytest.approx(-0.38)
    assert segment_inside(Box(0, 0, 1, 1), (-1, 0.5), (2, 0.5)) == pytest.approx(1)
    assert segment_inside(Box(0, 0, 1, 1), (-1, 2), (2, 2)) == 0


def test_a_corner_badge_with_no_free_side_goes_inside_its_circle() -> None:
    """Eight spaces around one: every side of the middle one is an arrow, a circle or a name."""
    centres = [(1.0, 1.0), (0.0, 1.0), (2.0, 1.0), (1.0, 0.0), (1.0, 2.0),
               (0.0, 0.0), (2.0, 0.0), (0.0, 2.0), (2.0, 2.0)]
    links = [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [0, 8]]
    _, corners = label_places(["middle", "w", "e", "n", "s", "nw", "ne", "sw", "se"], centres, links)
    assert corners[0] == (0, 0)
    assert corners[1] != (0, 0)


def test_a_board_too_large_to_search_keeps_its_names_above() -> None:
    centres = [(float(i), 0.0) for i in range(MAX_PLACED + 1)]
    sides, corners = label_places([str(i) for i in range(MAX_PLACED + 1)], centres, [])
    assert set(sides) == {(0, -1)} and set(corners) == {(1, 1)}
