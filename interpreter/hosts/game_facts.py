"""What a host library asks of a game before it runs it, read from the ruleset alone.

``facts(game)`` says whether every player sees everything (perfect information), whether the
rules draw anything at random (chance), and what is known of the scores: a range each score
lies in and a constant they sum to, computed from the score's text or declared in the header
(``score_range LOW..HIGH``, ``score_sum N``: docs/language.md). The OpenSpiel adapter turns
them into a game type and utility bounds. Nothing here runs the game.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulelang import ast

from ..game import Game
from ..model.values import Component

Interval = tuple[float, float]

_HIDING_STATEMENTS: dict[type[ast.Node], str] = {
    ast.Simultaneous: "a simultaneous choice",
    ast.Reveal: "a reveal to some players",
    ast.Roll: "a roll (its value is a local, which no observation shows)",
    ast.RandomPick: "a random pick (its value is a local, which no observation shows)",
}
_CHANCE_STATEMENTS = (ast.Roll, ast.RandomPick, ast.Shuffle)


@dataclass(frozen=True)
class GameFacts:
    """What the ruleset says, read before any game is played."""

    hidden: tuple[str, ...]          # why some player may not see everything (empty: perfect information)
    chance: bool                     # whether the rules roll, pick at random or shuffle
    score_range: Interval | None     # every score lies in it (None: nothing known)
    score_sum: float | None          # the scores of every ended game sum to it (None: not known)

    @property
    def perfect_information(self) -> bool:
        return not self.hidden


def facts(game: Game) -> GameFacts:
    """The facts of ``game`` (a loaded ruleset at its player count)."""
    computed = score_interval(game)
    return GameFacts(hidden=tuple(hidden_information(game)), chance=has_chance(game),
                     score_range=_narrowest(computed, game.settings.score_range),
                     score_sum=_score_sum(game, computed))


# ---------------------------------------------------------------- information and chance

def _statements(game: Game) -> Iterator[ast.Node]:
    """Every node of every declaration of the merged ruleset."""
    stack: list[ast.Node] = list(game.catalog.decls)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(ast.children(node))


def has_chance(game: Game) -> bool:
    """Whether the rules hold a ``roll``, a ``random`` or a ``shuffle`` anywhere."""
    return any(isinstance(node, _CHANCE_STATEMENTS) for node in _statements(game))


def hidden_information(game: Game) -> list[str]:
    """Why some seat may not see all there is: each declaration that hides something (a
    visibility other than ``all``) and each statement that does (a simultaneous choice, a
    line or a reveal for some players only, a roll or random pick kept in a local)."""
    catalog = game.catalog
    reasons = [f"zone {name} is visible {decl.visibility_or_default}"
               for name, decl in catalog.zones.items() if decl.visibility_or_default != "all"]
    for what, declared in (("var", catalog.global_vars), ("player var", catalog.player_vars),
                           ("space var", catalog.space_vars), ("component var", catalog.component_vars)):
        reasons += [f"{what} {name} is visible {decl.visibility}"
                    for name, decl in declared.items() if decl.visibility not in (None, "all")]
    reasons += [f"supply {decl.name} is visible {decl.visibility}" for decl in catalog.decls
                if isinstance(decl, ast.SupplyDecl) and decl.visibility not in (None, "all")]
    for node in _statements(game):
        reason = _statement_hides(node)
        if reason is not None and reason not in reasons:
            reasons.append(reason)
    return reasons


def _statement_hides(node: ast.Node) -> str | None:
    if isinstance(node, ast.Log) and node.audience is not None:
        return "a log line for some players only"
    return _HIDING_STATEMENTS.get(type(node))


# ---------------------------------------------------------------- scores

def score_interval(game: Game) -> Interval | None:
    """The range every score lies in, as far as the score's text proves it: numbers, ``-``,
    ``+``, ``*``, ``if``, a player's supply count (0 to the supply's total), a sum over the
    players and a sum over components (from the sum of every component's most negative
    value to that of its most positive: a component is in one place at a time); None when
    the text reads anything else. No ``score``: every score is 0."""
    scores = [d for d in game.catalog.decls if isinstance(d, ast.ScoreDecl)]
    if not scores or scores[-1].value is None:
        return (0.0, 0.0)
    return _Bounds(game, scores[-1].name).of(scores[-1].value)


def _narrowest(computed: Interval | None, declared: tuple[int, int] | None) -> Interval | None:
    if computed is None or declared is None:
        return computed or (None if declared is None else (float(declared[0]), float(declared[1])))
    return max(computed[0], declared[0]), min(computed[1], declared[1])


def _score_sum(game: Game, computed: Interval | None) -> float | None:
    """The declared sum, or the one a constant score proves (every score the same number)."""
    if game.settings.score_sum is not None:
        return float(game.settings.score_sum)
    if computed is not None and computed[0] == computed[1]:
        return computed[0] * game.num_players
    return None


class _NotSummed(Exception):
    """A component that a sum over components cannot hold (it lacks a field the sum reads)."""


class _Bounds:
    """Interval arithmetic over a score's expression; ``of`` is None for what it cannot bound."""

    def __init__(self, game: Game, player: str):
        self.supplies = game.catalog.supplies
        self.components = game.catalog.components
        self.fields = {name for component in self.components for name in component.fields}
        self.players = game.num_players
        self.player_names = {player}
        self.component: tuple[str, Component] | None = None   # a sum's variable and the component it holds

    def of(self, expr: ast.Expr) -> Interval | None:
        if isinstance(expr, ast.Literal):
            value = expr.value
            return (float(value), float(value)) if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(expr, ast.UnaryOp) and expr.op == "-":
            return _negated(self.of(expr.operand))
        if isinstance(expr, ast.BinaryOp):
            return _combined(expr.op, self.of(expr.left), self.of(expr.right))
        if isinstance(expr, ast.IfExpr):
            return _union(self._branch(expr.then), self._branch(expr.otherwise))
        if isinstance(expr, ast.Attribute):
            return self._supply_count(expr)
        if isinstance(expr, ast.Call) and expr.function == "sum" and len(expr.args) == 1:
            return self._sum(expr.args[0])
        return None

    def _branch(self, expr: ast.Expr) -> Interval | None:
        """A branch of an ``if``: a field it reads that a component lacks stops only the
        branch, which may not be taken, so nothing is known of it."""
        try:
            return self.of(expr)
        except _NotSummed:
            return None

    def _supply_count(self, expr: ast.Attribute) -> Interval | None:
        """A player's or a component's supply count, or a component's field."""
        if not isinstance(expr.target, ast.Name):
            return None
        if expr.target.name in self.player_names and expr.name in self.supplies:
            return 0.0, float(self.supplies[expr.name])
        if self.component is None or expr.target.name != self.component[0]:
            return None
        if expr.name in self.supplies:
            return 0.0, float(self.supplies[expr.name])
        value = self.component[1].fields.get(expr.name)
        if value is None and expr.name in self.fields:
            raise _NotSummed   # a component without the field: the sum never holds it
        return (float(value), float(value)) if isinstance(value, int) and not isinstance(value, bool) else None

    def _sum(self, expr: ast.Expr) -> Interval | None:
        if not isinstance(expr, ast.Generator) or expr.key is not None or len(expr.clauses) != 1:
            return None
        if isinstance(expr.clauses[0].source, ast.Name) and expr.clauses[0].source.name == "players":
            return self._sum_over_players(expr)
        return self._sum_over_components(expr)

    def _sum_over_components(self, expr: ast.Generator) -> Interval | None:
        """``sum(E for c in ZONE [if C])``: each component at most once, E as it makes it."""
        if self.component is not None:
            return None
        low = high = 0.0
        try:
            for component in self.components:
                self.component = (expr.clauses[0].var, component)
                try:
                    item = self.of(expr.element)
                except _NotSummed:
                    continue
                if item is None:
                    return None
                low, high = low + min(0.0, item[0]), high + max(0.0, item[1])
        finally:
            self.component = None
        return low, high

    def _sum_over_players(self, expr: ast.Generator) -> Interval | None:
        """``sum(E for q in players [if C])``: from 0 to every player's E."""
        clause = expr.clauses[0]
        outer = self.player_names
        self.player_names = outer | {clause.var}
        item = self.of(expr.element)
        self.player_names = outer
        if item is None:
            return None
        return min(0.0, item[0] * self.players), max(0.0, item[1] * self.players)


def _negated(value: Interval | None) -> Interval | None:
    return None if value is None else (-value[1], -value[0])


def _union(a: Interval | None, b: Interval | None) -> Interval | None:
    return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))


def _combined(op: str, a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return None
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        corners = [x * y for x in a for y in b]
        return min(corners), max(corners)
    return None
