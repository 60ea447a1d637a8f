"""The board model: spaces, and the board with the queries the rules ask of it (adjacency,
distances, tracks, straight lines, directions and regions), answered from tables computed
once (see the package's docstring for the kinds of board and their directions)."""

from __future__ import annotations

import difflib
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from .errors import BoardError

if TYPE_CHECKING:  # pragma: no cover
    import networkx

EAGER_DISTANCE_LIMIT = 512  # boards up to this size compute all distances up front

T = TypeVar("T")


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
class Geometry:
    """Coordinates of a grid's spaces and the vectors that name its directions. The shapes
    of grids (``building.HEX``, ``SQUARE4``, ``SQUARE8``) have no coordinates: a board gets
    its own with ``replace(shape, coords=...)``."""

    vectors: tuple[tuple[int, int], ...]  # indexed by direction
    names: tuple[str, ...]  # short direction names, same order
    axes: tuple[tuple[int, int], ...]  # one vector per family of straight lines
    coords: tuple[tuple[int, int], ...] = ()



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
                 edges: Iterable[tuple[int, int]] = (), geometry: Geometry | None = None):
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

    def _link_grid(self, geometry: Geometry) -> list[list[int]]:
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

    def _lines(self, geometry: Geometry, n: int) -> tuple[tuple[Space, ...], ...]:
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
        key = _value_key(freeze(value))
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


def freeze(value: object) -> object:
    """Attribute values are immutable: lists become tuples."""
    return tuple(value) if isinstance(value, list) else value


_ValueKey: TypeAlias = "tuple[type, object]"


def _value_key(value: object) -> _ValueKey:
    """A comparison key that keeps True apart from 1."""
    return (type(value), value)
