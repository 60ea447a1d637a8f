"""Tests for rulelang.boards: grids, tracks, hex maps, regions and board-file errors."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.boards import (
    Board,
    BoardError,
    Space,
    board_from_data,
    column_name,
    hex_grid,
    load_board_file,
    square_grid,
)
from rulelang.diagnostics import REGISTRY, Diagnostic, Span
from rulelang.errors import RulelangError
from rulelang.interpreter.hosts.board_layout import HEX_HEIGHT, board_layout, route_places, track_centres
from rulelang.loader import lint_text


def names(spaces):
    """Space names, to compare query results readably."""
    return [str(s) for s in spaces]


def write(tmp_path, text, filename="board.yaml"):
    path = tmp_path / filename
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load_error(tmp_path, text, filename="board.yaml") -> BoardError:
    path = write(tmp_path, text, filename)
    with pytest.raises(BoardError) as caught:
        load_board_file("test", path)
    return caught.value


# -- square grids --------------------------------------------------------


def test_square_names_indices_and_coordinates():
    board = square_grid("main", 3, 2)
    assert board.kind == "square"
    assert names(board.spaces) == ["a1", "b1", "c1", "a2", "b2", "c2"]
    b2 = board.space("b2")
    assert (b2.index, b2.attributes["x"], b2.attributes["y"]) == (4, 1, 1)
    assert board.spaces[b2.index] is b2


def test_the_linter_knows_the_coordinates_of_a_square_grids_spaces():
    """x and y are attributes of every space of a square_grid (docs/language.md): the rules
    may read them, the linter does not call them unknown (E103), and a label may name them."""
    text = textwrap.dedent("""\
        game "Sq" { players 2 }
        board grid = square_grid(3, 3)
        var at: space = space(grid, "b3")
        phase p {
          log "at " + at.x + "," + at.y
          end game
        }
        present { grid { label "{x},{y}" } }
    """)
    assert lint_text(text) == []
    assert [str(line) for line in rulelang.load(text).new_initial_state().log] == ["at 1,2"]
    assert [d.code for d in lint_text(text.replace("at.y", "at.z"))] == ["E103"]


def test_column_names_continue_after_z():
    assert [column_name(x) for x in (0, 25, 26, 27, 51, 52)] == ["a", "z", "aa", "ab", "az", "ba"]


def test_3x3_has_8_lines_of_3_and_centre_has_4_neighbours():
    board = square_grid("main", 3, 3)
    lines = board.lines(3)
    assert len(lines) == 8
    assert {tuple(names(line)) for line in lines} >= {
        ("a1", "b1", "c1"), ("a1", "a2", "a3"), ("a1", "b2", "c3"), ("a3", "b2", "c1")}
    assert names(board.neighbors(board.space("b2"))) == ["b1", "a2", "c2", "b3"]
    assert names(board.neighbors(board.space("a1"))) == ["b1", "a2"]


def test_4x4_has_10_lines_of_4_and_24_lines_of_3():
    board = square_grid("main", 4, 4)
    assert len(board.lines(4)) == 10
    assert len(board.lines(3)) == 24  # rows 8 + columns 8 + diagonals 4 + 4
    assert len(set(board.lines(3))) == 24
    assert board.lines(5) == () and board.lines(0) == ()
    assert len(board.lines(1)) == 16


def test_square_directions_and_steps():
    board = square_grid("main", 3, 3)
    b2, a1 = board.space("b2"), board.space("a1")
    assert board.directions == ("n", "e", "s", "w")
    assert [str(board.step(b2, d)) for d in range(4)] == ["b3", "c2", "b1", "a2"]
    assert board.step(a1, 2) is None and board.step(a1, 3) is None
    assert board.step(b2, 4) is None
    assert board.direction(b2, board.space("c2")) == 1
    assert board.direction(a1, board.space("c3")) is None
    assert board.distance(a1, board.space("c3")) == 4


def test_diagonal_square_grid():
    board = square_grid("main", 3, 3, diagonal=True)
    b2 = board.space("b2")
    assert len(board.neighbors(b2)) == 8
    assert board.directions == ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    assert board.direction(b2, board.space("c3")) == 1
    assert str(board.step(b2, 5)) == "a1"
    assert board.distance(board.space("a1"), board.space("c3")) == 2


def test_square_attribute_rows_are_drawn_north_first():
    board = square_grid("main", 2, 2, attributes={"terrain": [["hill", "hill"], ["sea", "wood"]]})
    assert board.space("a2").attributes["terrain"] == "hill"
    assert board.space("a1").attributes["terrain"] == "sea"
    assert board.space("b1").attributes["terrain"] == "wood"
    assert names(board.region(board.space("a2"), "terrain")) == ["a2", "b2"]


def test_successors_of_a_grid_are_its_neighbours():
    board = square_grid("main", 3, 3)
    b2 = board.space("b2")
    assert board.successors(b2) == board.predecessors(b2) == board.neighbors(b2)
    assert names(board.ahead(board.space("a1"), 2)) == ["a1", "c1", "b2", "a3"]


# -- tracks ----------------------------------------------------------------

TRACK = """
    kind: graph
    description: a loop that forks after start and rejoins at join
    spaces:
      - id: start
        next: [a1, b1]
        kind_of_space: fork
      - {id: a1, next: [a2]}
      - {id: a2, next: join}
      - {id: b1, next: [join], bonus: 2}
      - {id: join, next: [end]}
      - {id: end, next: [start], tags: [safe, last]}
"""


@pytest.fixture
def track(tmp_path) -> Board:
    return load_board_file("track", write(tmp_path, TRACK))


def test_track_successors_and_predecessors(track):
    assert track.kind == "graph"
    assert names(track.successors(track.space("start"))) == ["a1", "b1"]
    assert names(track.predecessors(track.space("join"))) == ["a2", "b1"]
    assert names(track.successors(track.space("end"))) == ["start"]
    assert names(track.neighbors(track.space("start"))) == ["a1", "b1", "end"]


def test_track_ahead_across_the_fork(track):
    start = track.space("start")
    assert names(track.ahead(start, 0)) == ["start"]
    assert names(track.ahead(start, 1)) == ["a1", "b1"]
    assert names(track.ahead(start, 2)) == ["a2", "join"]
    assert names(track.ahead(start, 3)) == ["join", "end"]
    assert names(track.ahead(start, 4)) == ["start", "end"]
    assert names(track.ahead(track.space("end"), 1)) == ["start"]


def test_track_behind_across_the_fork(track):
    join = track.space("join")
    assert names(track.behind(join, 1)) == ["a2", "b1"]
    assert names(track.behind(join, 2)) == ["start", "a1"]
    assert names(track.behind(track.space("start"), 1)) == ["end"]
    assert track.ahead(join, -2) == track.behind(join, 2)


def test_track_distance_and_within(track):
    start, join = track.space("start"), track.space("join")
    assert track.distance(start, join) == 2  # the short branch
    assert track.distance(join, start) == 2  # distance ignores direction
    assert track.distance(track.space("a1"), track.space("b1")) == 2
    assert track.distance(start, start) == 0
    assert names(track.within(start, 1)) == ["a1", "b1", "end"]
    assert names(track.within(start, 2)) == ["a1", "a2", "b1", "join", "end"]


def test_track_attributes(track):
    assert track.space("b1").attributes["bonus"] == 2
    assert track.space("end").attributes["tags"] == ("safe", "last")
    assert "next" not in track.space("start").attributes
    assert "id" not in track.space("start").attributes
    assert track.attribute_names == {"kind_of_space", "bonus", "tags"}


def test_extra_edges_are_neighbours_but_not_successors():
    board = board_from_data("g", {"kind": "graph", "spaces": [
        {"id": "p", "next": ["q"]}, {"id": "q"}, {"id": "r"}], "edges": [["q", "r"]]})
    p, q, r = board.spaces
    assert board.neighbors(r) == (q,)
    assert board.successors(q) == () and board.predecessors(r) == ()
    assert board.distance(p, r) == 2
    assert board.lines(2) == () and board.direction(p, q) is None and board.step(p, 0) is None


def test_integer_ids_are_read_as_strings():
    board = board_from_data("g", {"kind": "graph", "spaces": [{"id": 1, "next": 2}, {"id": "2"}]})
    assert names(board.successors(board.space("1"))) == ["2"]


def test_unreachable_distance_is_minus_one():
    board = board_from_data("g", {"kind": "graph", "spaces": [{"id": "p"}, {"id": "q"}]})
    assert board.distance(*board.spaces) == -1
    assert board.within(board.spaces[0], 5) == ()
    assert board.ahead(board.spaces[0], 3) == ()


# -- hex maps --------------------------------------------------------------


def hexagon(radius):
    """Axial coordinates of a hexagon-shaped map of the given radius, row by row."""
    return [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
            if abs(q + r) <= radius]


def test_hex_interior_has_6_neighbours_and_within_2():
    board = hex_grid("map", hexagon(2))
    centre = board.space("0,0")
    assert len(board.spaces) == 19
    assert len(board.neighbors(centre)) == 6
    assert len(board.within(centre, 1)) == 6
    assert len(board.within(centre, 2)) == 18
    assert centre not in board.within(centre, 2)
    corner = board.space("2,-2")
    assert len(board.neighbors(corner)) == 3
    assert len(board.within(corner, 2)) == 8  # 3 at distance 1 and 5 at distance 2
    assert board.distance(corner, board.space("-2,2")) == 4


def test_hex_directions_follow_the_documented_numbering():
    board = hex_grid("map", hexagon(1))
    centre = board.space("0,0")
    assert board.directions == ("e", "se", "sw", "w", "nw", "ne")
    assert [str(board.step(centre, d)) for d in range(6)] == ["1,0", "0,1", "-1,1", "-1,0", "0,-1", "1,-1"]
    assert board.direction(centre, board.space("1,-1")) == 5
    assert board.step(board.space("1,0"), 0) is None


def test_hex_lines_follow_the_three_axes():
    board = hex_grid("map", hexagon(2))
    assert len(board.lines(5)) == 3
    assert all(board.space("0,0") in line for line in board.lines(5))
    assert len(board.lines(3)) == 27  # per axis: 1 + 2 + 3 + 2 + 1


REGIONS = """
    kind: hex
    hexes:
      - {q: 0, r: 0, terrain: sea}
      - {q: 1, r: 0, terrain: land}
      - {q: 0, r: 1, terrain: land}
      - {q: 3, r: 0, terrain: land, id: port}
      - {q: 3, r: 1, terrain: land}
      - {q: 5, r: 0, terrain: land}
      - {q: 2, r: 0, terrain: sea}
"""


@pytest.fixture
def islands(tmp_path) -> Board:
    return load_board_file("islands", write(tmp_path, REGIONS))


def test_regions_largest_first_ties_by_lowest_index(islands):
    land = [names(r) for r in islands.regions("terrain", "land")]
    assert land == [["1,0", "0,1"], ["port", "3,1"], ["5,0"]]
    assert [names(r) for r in islands.regions("terrain", "sea")] == [["0,0"], ["2,0"]]
    assert names(islands.largest_region("terrain", "land")) == ["1,0", "0,1"]
    assert islands.largest_region("terrain", "lava") == ()


def test_region_of_a_space(islands):
    assert names(islands.region(islands.space("3,1"), "terrain")) == ["port", "3,1"]
    assert names(islands.region(islands.space("2,0"), "terrain")) == ["2,0"]


def test_region_prefers_size_over_index():
    board = hex_grid("row", [{"q": q, "r": 0, "t": t} for q, t in enumerate("LSLLLSLLL")])
    assert [[s.index for s in r] for r in board.regions("t", "L")] == [[2, 3, 4], [6, 7, 8], [0]]


def test_region_of_unknown_attribute_is_an_error(islands):
    with pytest.raises(BoardError, match="no attribute 'height'"):
        islands.regions("height", 1)


def test_region_values_keep_booleans_apart_from_integers():
    board = hex_grid("row", [{"q": 0, "r": 0, "v": 1}, {"q": 1, "r": 0, "v": True}])
    assert len(board.regions("v", 1)) == 1
    assert names(board.largest_region("v", True)) == ["1,0"]


def test_isolated_hex(islands):
    lone = islands.space("5,0")
    assert islands.neighbors(lone) == ()
    assert islands.distance(islands.space("0,0"), lone) == -1


# -- spaces and board API --------------------------------------------------


def test_space_identity_and_immutability():
    # A space is equal only to itself (identity equality and hashing, at C speed); a board
    # built again from the same data, copies and pickles give the same space.
    board = square_grid("main", 2, 2)
    other = square_grid("other", 2, 2)
    a1 = board.space("a1")
    assert a1 is board.spaces[0] and a1 == board.space("a1") and a1 in board.spaces
    assert square_grid("main", 2, 2).space("a1") is a1
    assert square_grid("main", 3, 3).space("a2") is not board.space("a2")   # another index
    assert a1 != other.space("a1") and a1 != Space("main", 0, "a1")   # (not made by a board)
    assert {a1: 1}[board.spaces[0]] == 1
    assert a1.key == ("main", 0) and sorted(reversed(board.spaces), key=lambda s: s.key) == list(board.spaces)
    assert str(a1) == "a1"
    with pytest.raises(TypeError):
        a1.attributes["x"] = 5  # type: ignore[index]
    with pytest.raises(AttributeError):
        a1.index = 3  # type: ignore[misc]
    assert copy.copy(a1) is a1 and copy.deepcopy(a1) is a1 and copy.deepcopy([a1])[0] is a1
    assert pickle.loads(pickle.dumps(a1)) is a1 and pickle.loads(pickle.dumps(board.spaces)) == board.spaces


def test_unknown_space_name_suggests_a_close_one():
    board = square_grid("main", 3, 3)
    with pytest.raises(BoardError, match=r"no space 'b4'; did you mean 'b3'\?"):
        board.space("b4")
    assert "b3" in board and "b4" not in board


def test_space_of_another_board_is_refused():
    board, other = square_grid("main", 2, 2), square_grid("other", 2, 2)
    with pytest.raises(BoardError, match="not on board 'main'"):
        board.neighbors(other.space("a1"))


def test_queries_are_precomputed():
    board = hex_grid("map", hexagon(3))
    s = board.space("1,1")
    assert board.neighbors(s) is board.neighbors(s)
    assert board.within(s, 2) is board.within(s, 2)
    assert board.lines(3) is board.lines(3)


def test_to_networkx(track):
    graph = track.to_networkx()
    assert graph.number_of_nodes() == 6 and graph.number_of_edges() == 7
    assert graph.nodes["b1"]["bonus"] == 2
    directed = track.to_networkx(directed=True)
    assert directed.is_directed() and directed.has_edge("end", "start")
    assert not directed.has_edge("start", "end")


# -- board-file errors -----------------------------------------------------


def test_schema_error_reports_yaml_line_and_column(tmp_path):
    error = load_error(tmp_path, """
        kind: hex
        hexes:
          - {q: 0, r: 0}
          - id: h2
            q: "x"
            r: 1
    """)
    assert (error.line, error.column) == (5, 8)
    assert "hexes[1].q" in error.message and "integer" in error.message
    assert str(error).startswith(f"{tmp_path / 'board.yaml'}:5:8: ")


def test_a_board_error_is_of_rulelang_s_family_with_diagnostic_e401(tmp_path):
    """BoardError is a RulelangError (E401, located in the data file) and still a
    ValueError, whose text is the one users always saw: no code in it."""
    error = load_error(tmp_path, """
        kind: graph
        spaces:
          - {id: p, next: [nowhere]}
    """)
    assert isinstance(error, RulelangError) and isinstance(error, ValueError)
    file = str(tmp_path / "board.yaml")
    assert error.diagnostic == Diagnostic("E401", error.message, Span.point(file, error.line, error.column))
    assert str(error) == f"{file}:{error.line}:{error.column}: {error.message}"
    assert REGISTRY["E401"].name == "bad-board-data"
    copied = pickle.loads(pickle.dumps(error))
    assert (str(copied), copied.diagnostics, copied.quotable) == (str(error), error.diagnostics, error.quotable)
    with pytest.raises(BoardError) as caught:
        square_grid("main", 2, 2).space("c9")
    assert str(caught.value) == "board 'main' has no space 'c9'"
    assert caught.value.diagnostic == Diagnostic("E401", "board 'main' has no space 'c9'")
    assert caught.value.args == ("board 'main' has no space 'c9'",)


def test_unknown_next_id_reports_its_line(tmp_path):
    error = load_error(tmp_path, """
        kind: graph
        spaces:
          - {id: p, next: [q]}
          - id: q
            next: [p, nowhere]
    """)
    assert error.line == 5 and error.column == 15
    assert "unknown space id 'nowhere'" in error.message
    assert "spaces[1].next[1]" in error.message


def test_unknown_edge_end_reports_its_line(tmp_path):
    error = load_error(tmp_path, """
        kind: graph
        spaces: [{id: p}, {id: q}]
        edges:
          - [p, q]
          - [q, z]
    """)
    assert error.line == 5 and "unknown space id 'z'" in error.message


def test_duplicate_id_reports_the_second_use(tmp_path):
    error = load_error(tmp_path, """
        kind: graph
        spaces:
          - {id: p}
          - {id: q}
          - {id: p}
    """)
    assert error.line == 5 and "duplicate id 'p'" in error.message


def test_duplicate_hex_coordinates(tmp_path):
    error = load_error(tmp_path, """
        kind: hex
        hexes:
          - {q: 0, r: 0}
          - {q: 1, r: 0}
          - {q: 0, r: 0, terrain: sea}
    """)
    assert error.line == 5 and "duplicate coordinates q=0, r=0" in error.message


def test_given_hex_id_clashing_with_a_default_id(tmp_path):
    error = load_error(tmp_path, """
        kind: hex
        hexes:
          - {q: 0, r: 0}
          - {q: 1, r: 0, id: "0,0"}
    """)
    assert error.line == 4 and "duplicate id '0,0'" in error.message


def test_duplicate_yaml_key(tmp_path):
    error = load_error(tmp_path, """
        kind: graph
        spaces:
          - id: p
            id: q
    """)
    assert (error.line, error.column) == (4, 5) and "duplicate key 'id'" in error.message


def test_unknown_top_level_key_points_at_the_key(tmp_path):
    error = load_error(tmp_path, """
        kind: square
        width: 2
        height: 2
        colour: red
    """)
    assert (error.line, error.column) == (4, 1) and "'colour' was unexpected" in error.message


def test_bad_attribute_name_points_at_the_key(tmp_path):
    error = load_error(tmp_path, """
        kind: hex
        hexes:
          - q: 0
            r: 0
            bad-name: 1
    """)
    assert (error.line, error.column) == (5, 5)


def test_unsupported_attribute_value(tmp_path):
    error = load_error(tmp_path, """
        kind: graph
        spaces:
          - {id: p, weight: 1.5}
    """)
    assert error.line == 3 and "attribute value" in error.message


@pytest.mark.parametrize("number", [2**63, -(2**63), 10**24])
def test_an_attribute_number_beyond_the_engines_range_is_refused_where_it_is_written(tmp_path, number):
    in_a_grid = load_error(tmp_path, f"""
        kind: square
        width: 2
        height: 1
        attributes:
          gold:
            - [1, {number}]
    """)
    assert (in_a_grid.line, in_a_grid.column) == (6, 11) and "9223372036854775807" in in_a_grid.message
    on_a_space = load_error(tmp_path, f"""
        kind: graph
        spaces:
          - {{id: a, gold: {number}}}
    """)
    assert (on_a_space.line, on_a_space.column) == (3, 19) and "2^63 - 1" in on_a_space.message


def test_the_largest_attribute_numbers_load_and_a_state_holding_them_is_read_back(tmp_path):
    largest = 2**63 - 1
    write(tmp_path, f"""
        kind: graph
        spaces:
          - {{id: a, next: b, gold: {largest}}}
          - {{id: b, next: a, gold: -{largest}}}
    """)
    (tmp_path / "game.rules").write_text(
        'game "T" { players 2 }\nboard m = load_board("board.yaml")\nvar high: int = 0\nvar low: int = 0\n'
        'phase main {\n  high = space(m, "a").gold\n  low = space(m, "b").gold\n  choose n in [1, 2] by players[0]\n}\n'
        "score p = 0\n")
    game = rulelang.load(str(tmp_path / "game.rules"))
    state = game.new_initial_state()
    saved = json.loads(json.dumps(state.to_json()))
    assert saved["globals"] == {"high": largest, "low": -largest}
    assert game.state_from_json(saved).to_json() == state.to_json()


def test_missing_and_unknown_kind(tmp_path):
    assert "'kind' is a required property" in load_error(tmp_path, "spaces: []\n").message
    error = load_error(tmp_path, "kind: cube\n")
    assert (error.line, error.column) == (1, 7) and "'cube' is not one of" in error.message


def test_square_attribute_grid_shape(tmp_path):
    error = load_error(tmp_path, """
        kind: square
        width: 2
        height: 2
        attributes:
          terrain:
            - [sea, sea]
            - [sea]
    """)
    assert error.line == 7 and "expected 2 values" in error.message
    error = load_error(tmp_path, """
        kind: square
        width: 2
        height: 3
        attributes:
          terrain: [[sea, sea]]
    """)
    assert error.line == 5 and "expected 3 rows" in error.message


def test_square_attribute_cannot_redefine_coordinates(tmp_path):
    error = load_error(tmp_path, """
        kind: square
        width: 1
        height: 1
        attributes:
          x: [[3]]
    """)
    assert (error.line, error.column) == (5, 3) and "x and y" in error.message


def test_invalid_yaml_and_empty_file(tmp_path):
    error = load_error(tmp_path, "kind: graph\nspaces: [\n")
    assert error.line == 3 and error.message.startswith("invalid YAML")
    assert load_error(tmp_path, "").message == "board file is empty"


def test_missing_file(tmp_path):
    with pytest.raises(BoardError, match="cannot read board file"):
        load_board_file("x", tmp_path / "absent.yaml")


def test_json_board_file_with_tabs(tmp_path):
    path = tmp_path / "map.json"
    path.write_text('{\n\t"kind": "hex",\n\t"hexes": [{"q": 0, "r": 0}, {"q": 1, "r": 0}]\n}\n')
    assert len(load_board_file("map", path)) == 2
    path.write_text('{\n\t"kind": "hex",\n\t"hexes": [{"q": 0, "r": "0"}]\n}\n')
    with pytest.raises(BoardError) as caught:
        load_board_file("map", path)
    assert (caught.value.line, caught.value.column) == (3, 26)
    path.write_text('{"kind": "hex",\n "hexes": [}\n')
    with pytest.raises(BoardError, match="invalid JSON") as caught:
        load_board_file("map", path)
    assert caught.value.line == 2


def test_hostile_files_give_errors_not_crashes(tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    assert "too large" in load_error(tmp_path, bomb).message
    assert "too large" in load_error(tmp_path, "a: &a [*a]\n").message
    deep = load_error(tmp_path, "[" * 5000 + "]" * 5000)
    assert isinstance(deep, BoardError)


def test_board_from_data_validates_without_a_file():
    with pytest.raises(BoardError) as caught:
        board_from_data("b", {"kind": "square", "width": 0, "height": 2})
    assert caught.value.line is None and "width" in caught.value.message
    with pytest.raises(BoardError, match="duplicate coordinates"):
        hex_grid("h", [(0, 0), (0, 0)])


# -- properties --------------------------------------------------------------


@st.composite
def graph_boards(draw):
    size = draw(st.integers(1, 12))
    succ = draw(st.lists(st.lists(st.integers(0, size - 1), max_size=3, unique=True),
                         min_size=size, max_size=size))
    colours = draw(st.lists(st.sampled_from(["red", "blue"]), min_size=size, max_size=size))
    spaces = [{"id": f"s{i}", "next": [f"s{j}" for j in js], "colour": c}
              for i, (js, c) in enumerate(zip(succ, colours, strict=True))]
    return board_from_data("g", {"kind": "graph", "spaces": spaces})


@settings(max_examples=60, deadline=None)
@given(graph_boards(), st.integers(0, 4), st.integers(0, 4))
def test_graph_board_properties(board, a, b):
    for s in board.spaces:
        assert set(board.within(s, 1)) == set(board.neighbors(s))
        assert board.ahead(s, 1) == board.successors(s)
        later = {u for t in board.ahead(s, a) for u in board.ahead(t, b)}
        assert set(board.ahead(s, a + b)) == later
        for t in board.spaces:
            assert board.distance(s, t) == board.distance(t, s)
            assert (t in board.predecessors(s)) == (s in board.successors(t))
    parts = [sp for c in ("red", "blue") for r in board.regions("colour", c) for sp in r]
    assert sorted(parts, key=lambda s: s.key) == list(board.spaces)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.booleans())
def test_square_distance_is_manhattan_or_chebyshev(width, height, diagonal):
    board = square_grid("g", width, height, diagonal=diagonal)
    for s in board.spaces:
        for t in board.spaces:
            dx = abs(s.attributes["x"] - t.attributes["x"])
            dy = abs(s.attributes["y"] - t.attributes["y"])
            assert board.distance(s, t) == (max(dx, dy) if diagonal else dx + dy)
        for d in range(len(board.directions)):
            t = board.step(s, d)
            assert t is None or board.direction(s, t) == d


# ---------------------------------------------------------------- layouts (interpreter/hosts/board_layout.py)


def track_board(spaces):
    """A graph board from (id, next) pairs."""
    return board_from_data("t", {"kind": "graph", "spaces": [{"id": i, "next": n} for i, n in spaces]})


def centres(layout):
    return {s["name"]: (s["x"], s["y"]) for s in layout["spaces"]}


def closest(points):
    return min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(points) for b in points[:i])


def test_a_square_grid_is_laid_out_with_row_1_at_the_bottom():
    layout = board_layout(square_grid("g", 4, 2))
    at = centres(layout)
    assert (layout["cell"], layout["width"], layout["height"], layout["links"]) == ("square", 4, 2, [])
    assert at["a1"] == (0.5, 1.5) and at["d1"] == (3.5, 1.5) and at["a2"] == (0.5, 0.5)


def test_a_hex_grid_is_laid_out_pointy_topped_each_row_half_a_hex_right():
    board = hex_grid("h", [(0, 0), (1, 0), (0, 1), (1, 1), (-1, 2)])
    layout = board_layout(board)
    at = centres(layout)
    assert layout["cell"] == "hex"
    assert at["1,0"][0] - at["0,0"][0] == 1 and at["1,0"][1] == at["0,0"][1]
    assert at["0,1"][0] - at["0,0"][0] == 0.5 and round(at["0,1"][1] - at["0,0"][1], 3) == 0.866
    assert at["-1,2"][0] == 0.5                      # the leftmost hex touches the left edge
    assert abs(layout["height"] - (2 * 0.866 + HEX_HEIGHT)) < 1e-3
    assert closest(list(at.values())) >= 0.999       # neighbours one hex apart, never closer


def test_a_closed_track_goes_around_a_rectangle():
    names = [f"s{i}" for i in range(16)]
    layout = board_layout(track_board([(n, names[(i + 1) % 16]) for i, n in enumerate(names)]))
    at = centres(layout)
    assert layout["cell"] == "circle"
    assert layout["links"] == [[i, (i + 1) % 16] for i in range(16)]
    xs, ys = {x for x, _ in at.values()}, {y for _, y in at.values()}
    assert all(x in (min(xs), max(xs)) or y in (min(ys), max(ys)) for x, y in at.values())   # on the border
    assert layout["width"] > layout["height"] > 1
    steps = [((at[a][0] - at[b][0]) ** 2 + (at[a][1] - at[b][1]) ** 2) ** 0.5 for a, b in itertools.pairwise(names)]
    assert all(abs(step - 1) < 1e-6 for step in steps)   # one cell between following spaces


def test_the_branches_of_a_fork_lie_side_by_side():
    spaces = [("start", "a"), ("a", ["l1", "r1"]), ("l1", "l2"), ("l2", "l3"), ("l3", "b"), ("r1", "r2"),
              ("r2", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "g"), ("g", "start")]
    layout = board_layout(track_board(spaces))
    at = centres(layout)
    placed, length, closed = route_places([[s.index for s in board.successors(space)] for board in [track_board(spaces)]
                                           for space in board.spaces])
    assert closed and length == 11                  # the longer branch (3 spaces) counts
    names = [name for name, _ in spaces]
    left = {placed[names.index(n)].across for n in ("l1", "l2", "l3")}
    right = {placed[names.index(n)].across for n in ("r1", "r2")}
    assert len(left) == 1 and len(right) == 1 and left != right and left | right == {-0.5, 0.5}
    assert closest(list(at.values())) >= 0.99
    assert all(0.5 <= x <= layout["width"] - 0.5 and 0.5 <= y <= layout["height"] - 0.5 for x, y in at.values())


def test_an_open_track_snakes_and_unreached_spaces_go_below():
    names = [f"s{i}" for i in range(30)]
    spaces = [(n, names[i + 1] if i + 1 < 30 else []) for i, n in enumerate(names)] + [("island", [])]
    layout = board_layout(track_board(spaces))
    at = centres(layout)
    rows = sorted({y for name, (_, y) in at.items() if name != "island"})
    assert len(rows) >= 3 and at["s0"][1] == rows[0]
    assert at["island"][1] > rows[-1]
    assert closest(list(at.values())) >= 0.99


def test_track_layouts_take_any_shape_of_successors():
    """Forks that never meet again, loops into the middle, self-loops, dead ends, empty."""
    shapes = [[], [[0]], [[1], [2], [1]], [[1, 2], [], []], [[1, 2], [3], [3], [0, 1]], [[1], [0], [0]]]
    for successors in shapes:
        found = track_centres(successors)
        assert len(found) == len(successors)
        assert all(isinstance(x, (float, int)) for point in found for x in point)
