"""A small directed graph for the phase graph's checks, so that linting imports no graph library.

``FlowGraph`` holds what the checks of ``rulelang.check.graph`` read (nodes with their data,
edges with theirs, predecessors, what START reaches) with the same meaning as networkx's
``DiGraph``, and ``to_networkx`` gives the DiGraph that tools look at (``rulelang graph``, the
web page, tests): the same nodes, edges and attributes, in the same order. Linting a ruleset
then costs no import of networkx, about a third of a lint's start.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

NodeData = dict[str, Any]


class FlowGraph:
    """Nodes (in the order added) with their data, edges (in the order added) with theirs,
    and the graph's own data in ``graph``, as a networkx DiGraph keeps them."""

    def __init__(self, **graph: Any) -> None:
        self.graph: dict[str, Any] = dict(graph)
        self.nodes: dict[str, NodeData] = {}
        self._succ: dict[str, dict[str, NodeData]] = {}
        self._pred: dict[str, dict[str, NodeData]] = {}
        self._edges: list[tuple[str, str]] = []   # in the order added, for to_networkx

    def add_node(self, node: str, **data: Any) -> None:
        """Add ``node`` (or update its data, when it is there already)."""
        if node not in self.nodes:
            self.nodes[node] = {}
            self._succ[node], self._pred[node] = {}, {}
        self.nodes[node].update(data)

    def add_edge(self, source: str, target: str, **data: Any) -> None:
        """Add the edge (its nodes too, source first, when they are new), or update its data."""
        for node in (source, target):
            if node not in self.nodes:
                self.add_node(node)
        if target not in self._succ[source]:
            self._succ[source][target] = self._pred[target][source] = {}
            self._edges.append((source, target))
        self._succ[source][target].update(data)

    def __contains__(self, node: object) -> bool:
        return node in self.nodes

    def has_edge(self, source: str, target: str) -> bool:
        """Whether the edge ``source -> target`` is there."""
        return source in self._succ and target in self._succ[source]

    def predecessors(self, node: str) -> Iterator[str]:
        """The nodes with an edge to ``node``, in the order those edges were added."""
        return iter(self._pred[node])

    def in_degree(self, node: str) -> int:
        """How many edges lead to ``node``."""
        return len(self._pred[node])

    def edges(self) -> Iterator[tuple[str, str, NodeData]]:
        """Every edge with its data, source by source in the nodes' order (as networkx lists them)."""
        for source, targets in self._succ.items():
            for target, data in targets.items():
                yield source, target, data

    def descendants(self, start: str) -> set[str]:
        """Every node a path from ``start`` reaches (``start`` itself only on a cycle back to it)."""
        reached: set[str] = set()
        stack = [start]
        while stack:
            for after in self._succ[stack.pop()]:
                if after not in reached:
                    reached.add(after)
                    stack.append(after)
        reached.discard(start)
        return reached

    def to_networkx(self) -> nx.DiGraph[str]:
        """The same graph as a networkx DiGraph: nodes, then edges, added in this graph's
        orders, so its nodes, successors and predecessors come in the same orders too."""
        import networkx as nx
        g: nx.DiGraph[str] = nx.DiGraph(**self.graph)
        for node, data in self.nodes.items():
            g.add_node(node, **data)
        for source, target in self._edges:
            g.add_edge(source, target, **self._succ[source][target])
        return g
