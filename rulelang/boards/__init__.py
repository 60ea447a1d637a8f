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

import difflib
import json
import re
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeAlias, TypedDict, TypeVar, cast

import yaml

from rulelang.files import FileAccessError, decode_text, read_confined

if TYPE_CHECKING:  # pragma: no cover
    import networkx
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SCHEMA_PATH = Path(__file__).parent.parent / "schemas" / "board.schema.json"
EAGER_DISTANCE_LIMIT = 512  # boards up to this size compute all distances up front
MAX_BOARD_BYTES = 1024 * 1024  # the largest board file read (bytes)
MAX_FILE_NODES = 500_000  # bound on YAML nodes (aliases counted once per use)
MAX_NESTING = 100  # bound on the brackets open at once: YAML's reader slows down with the square of it

_Path = tuple[str | int, ...]
T = TypeVar("T")

# The data of a board file as parsed (YAML gives the same shapes as JSON).
JSON: TypeAlias = "str | int | float | bool | Mapping[str, JSON] | Sequence[JSON] | None"
Scalar: TypeAlias = "int | str | bool"   # a value of a square board's attribute grid


class BoardError(ValueError):
    """A problem with a board or a board query.

    ``message`` says what is wrong; ``file``, ``line`` and ``column`` (1-based)
    say where, when the problem is in a data file.
    """

    def __init__(self, message: str, file: str | Path | None = None,
                 line: int | None = None, column: int | None = None, *, quotable: bool = True):
        super().__init__(message)
        self.message = message
        self.quotable = quotable
        self.file = None if file is None else str(file)
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = [str(part) for part in (self.file, self.line, self.column) if part is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message


@dataclass(frozen=True, eq=False)
class Space:
    """One space of a board, equal only to itself and hashed by identity, both at C speed (a
    comparison written in Python would make every ``==``, ``in`` and dictionary lookup on
    spaces slow). Boards make their spaces with ``interned_space``: a board built again from
    the same data (the same ruleset loaded twice, a board file a host reads) has the very
    same spaces, and so do copies and pickles while the board is in use. Where spaces are
    put in order, sort by ``key``: (board name, index)."""

    board: str
    index: int
    name: str
    attributes: Mapping[str, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.attributes, MappingProxyType):
            object.__setattr__(self, "attributes", MappingProxyType(dict(self.attributes)))

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> tuple[str, int]:
        """What orders spaces: (board name, index)."""
        return self.board, self.index

    def __copy__(self) -> Space:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Space:
        return self

    def __reduce__(self) -> tuple[Callable[..., Space], tuple[str, int, str, dict[str, object]]]:
        return (interned_space, (self.board, self.index, self.name, dict(self.attributes)))


_SPACES: weakref.WeakValueDictionary[tuple[str, int, str, str], Space] = weakref.WeakValueDictionary()
_SPACES_LOCK = threading.Lock()


def interned_space(board: str, index: int, name: str, attributes: Mapping[str, object]) -> Space:
    """The space with this data: the one made before while it is still in use (by a board
    loaded before, a copy, a pickle), else a new one."""
    key = (board, index, name, repr(sorted(attributes.items())))  # repr: keeps True apart from 1
    with _SPACES_LOCK:
        space = _SPACES.get(key)
        if space is None:
            space = _SPACES[key] = Space(board, index, name, attributes)
        return space


@dataclass(frozen=True)
class _Geometry:
    """Coordinates of a grid's spaces and the vectors that name its directions. The shapes
    below have no coordinates: a board gets its own with ``replace(shape, coords=...)``."""

    vectors: tuple[tuple[int, int], ...]  # indexed by direction
    names: tuple[str, ...]  # short direction names, same order
    axes: tuple[tuple[int, int], ...]  # one vector per family of straight lines
    coords: tuple[tuple[int, int], ...] = ()


_HEX = _Geometry(
    vectors=((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)),
    names=("e", "se", "sw", "w", "nw", "ne"),
    axes=((1, 0), (0, 1), (-1, 1)),
)
_SQUARE_AXES = ((1, 0), (0, 1), (1, 1), (1, -1))
_SQUARE4 = _Geometry(vectors=((0, 1), (1, 0), (0, -1), (-1, 0)), names=("n", "e", "s", "w"), axes=_SQUARE_AXES)
_SQUARE8 = _Geometry(
    vectors=((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)),
    names=("n", "ne", "e", "se", "s", "sw", "w", "nw"),
    axes=_SQUARE_AXES,
)


class Board:
    """A static graph of spaces with precomputed queries.

    Build boards with :func:`square_grid`, :func:`hex_grid`,
    :func:`board_from_data` or :func:`load_board_file`; the constructor takes
    space indices. ``successors[i]`` lists the indices that follow space ``i``
    (grids: computed from ``geometry``); ``edges`` adds undirected links.
    """

    def __init__(self, name: str, kind: str, names: Sequence[str],
                 attributes: Sequence[Mapping[str, object]],
                 successors: Sequence[Iterable[int]] | None = None, *,
                 edges: Iterable[tuple[int, int]] = (), geometry: _Geometry | None = None):
        self.name = name
        self.kind = kind
        self.spaces: tuple[Space, ...] = tuple(
            interned_space(name, i, n, a) for i, (n, a) in enumerate(zip(names, attributes, strict=True)))
        self.directions: tuple[str, ...] = geometry.names if geometry else ()
        self.attribute_names = frozenset(k for s in self.spaces for k in s.attributes)
        self._by_name = {s.name: s for s in self.spaces}
        self._geometry = geometry
        self._memo: dict[tuple[object, ...], object] = {}
        self._step: tuple[tuple[Space | None, ...], ...] = ()
        self._direction: dict[tuple[int, int], int] = {}
        if geometry is not None:
            successors = self._link_grid(geometry)
        self._build_adjacency(successors or [()] * len(self.spaces), edges)
        self._distances: list[tuple[int, ...] | None] = [None] * len(self.spaces)
        if len(self.spaces) <= EAGER_DISTANCE_LIMIT:
            for i in range(len(self.spaces)):
                self._distance_row(i)

    def _link_grid(self, geometry: _Geometry) -> list[list[int]]:
        """Fill the direction tables from coordinates; return the successor lists."""
        at = {xy: i for i, xy in enumerate(geometry.coords)}
        steps = []
        for i, (x, y) in enumerate(geometry.coords):
            targets = [at.get((x + dx, y + dy)) for dx, dy in geometry.vectors]
            steps.append(tuple(None if j is None else self.spaces[j] for j in targets))
            self._direction.update({(i, j): d for d, j in enumerate(targets) if j is not None})
        self._step = tuple(steps)
        return [[s.index for s in row if s is not None] for row in steps]

    def _build_adjacency(self, successors: Sequence[Iterable[int]],
                         edges: Iterable[tuple[int, int]]) -> None:
        """Store successors, predecessors and undirected neighbours, in board order."""
        succ = [set(js) for js in successors]
        pred: list[set[int]] = [set() for _ in self.spaces]
        for i, js in enumerate(succ):
            for j in js:
                pred[j].add(i)
        near = [(s | p) - {i} for i, (s, p) in enumerate(zip(succ, pred, strict=True))]
        for i, j in edges:
            if i != j:
                near[i].add(j)
                near[j].add(i)
        self._succ_i, self._pred_i, self._near_i = (
            tuple(tuple(sorted(x)) for x in table) for table in (succ, pred, near))
        self._succ, self._pred, self._near = (
            self._as_spaces(table) for table in (self._succ_i, self._pred_i, self._near_i))

    def _as_spaces(self, table: tuple[tuple[int, ...], ...]) -> tuple[tuple[Space, ...], ...]:
        return tuple(tuple(self.spaces[j] for j in row) for row in table)

    def __repr__(self) -> str:
        return f"<Board {self.name!r} {self.kind}, {len(self.spaces)} spaces>"

    def __len__(self) -> int:
        return len(self.spaces)

    def __iter__(self) -> Iterator[Space]:
        return iter(self.spaces)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Space):
            return item.board == self.name and 0 <= item.index < len(self.spaces)
        return item in self._by_name

    # -- lookups ---------------------------------------------------------

    def space(self, name: str) -> Space:
        """The space called ``name``; BoardError (with a suggestion) if there is none."""
        try:
            return self._by_name[name]
        except (KeyError, TypeError):
            raise BoardError(self._unknown_space(name)) from None

    def _unknown_space(self, name: object) -> str:
        message = f"board {self.name!r} has no space {name!r}"
        close = difflib.get_close_matches(str(name), list(self._by_name), n=1, cutoff=0.5)
        return f"{message}; did you mean {close[0]!r}?" if close else message

    def _index(self, s: Space) -> int:
        """The index of ``s``, after checking that it belongs to this board."""
        if s.board != self.name or not 0 <= s.index < len(self.spaces):
            raise BoardError(f"space {s} of board {s.board!r} is not on board {self.name!r}")
        return s.index

    def _memoized(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """Return the cached answer for ``key``, computing it once."""
        try:
            return cast(T, self._memo[key])   # stored by this method for this key: a T
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # -- adjacency -------------------------------------------------------

    def neighbors(self, s: Space) -> tuple[Space, ...]:
        """Spaces adjacent to ``s`` (undirected; on a track both directions), board order."""
        return self._near[self._index(s)]

    def successors(self, s: Space) -> tuple[Space, ...]:
        """Spaces one directed step after ``s`` (all fork branches); grids: the neighbours."""
        return self._succ[self._index(s)]

    def predecessors(self, s: Space) -> tuple[Space, ...]:
        """Spaces one directed step before ``s``; grids: the neighbours."""
        return self._pred[self._index(s)]

    def distance(self, a: Space, b: Space) -> int:
        """Fewest neighbour steps from ``a`` to ``b``; -1 if ``b`` cannot be reached."""
        i, j = self._index(a), self._index(b)
        return (self._distances[i] or self._distance_row(i))[j]

    def _distance_row(self, i: int) -> tuple[int, ...]:
        """Breadth-first distances from space ``i`` to every space (-1: unreachable)."""
        row = [-1] * len(self.spaces)
        row[i] = 0
        queue = deque([i])
        while queue:
            k = queue.popleft()
            for j in self._near_i[k]:
                if row[j] < 0:
                    row[j] = row[k] + 1
                    queue.append(j)
        self._distances[i] = result = tuple(row)
        return result

    def within(self, s: Space, n: int) -> tuple[Space, ...]:
        """Spaces at distance 1..n from ``s`` (never ``s`` itself), board order."""
        i = self._index(s)
        n = min(n, len(self.spaces))
        return self._memoized(("within", i, n), lambda: self._within(i, n))

    def _within(self, i: int, n: int) -> tuple[Space, ...]:
        row = self._distances[i] or self._distance_row(i)
        return tuple(s for s, d in zip(self.spaces, row, strict=True) if 1 <= d <= n)

    def ahead(self, s: Space, n: int) -> tuple[Space, ...]:
        """Spaces exactly ``n`` successor steps after ``s``, over every fork, board order.

        ``ahead(s, 0)`` is ``(s,)``; a negative ``n`` looks behind.
        """
        if n < 0:
            return self.behind(s, -n)
        i = self._index(s)
        return self._memoized(("ahead", i, n), lambda: self._walk(self._succ_i, i, n))

    def behind(self, s: Space, n: int) -> tuple[Space, ...]:
        """Spaces exactly ``n`` predecessor steps before ``s``, board order (see ``ahead``)."""
        if n < 0:
            return self.ahead(s, -n)
        i = self._index(s)
        return self._memoized(("behind", i, n), lambda: self._walk(self._pred_i, i, n))

    def _walk(self, table: tuple[tuple[int, ...], ...], i: int, n: int) -> tuple[Space, ...]:
        """Spaces reached from ``i`` by exactly ``n`` steps along ``table``."""
        frontier = {i}
        for _ in range(n):
            frontier = {j for k in frontier for j in table[k]}
            if not frontier:
                break
        return tuple(self.spaces[j] for j in sorted(frontier))

    # -- geometry --------------------------------------------------------

    def lines(self, n: int) -> tuple[tuple[Space, ...], ...]:
        """Every straight line of ``n`` consecutive spaces; () on graph boards.

        Square boards: rows, columns and both diagonals (whatever the
        adjacency); hex boards: the three axes. Each line is listed once,
        ordered by its first space, then by axis (square: east, north,
        north-east, south-east; hex: east, south-east, south-west).
        """
        geometry = self._geometry
        if geometry is None or n < 1:
            return ()
        return self._memoized(("lines", n), lambda: self._lines(geometry, n))

    def _lines(self, geometry: _Geometry, n: int) -> tuple[tuple[Space, ...], ...]:
        at = {xy: s for s, xy in zip(self.spaces, geometry.coords, strict=True)}
        axes = geometry.axes[:1] if n == 1 else geometry.axes
        found = []
        for x, y in geometry.coords:
            for dx, dy in axes:
                line = [at[xy] for xy in ((x + k * dx, y + k * dy) for k in range(n)) if xy in at]
                if len(line) == n:
                    found.append(tuple(line))
        return tuple(found)

    def direction(self, a: Space, b: Space) -> int | None:
        """The direction number from ``a`` to adjacent ``b`` (see module doc), else None."""
        return self._direction.get((self._index(a), self._index(b)))

    def step(self, s: Space, direction: int) -> Space | None:
        """The neighbour of ``s`` in ``direction``; None off the board or on graph boards."""
        i = self._index(s)
        if not self._step or not 0 <= direction < len(self.directions):
            return None
        return self._step[i][direction]

    # -- regions ---------------------------------------------------------

    def region(self, s: Space, attribute: str) -> tuple[Space, ...]:
        """The connected spaces (``s`` included) sharing ``s``'s value of ``attribute``."""
        labels, components = self._components(attribute)
        return components[labels[self._index(s)]]

    def regions(self, attribute: str, value: object) -> tuple[tuple[Space, ...], ...]:
        """All connected regions whose ``attribute`` equals ``value``.

        Largest first; ties by lowest space index. Spaces without the
        attribute count as having the value None.
        """
        key = _value_key(_freeze(value))
        return self._memoized(("regions", attribute, key), lambda: self._regions(attribute, key))

    def _regions(self, attribute: str, key: _ValueKey) -> tuple[tuple[Space, ...], ...]:
        _, components = self._components(attribute)
        chosen = [c for c in components if _value_key(c[0].attributes.get(attribute)) == key]
        return tuple(sorted(chosen, key=lambda c: (-len(c), c[0].index)))

    def largest_region(self, attribute: str, value: object) -> tuple[Space, ...]:
        """The largest region with that value (ties: lowest index), or ()."""
        found = self.regions(attribute, value)
        return found[0] if found else ()

    def _components(self, attribute: str) -> tuple[tuple[int, ...], tuple[tuple[Space, ...], ...]]:
        """Per-space component number, and the components (board order) for ``attribute``."""
        if attribute not in self.attribute_names:
            raise BoardError(f"board {self.name!r} has no attribute {attribute!r}")
        return self._memoized(("components", attribute), lambda: self._label(attribute))

    def _label(self, attribute: str) -> tuple[tuple[int, ...], tuple[tuple[Space, ...], ...]]:
        keys = [_value_key(s.attributes.get(attribute)) for s in self.spaces]
        labels = [-1] * len(self.spaces)
        components: list[tuple[Space, ...]] = []
        for start in range(len(self.spaces)):
            if labels[start] < 0:
                members = self._flood(start, keys, labels, len(components))
                components.append(tuple(self.spaces[j] for j in sorted(members)))
        return tuple(labels), tuple(components)

    def _flood(self, start: int, keys: list[_ValueKey], labels: list[int], label: int) -> list[int]:
        """Label every space connected to ``start`` through equal keys."""
        labels[start] = label
        members, queue = [start], deque([start])
        while queue:
            for j in self._near_i[queue.popleft()]:
                if labels[j] < 0 and keys[j] == keys[start]:
                    labels[j] = label
                    members.append(j)
                    queue.append(j)
        return members

    # -- export ----------------------------------------------------------

    def to_networkx(self, directed: bool = False) -> networkx.Graph[str]:
        """A networkx graph for drawing or analysis: nodes are space names with attributes.

        Undirected neighbours by default; ``directed=True`` gives a DiGraph of
        successor edges.
        """
        import networkx

        graph: networkx.Graph[str] = networkx.DiGraph() if directed else networkx.Graph()
        graph.graph.update(name=self.name, kind=self.kind)
        for s in self.spaces:
            graph.add_node(s.name, **s.attributes)
        table = self._succ if directed else self._near
        graph.add_edges_from((s.name, t.name) for s in self.spaces for t in table[s.index])
        return graph


def _freeze(value: object) -> object:
    """Attribute values are immutable: lists become tuples."""
    return tuple(value) if isinstance(value, list) else value


_ValueKey: TypeAlias = "tuple[type, object]"


def _value_key(value: object) -> _ValueKey:
    """A comparison key that keeps True apart from 1."""
    return (type(value), value)


# -- constructors --------------------------------------------------------


def column_name(x: int) -> str:
    """The letters of column ``x`` (from 0): a..z, then aa, ab, ... like a spreadsheet."""
    letters = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


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
    return _build(name, data, _Locator(None, file))


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
    try:
        data, root = _parse(text, path)
    except BoardError as error:
        error.quotable = False
        raise
    except RecursionError:
        raise BoardError("board file is nested too deeply", path, quotable=False) from None
    except ValueError:   # an integer too long for Python to read
        raise BoardError("board file holds a number too large to read", path, quotable=False) from None
    try:
        return _build(name, data, _Locator(root, path))
    except BoardError as error:
        error.quotable = isinstance(data, dict)
        raise
    except RecursionError:
        raise BoardError("board file is nested too deeply", path, quotable=False) from None


# -- reading files -------------------------------------------------------


def _parse(text: str, path: Path) -> tuple[JSON, yaml.Node | None]:
    """The data in ``text`` and its YAML node tree (None if not available)."""
    if _nesting(text) > MAX_NESTING:
        raise BoardError(f"board file is nested too deeply (more than {MAX_NESTING} brackets open at once)", path)
    if path.suffix.lower() == ".json":
        return _parse_json(text, path)
    root, data = _compose(text, path)
    if root is None:
        raise BoardError("board file is empty", path, 1, 1)
    return data, root


def _nesting(text: str) -> int:
    """The most brackets (``[`` or ``{``, in strings too) open at once in ``text``."""
    depth = deepest = 0
    for bracket in re.finditer(r"[\[\]{}]", text):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _parse_json(text: str, path: Path) -> tuple[JSON, yaml.Node | None]:
    try:
        data: JSON = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"invalid JSON: {error.msg}", path, error.lineno, error.colno) from None
    try:  # JSON is YAML, whose nodes give line numbers; a raw tab in JSON is whitespace
        root, _ = _compose(text.replace("\t", " "), path)
    except BoardError:
        root = None
    return data, root


def _compose(text: str, path: Path) -> tuple[yaml.Node | None, JSON]:
    """Parse YAML safely, returning the node tree and the data built from it."""
    try:
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError:   # a ReaderError's text quotes the file
        raise BoardError("invalid YAML: the file holds characters YAML does not allow", path) from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_nodes(root, path)
        data: JSON = loader.construct_document(root)
        return root, data
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise BoardError(f"invalid YAML: {error.problem or error.context}", path,
                         mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError:   # a ReaderError's text quotes the file
        raise BoardError("invalid YAML: the file holds characters YAML does not allow", path) from None
    except RecursionError:
        raise BoardError("board file is nested too deeply", path) from None
    finally:
        loader.dispose()


def _check_nodes(root: yaml.Node, path: Path) -> None:
    """Refuse duplicate mapping keys, and node trees too big once aliases are expanded."""
    stack, count = [root], 0
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_FILE_NODES:
            raise BoardError(f"board file is too large (over {MAX_FILE_NODES} nodes, "
                             "counting every use of an alias)", path)
        if isinstance(node, yaml.MappingNode):
            _check_keys(node, path)
            stack.extend(n for pair in _pairs(node) for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(_items(node))


def _check_keys(node: yaml.MappingNode, path: Path) -> None:
    seen: set[object] = set()
    for key, _ in _pairs(node):
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                raise BoardError(f"duplicate key {key.value!r}", path, *_position(key))
            seen.add(key.value)


def _pairs(node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
    """The (key node, value node) pairs of a mapping node."""
    pairs: list[tuple[yaml.Node, yaml.Node]] = node.value
    return pairs


def _items(node: yaml.SequenceNode) -> list[yaml.Node]:
    """The item nodes of a sequence node."""
    items: list[yaml.Node] = node.value
    return items


def _position(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Locator:
    """Turns a path in the data into a BoardError at the matching file position."""

    def __init__(self, root: yaml.Node | None, file: str | Path | None) -> None:
        self.root = root
        self.file = file

    def node(self, path: Iterable[str | int], key: str | None = None) -> yaml.Node | None:
        """The deepest node along ``path`` (the key node of ``key`` if given)."""
        node = self.root
        for part in path:
            child = _child(node, part)
            if child is None:
                return node
            node = child
        if key is not None and isinstance(node, yaml.MappingNode):
            node = next((k for k, _ in _pairs(node) if k.value == str(key)), node)
        return node

    def position(self, path: Iterable[str | int], key: str | None = None) -> tuple[int, int] | None:
        """The 1-based (line, column) of the node along ``path``; None without a file."""
        node = self.node(path, key)
        return None if node is None else _position(node)

    def error(self, message: str, path: _Path = (), key: str | None = None) -> BoardError:
        """A BoardError for ``path`` whose message starts with the path."""
        where = _format_path(path if key is None else (*path, key))
        line, column = self.position(path, key) or (None, None)
        return BoardError(f"{where}: {message}", self.file, line, column)


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in _pairs(node) if k.value == str(part)), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        return _items(node)[part]
    return None


def _format_path(path: Iterable[str | int]) -> str:
    """``("hexes", 0, "q")`` -> ``"hexes[0].q"``; the empty path is ``"board"``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text or "board"


# -- validation and building --------------------------------------------


# Board data once the schema has accepted it. Each "...Keys" class holds the keys that
# the schema requires, its subclass the optional ones (attributes are further keys).

class _GraphSpaceKeys(TypedDict):
    id: str | int


class _GraphSpaceData(_GraphSpaceKeys, total=False):
    next: str | int | list[str | int]


class _GraphBoardKeys(TypedDict):
    kind: Literal["graph"]
    spaces: list[_GraphSpaceData]


class _GraphBoardData(_GraphBoardKeys, total=False):
    edges: list[list[str | int]]


class _HexKeys(TypedDict):
    q: int
    r: int


class _HexData(_HexKeys, total=False):
    id: str | int


class _HexBoardData(TypedDict):
    kind: Literal["hex"]
    hexes: list[_HexData]


class _SquareBoardKeys(TypedDict):
    kind: Literal["square"]
    width: int
    height: int


class _SquareBoardData(_SquareBoardKeys, total=False):
    diagonal: bool
    attributes: dict[str, list[list[Scalar]]]


_BoardData: TypeAlias = "_GraphBoardData | _HexBoardData | _SquareBoardData"


@cache
def _validator() -> Validator:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _validate(data: JSON, loc: _Locator) -> None:
    """Raise a BoardError for the first schema violation (earliest in the file)."""
    if not isinstance(data, dict):   # not a board document: say nothing of what it holds
        raise BoardError("a board file holds a mapping (kind: ...) at its top", loc.file, quotable=False)
    errors = list(_validator().iter_errors(data))
    if not errors:
        return
    if loc.root is None:
        import jsonschema

        error: ValidationError = jsonschema.exceptions.best_match(errors)
    else:
        error = min(errors, key=lambda e: loc.position(e.absolute_path, _offending_key(e)) or (0, 0))
    raise loc.error(_message(error), tuple(error.absolute_path), _offending_key(error))


def _message(error: ValidationError) -> str:
    """jsonschema's message, made specific where it says only "not valid under any"."""
    schema = error.schema
    if error.validator in ("anyOf", "oneOf") and isinstance(schema, Mapping) and "description" in schema:
        return f"{_quoted(error.instance)} is not allowed here. {schema['description']}"
    instance = repr(error.instance)
    message = error.message.replace(instance, _quoted(error.instance))
    if len(message) > 4 * MAX_QUOTED:   # never echo more of a file than a key or a short value
        return f"does not fit the board schema (rule '{error.validator}')"
    return message


MAX_QUOTED = 60   # the longest value from a board file that a message repeats


def _quoted(value: object) -> str:
    """``repr(value)`` when it is short, else a description that quotes none of it."""
    text = repr(value)
    if isinstance(value, (str, int, float, bool)) and len(text) <= MAX_QUOTED and "\\n" not in text:
        return text
    if isinstance(value, str):
        return "a long string"
    return "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else "this value"


def _offending_key(error: ValidationError) -> str | None:
    """For errors about a mapping's keys, the key at fault (so we point at it)."""
    if "propertyNames" in error.absolute_schema_path:
        return error.instance if isinstance(error.instance, str) else None
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        return next((k for k in error.instance if k not in known), None)
    return None


def _build(name: str, data: JSON, loc: _Locator) -> Board:
    _validate(data, loc)
    board = cast(_BoardData, data)   # the schema guarantees this shape
    if board["kind"] == "graph":
        return _graph_board(name, board, loc)
    if board["kind"] == "hex":
        return _hex_board(name, board, loc)
    return _square_board(name, board, loc)


def _attributes(item: Mapping[str, object], exclude: Iterable[str]) -> dict[str, object]:
    return {k: _freeze(v) for k, v in item.items() if k not in exclude}


def _check_unique(ids: Sequence[str], loc: _Locator, section: str) -> dict[str, int]:
    """Map each id to its index; BoardError at the second use of an id."""
    index: dict[str, int] = {}
    for i, space_id in enumerate(ids):
        if space_id in index:
            raise loc.error(f"duplicate id {space_id!r} (first used by {section}[{index[space_id]}])",
                            (section, i))
        index[space_id] = i
    return index


def _graph_board(name: str, data: _GraphBoardData, loc: _Locator) -> Board:
    spaces = data["spaces"]
    ids = [str(s["id"]) for s in spaces]
    index = _check_unique(ids, loc, "spaces")
    successors = [_next_indices(s, i, index, loc) for i, s in enumerate(spaces)]
    edges = [_edge(index, pair, e, loc) for e, pair in enumerate(data.get("edges", []))]
    attributes = [_attributes(s, ("id", "next")) for s in spaces]
    return Board(name, "graph", ids, attributes, successors, edges=edges)


def _edge(index: dict[str, int], pair: Sequence[str | int], e: int, loc: _Locator) -> tuple[int, int]:
    """The space indices of edge ``e``, a pair of space ids."""
    a, b = (_lookup(index, end, loc, ("edges", e, k)) for k, end in enumerate(pair))
    return a, b


def _next_indices(space: _GraphSpaceData, i: int, index: dict[str, int], loc: _Locator) -> list[int]:
    targets = space.get("next", [])
    if not isinstance(targets, list):
        return [_lookup(index, targets, loc, ("spaces", i, "next"))]
    return [_lookup(index, t, loc, ("spaces", i, "next", k)) for k, t in enumerate(targets)]


def _lookup(index: dict[str, int], space_id: object, loc: _Locator, path: _Path) -> int:
    try:
        return index[str(space_id)]
    except KeyError:
        raise loc.error(f"unknown space id {str(space_id)!r}", path) from None


def _hex_board(name: str, data: _HexBoardData, loc: _Locator) -> Board:
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
    return Board(name, "hex", ids, attributes, geometry=replace(_HEX, coords=tuple(coords)))


def _square_board(name: str, data: _SquareBoardData, loc: _Locator) -> Board:
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
    shape = _SQUARE8 if data.get("diagonal", False) else _SQUARE4
    return Board(name, "square", names, attributes, geometry=replace(shape, coords=tuple(cells)))


def _check_grid(rows: Sequence[Sequence[object]], width: int, height: int,
                loc: _Locator, path: _Path) -> None:
    """An attribute grid must not redefine x or y and must be height rows of width values."""
    if path[-1] in ("x", "y"):
        raise loc.error("x and y are set from the grid and cannot be given", path[:-1], str(path[-1]))
    if len(rows) != height:
        raise loc.error(f"expected {height} rows (the board's height), found {len(rows)}", path)
    for k, row in enumerate(rows):
        if len(row) != width:
            raise loc.error(f"expected {width} values (the board's width), found {len(row)}", (*path, k))
