"""The phase graph: which phases and procedures lead to which, for tools to look at.

``phase_graph`` turns merged declarations into a networkx DiGraph (built from the light
``FlowGraph`` of ``flow_graph``, which the checks read, so linting imports no networkx). Nodes are the phases,
the procedures, the setup and two special nodes, START and END. Edges say how control
moves: ``next`` (phase to phase), ``end`` (to END: ``end game``, or a phase that can fall
off its end or return), ``call`` (to a procedure) and ``start`` (from START). Each node
records whether its own body holds a decision or a chance event, and the loops it holds.

The graph checks (``GRAPH_CHECKS``) are small generators of diagnostics over that graph:
unknown targets, unreachable phases, phases that cannot end the game, uncalled
procedures, loops that can never end, and statements that never run (``dead_code``).
``to_dot`` and ``to_mermaid`` draw the graph.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from rulelang import ast
from rulelang.check.dead_code import check_dead_code
from rulelang.check.flow_graph import FlowGraph
from rulelang.check.tree import walk
from rulelang.diagnostics import Diagnostic, Span

if TYPE_CHECKING:
    import networkx as nx

START, END, SETUP = "@start", "@end", "@setup"

PhaseGraph: TypeAlias = "nx.DiGraph[str]"
Body: TypeAlias = "ast.SetupDecl | ast.PhaseDecl | ast.ProcedureDecl"

DECISIONS = (ast.Choose, ast.Menu, ast.Simultaneous)
CHANCES = (ast.Roll, ast.RandomPick, ast.Shuffle)
CHANGES = (ast.Assign, ast.Let, ast.CallLet, ast.CallStmt, ast.Move, ast.Gain, ast.Pay)


@dataclass(frozen=True)
class Flow:
    """How control can leave a statement: on to the next one, by 'break', by 'return'."""

    completes: bool = True
    breaks: bool = False
    returns: bool = False


STOPS = Flow(completes=False)


@dataclass
class Loop:
    """A 'repeat' or 'while' loop and what its body can do."""

    span: Span
    unconditional: bool
    facts: set[str] = field(default_factory=set)
    breaks: bool = False


@dataclass
class Scan:
    """What one body (phase, procedure, setup) does: edges out, facts, loops, its flow."""

    edges: list[tuple[str, str, Span]] = field(default_factory=list)   # (kind, target, span)
    facts: set[str] = field(default_factory=set)  # decision, chance, exit, return, change, call:NAME
    loops: list[Loop] = field(default_factory=list)
    flow: Flow = Flow()
    # (a statement that never goes on, then the first and the last statement after it in its block)
    dead: list[tuple[ast.Stmt, ast.Stmt, ast.Stmt]] = field(default_factory=list)


class _Scanner:
    """Walks one body in program order; statements after one that never completes are dead."""

    def __init__(self, can_return: dict[str, bool]) -> None:
        self.can_return = can_return
        self.scan = Scan()
        self.collectors = [self.scan.facts]

    def run(self, body: ast.Block | None) -> Scan:
        flow = self.block(body) if body is not None else Flow()
        # A 'break' outside any loop is an error of its own (E204); here it just goes on.
        self.scan.flow = Flow(flow.completes or flow.breaks, False, flow.returns)
        return self.scan

    def note(self, fact: str) -> None:
        for facts in self.collectors:
            facts.add(fact)

    def block(self, block: ast.Block) -> Flow:
        breaks = returns = False
        for i, stmt in enumerate(block.statements):
            flow = self.stmt(stmt)
            breaks, returns = breaks or flow.breaks, returns or flow.returns
            if not flow.completes:
                if i + 1 < len(block.statements):
                    self.scan.dead.append((stmt, block.statements[i + 1], block.statements[-1]))
                return Flow(False, breaks, returns)
        return Flow(True, breaks, returns)

    def stmt(self, stmt: ast.Stmt) -> Flow:
        if isinstance(stmt, DECISIONS):
            self.note("decision")
        elif isinstance(stmt, CHANCES):
            self.note("chance")
        if isinstance(stmt, CHANGES):
            self.note("change")
        visit: Callable[[ast.Stmt], Flow] | None = getattr(self, "_" + type(stmt).__name__, None)
        return visit(stmt) if visit else Flow()

    def _Next(self, stmt: ast.Next) -> Flow:
        self.note("exit")
        self.scan.edges.append(("next", stmt.phase, stmt.span))
        return STOPS

    def _EndGame(self, stmt: ast.EndGame) -> Flow:
        self.note("exit")
        self.scan.edges.append(("end", END, stmt.span))
        return STOPS

    def _Return(self, stmt: ast.Return) -> Flow:
        self.note("return")
        return Flow(False, False, True)

    def _Break(self, stmt: ast.Break) -> Flow:
        return Flow(False, True, False)

    def _Continue(self, stmt: ast.Continue) -> Flow:
        return STOPS

    def _CallStmt(self, stmt: ast.CallStmt | ast.CallLet) -> Flow:
        self.note("call:" + stmt.procedure)
        self.scan.edges.append(("call", stmt.procedure, stmt.span))
        return Flow(completes=self.can_return.get(stmt.procedure, True))

    _CallLet = _CallStmt

    def _Choose(self, stmt: ast.Choose) -> Flow:
        if stmt.otherwise is None:
            return Flow()
        other = self.block(stmt.otherwise)
        return Flow(True, other.breaks, other.returns)

    def _Menu(self, stmt: ast.Menu) -> Flow:
        return _either([self.block(o.body) for o in stmt.options], exhaustive=True)

    def _If(self, stmt: ast.If) -> Flow:
        flows = [self.block(body) for _, body in stmt.branches]
        if stmt.otherwise is not None:
            flows.append(self.block(stmt.otherwise))
        return _either(flows, exhaustive=stmt.otherwise is not None)

    def _For(self, stmt: ast.For) -> Flow:
        return Flow(True, False, self.block(stmt.body).returns)

    def _While(self, stmt: ast.While) -> Flow:
        return self._loop(stmt, _is_literal(stmt.condition, True))

    def _Repeat(self, stmt: ast.Repeat) -> Flow:
        return self._loop(stmt, stmt.until is None or _is_literal(stmt.until, False))

    def _loop(self, stmt: ast.While | ast.Repeat, unconditional: bool) -> Flow:
        loop = Loop(stmt.span, unconditional)
        self.collectors.append(loop.facts)
        body = self.block(stmt.body)
        self.collectors.pop()
        loop.breaks = body.breaks
        self.scan.loops.append(loop)
        return Flow(not unconditional or body.breaks, False, body.returns)


def _either(flows: list[Flow], exhaustive: bool) -> Flow:
    """The flow of a statement that runs one of several blocks."""
    return Flow(completes=not exhaustive or any(f.completes for f in flows) or not flows,
                breaks=any(f.breaks for f in flows), returns=any(f.returns for f in flows))


def _is_literal(expr: ast.Expr, value: bool) -> bool:
    return isinstance(expr, ast.Literal) and expr.value is value


# ---------------------------------------------------------------- building the graph

@dataclass
class _Parts:
    phases: dict[str, ast.PhaseDecl]
    procedures: dict[str, ast.ProcedureDecl]
    setup: ast.SetupDecl | None
    start: ast.Setting | None


def _parts(declarations: Iterable[ast.Decl]) -> _Parts:
    phases: dict[str, ast.PhaseDecl] = {}
    procedures: dict[str, ast.ProcedureDecl] = {}
    setup: ast.SetupDecl | None = None
    start: ast.Setting | None = None
    for d in declarations:
        if isinstance(d, ast.PhaseDecl):
            phases[d.name] = d
        elif isinstance(d, ast.ProcedureDecl):
            procedures[d.name] = d
        elif isinstance(d, ast.SetupDecl):
            setup = d
        elif isinstance(d, ast.GameDecl):
            start = next((s for s in d.settings if s.name == "start"), start)
    return _Parts(phases, procedures, setup, start)


def _procedures_that_return(procedures: dict[str, ast.ProcedureDecl]) -> dict[str, bool]:
    """Which procedures can return to their caller (a greatest fixpoint over calls). A
    worklist: a procedure is scanned again only when one it calls turns out never to
    return, so the time grows with the number of calls, not with its square."""
    can_return = {name: True for name in procedures}
    callers: dict[str, set[str]] = {name: set() for name in procedures}
    for name, decl in procedures.items():
        for node in walk(decl.body):
            if isinstance(node, (ast.CallStmt, ast.CallLet)) and node.procedure in callers:
                callers[node.procedure].add(name)
    pending = list(procedures)
    queued = set(pending)
    while pending:
        name = pending.pop()
        queued.discard(name)
        flow = _Scanner(can_return).run(procedures[name].body).flow
        if can_return[name] and not (flow.completes or flow.returns):
            can_return[name] = False  # (never back to True: the scan is monotone)
            for caller in callers[name] - queued:
                if can_return[caller]:
                    pending.append(caller)
                    queued.add(caller)
    return can_return


def _start_phase(parts: _Parts) -> str | None:
    if parts.start is not None and isinstance(parts.start.value, ast.Name):
        return parts.start.value.name
    return next(iter(parts.phases), None)


def phase_graph(declarations: Iterable[ast.Decl]) -> PhaseGraph:
    """The graph of phases, procedures, setup, START and END of merged declarations, as
    the networkx DiGraph that tools look at."""
    return flow_graph(declarations).to_networkx()


def flow_graph(declarations: Iterable[ast.Decl]) -> FlowGraph:
    """The same graph as ``phase_graph``, light: what the graph checks read."""
    parts = _parts(declarations)
    can_return = _procedures_that_return(parts.procedures)
    g = FlowGraph(start_setting=parts.start, unresolved=[])
    g.add_node(START, kind="start", label="start", span=None, decision=False, chance=False, loops=[])
    first = _start_phase(parts)
    if parts.setup is not None:
        _add_body(g, SETUP, "setup", "setup", parts.setup, can_return)
        g.add_edge(START, SETUP, kind="start")
        _add_fall_edge(g, SETUP, first if first in parts.phases else END)
    elif first in parts.phases:
        g.add_edge(START, first, kind="start")
    for name, phase in parts.phases.items():
        _add_body(g, name, "phase", name, phase, can_return)
        _add_fall_edge(g, name, END)
    for name, procedure in parts.procedures.items():
        _add_body(g, name, "procedure", name, procedure, can_return)
    g.add_node(END, kind="end", label="end", span=None, decision=False, chance=False, loops=[])
    _add_edges(g, parts)
    return g


def _add_body(g: FlowGraph, node: str, kind: str, label: str, decl: Body, can_return: dict[str, bool]) -> None:
    scan = _Scanner(can_return).run(decl.body)
    g.add_node(node, kind=kind, label=label, span=decl.name_span or decl.span, scan=scan,
               decision="decision" in scan.facts, chance="chance" in scan.facts, loops=scan.loops)


def _add_fall_edge(g: FlowGraph, node: str, target: str) -> None:
    """The edge taken when a body falls off its end (or a phase returns)."""
    flow: Flow = g.nodes[node]["scan"].flow
    kind = g.nodes[node]["kind"]
    if flow.completes or (flow.returns and kind != "procedure"):
        g.add_edge(node, target, kind="end" if target == END else "next")


def _add_edges(g: FlowGraph, parts: _Parts) -> None:
    for node in list(g.nodes):
        scan: Scan | None = g.nodes[node].get("scan")
        if scan is None:
            continue
        for kind, target, span in scan.edges:
            known = target == END or (target in parts.phases if kind == "next" else target in parts.procedures)
            if known:
                if not g.has_edge(node, target):
                    g.add_edge(node, target, kind=kind)
            else:
                g.graph["unresolved"].append((node, kind, target, span))


# ---------------------------------------------------------------- checks

def _names(g: FlowGraph, kind: str) -> list[str]:
    return [n for n, data in g.nodes.items() if data["kind"] == kind]


def _suggest(name: str, candidates: Iterable[str]) -> str | None:
    import difflib  # (only when a name is unknown)
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def check_unknown_targets(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """E104/E105: a 'next' or 'call' (or the start setting) naming nothing."""
    for _, kind, target, span in g.graph["unresolved"]:
        if kind == "next":
            yield Diagnostic("E104", f"unknown phase '{target}'", span, hint=_suggest(target, _names(g, "phase")))
        else:
            yield Diagnostic("E105", f"unknown procedure '{target}'", span,
                             hint=_suggest(target, _names(g, "procedure")))
    start: ast.Setting | None = g.graph["start_setting"]
    if start is not None and isinstance(start.value, ast.Name) and start.value.name not in _names(g, "phase"):
        yield Diagnostic("E104", f"the start setting names unknown phase '{start.value.name}'", start.value.span,
                         hint=_suggest(start.value.name, _names(g, "phase")))


def check_unreachable(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """W301: phases that no path from START reaches, entered from nowhere or only from
    phases that are never reached themselves."""
    reached = g.descendants(START)
    for node in _names(g, "phase"):
        if node in reached:
            continue
        sources = sorted(p for p in g.predecessors(node) if p != node)
        names = " and ".join(", ".join(f"'{p}'" for p in sources).rsplit(", ", 1))
        why = ("no 'next' names it and it is not the start phase" if not sources else
               f"only {names} {'leads' if len(sources) == 1 else 'lead'} to it, and "
               f"{'it is' if len(sources) == 1 else 'they are'} never entered")
        yield Diagnostic("W301", f"phase '{node}' is never entered: {why}", g.nodes[node]["span"],
                         hint="add 'next " + node + "' where the game should go to it, or remove it")


def check_no_way_to_end(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """W302: reachable phases from which no path leads to END."""
    # an unknown target already has its error: count it as an end
    ending = _reaching(g, {END} | {node for node, _, _, _ in g.graph["unresolved"]})
    reached = g.descendants(START)
    for node in _names(g, "phase"):
        if node in reached and node not in ending:
            yield Diagnostic("W302", f"once in phase '{node}', the game can never end", g.nodes[node]["span"],
                             hint="add 'end game' or a 'next' to a phase that leads to the end")


def check_uncalled_procedures(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """W107: procedures that nothing calls."""
    for node in _names(g, "procedure"):
        if g.in_degree(node) == 0:
            yield Diagnostic("W107", f"procedure '{node}' is never called", g.nodes[node]["span"])


def _active_procedures(g: FlowGraph) -> set[str]:
    """Procedures that hold, or call one that holds, a decision, chance, 'next' or 'end game'."""
    direct = {n for n in _names(g, "procedure") if g.nodes[n]["scan"].facts & {"decision", "chance", "exit"}}
    reaching = _reaching(g, direct)
    return {n for n in _names(g, "procedure") if n in reaching}


def _reaching(g: FlowGraph, targets: set[str]) -> set[str]:
    """``targets`` and every node with a path to one of them: one backward search, so the
    time grows with the graph, not with the graph times the number of targets."""
    reaching, stack = set(targets), list(targets)
    while stack:
        for before in g.predecessors(stack.pop()):
            if before not in reaching:
                reaching.add(before)
                stack.append(before)
    return reaching


def check_endless_loops(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """W303: loops with no decision, chance or exit inside that would run forever."""
    active = _active_procedures(g)
    for data in g.nodes.values():
        for loop in data["loops"]:
            if _loop_may_end(loop, active):
                continue
            what = "this loop" if loop.unconditional else "this loop changes nothing its condition reads and"
            yield Diagnostic("W303", f"{what} has no decision, chance or exit inside: it would never end",
                             loop.span, hint="add a choice, a 'break' or an 'end game', or a condition that "
                                             "the body makes false")


def _loop_may_end(loop: Loop, active: set[str]) -> bool:
    if loop.breaks or loop.facts & {"decision", "chance", "exit", "return"}:
        return True
    if any(f.startswith("call:") and f[5:] in active for f in loop.facts):
        return True
    return not loop.unconditional and "change" in loop.facts


GraphCheck: TypeAlias = Callable[[FlowGraph, str], Iterator[Diagnostic]]
GRAPH_CHECKS: list[GraphCheck] = [check_unknown_targets, check_unreachable, check_no_way_to_end,
                                  check_uncalled_procedures, check_endless_loops, check_dead_code]


def graph_diagnostics(declarations: Iterable[ast.Decl], path: str) -> list[Diagnostic]:
    """Every diagnostic the graph checks find in merged declarations."""
    declarations = list(declarations)
    g = flow_graph(declarations)
    found: list[Diagnostic] = []
    for check in GRAPH_CHECKS:
        found.extend(check(g, path))
    found.extend(check_always_recurses(declarations))
    return found


# Statements that always go on to the next one (they can fail, but never leave or decide).
_STRAIGHT = (ast.Let, ast.Assign, ast.Log, ast.Move, ast.Gain, ast.Pay)


def check_always_recurses(declarations: Iterable[ast.Decl]) -> Iterator[Diagnostic]:
    """W306: a procedure that calls itself before anything could return, decide or end the
    game (its body begins with straight-line statements, then the call): it would call
    itself until the call-depth bound stops the game."""
    for decl in declarations:
        if isinstance(decl, ast.FunctionDecl) and decl.body is not None:
            call = _self_call_on_every_path(decl.body, decl.name)
            if call is not None:
                yield Diagnostic("W306", f"function '{decl.name}' calls itself whatever its arguments:"
                                 " it can never return", call.span,
                                 hint="put the call in one branch of an 'if ... then ... else' only")
        if not isinstance(decl, ast.ProcedureDecl) or decl.body is None:
            continue
        for stmt in decl.body.statements:
            if isinstance(stmt, (ast.CallStmt, ast.CallLet)) and stmt.procedure == decl.name:
                yield Diagnostic("W306", f"procedure '{decl.name}' always calls itself before it can return:"
                                 " it can never end", stmt.span,
                                 hint="put the call under an 'if' that is false at some point, or return before it")
                break
            if not isinstance(stmt, _STRAIGHT):
                break


def _self_call_on_every_path(expr: ast.Expr, name: str) -> ast.Call | None:
    """A call of function ``name`` that evaluating ``expr`` always reaches, if there is one
    (both branches of an 'if' must reach one; a comprehension's element may never run)."""
    parts: tuple[ast.Expr | None, ...]
    if isinstance(expr, ast.Call):
        if expr.function == name:
            return expr
        parts = tuple(a.value if isinstance(a, ast.KeywordArg) else a for a in expr.args
                      if not isinstance(a, ast.Generator))
    elif isinstance(expr, ast.IfExpr):
        found = _self_call_on_every_path(expr.condition, name)
        then = _self_call_on_every_path(expr.then, name)
        return found or (then if then and _self_call_on_every_path(expr.otherwise, name) else None)
    elif isinstance(expr, ast.BinaryOp):
        # the right side of 'and'/'or' may not run
        parts = (expr.left,) if expr.op in ("and", "or") else (expr.left, expr.right)
    elif isinstance(expr, ast.UnaryOp):
        parts = (expr.operand,)
    elif isinstance(expr, (ast.Attribute, ast.Index)):
        parts = (expr.target, expr.index if isinstance(expr, ast.Index) else None)
    elif isinstance(expr, ast.ListExpr):
        parts = expr.items
    elif isinstance(expr, ast.Comprehension):
        parts = (expr.clauses[0].source,)
    else:
        return None
    return next((c for p in parts if p is not None and (c := _self_call_on_every_path(p, name))), None)


# ---------------------------------------------------------------- drawing

_DOT_SHAPES = {"start": "circle", "end": "doublecircle", "setup": "box", "phase": "box", "procedure": "ellipse"}
_EDGE_STYLES = {"call": "dashed", "start": "solid", "next": "solid", "end": "bold"}


def _node_ids(g: PhaseGraph) -> dict[str, str]:
    return {node: f"n{i}" for i, node in enumerate(g.nodes)}


def _caption(data: Mapping[str, object]) -> str:
    marks = [word for word, flag in (("choice", data["decision"]), ("chance", data["chance"])) if flag]
    return str(data["label"]) + (f" [{', '.join(marks)}]" if marks else "")


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def to_dot(g: PhaseGraph) -> str:
    """The graph in Graphviz DOT."""
    ids = _node_ids(g)
    lines = ["digraph rules {", "  rankdir=LR;", "  node [fontname=\"Helvetica\"];"]
    for node, data in g.nodes(data=True):
        style = ", style=rounded" if data["kind"] == "phase" else ""
        lines.append(f'  {ids[node]} [label="{_dot_text(_caption(data))}", shape={_DOT_SHAPES[data["kind"]]}'
                     f'{style}];')
    for a, b, data in g.edges(data=True):
        kind = data.get("kind", "next")
        lines.append(f'  {ids[a]} -> {ids[b]} [label="{kind}", style={_EDGE_STYLES.get(kind, "solid")}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


_MERMAID_SHAPES = {"start": ("((", "))"), "end": ("(((", ")))"), "setup": ("[", "]"),
                   "phase": ("(", ")"), "procedure": ("[[", "]]")}


def _mermaid_text(text: str) -> str:
    return '"' + text.replace('"', "#quot;") + '"'


def to_mermaid(g: PhaseGraph) -> str:
    """The graph as a Mermaid flowchart."""
    ids = _node_ids(g)
    lines = ["flowchart LR"]
    for node, data in g.nodes(data=True):
        left, right = _MERMAID_SHAPES[data["kind"]]
        lines.append(f"  {ids[node]}{left}{_mermaid_text(_caption(data))}{right}")
    for a, b, data in g.edges(data=True):
        kind = data.get("kind", "next")
        arrow = "-.->" if kind == "call" else ("==>" if kind == "end" else "-->")
        lines.append(f"  {ids[a]} {arrow}|{kind}| {ids[b]}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- layout

def graph_layout(g: PhaseGraph) -> dict[str, list[dict[str, object]]]:
    """The graph as data for drawing in layers: each node with its kind, label, marks, the
    line that declares it, its ``layer`` (row from the top: its distance from START, END
    below every other node, nodes START never reaches above END) and its ``order`` in the
    row (by the mean order of the nodes above that lead to it, so edges cross less)."""
    layers = _layers(g)
    orders = _orders(g, layers)
    nodes = [{"id": node, "kind": data["kind"], "label": data["label"], "decision": bool(data["decision"]),
              "chance": bool(data["chance"]), "line": data["span"].line if data["span"] is not None else None,
              "layer": layers[node], "order": orders[node]} for node, data in g.nodes(data=True)]
    edges = [{"from": a, "to": b, "kind": data.get("kind", "next")} for a, b, data in g.edges(data=True)]
    return {"nodes": nodes, "edges": edges}


def _layers(g: PhaseGraph) -> dict[str, int]:
    """Each node's row: its distance from START; then the nodes START does not reach; END last."""
    import networkx as nx  # the tools' graph: imported by the tools that draw it
    layers: dict[str, int] = dict(nx.single_source_shortest_path_length(g, START)) if START in g else {}
    layers.pop(END, None)
    below = max(layers.values(), default=-1) + 1
    for node in g.nodes:
        if node not in layers and node != END:
            layers[node] = below
    if END in g:
        layers[END] = max(layers.values(), default=-1) + 1
    return layers


def _orders(g: PhaseGraph, layers: Mapping[str, int]) -> dict[str, int]:
    """Each node's place in its row, row after row: by the mean place of its predecessors in
    the rows above (a node without one keeps the graph's order)."""
    orders: dict[str, int] = {}
    rows: dict[int, list[str]] = {}
    for node in g.nodes:
        rows.setdefault(layers[node], []).append(node)
    for layer in sorted(rows):
        def key(node: str, layer: int = layer) -> float:
            above = [orders[p] for p in g.predecessors(node) if layers[p] < layer and p in orders]
            return sum(above) / len(above) if above else float("inf")
        orders.update({node: place for place, node in enumerate(sorted(rows[layer], key=key))})
    return orders
