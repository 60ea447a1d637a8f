"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
2012) with UCT: ``MctsAgent``, ``N`` iterations or ``N`` seconds per decision (``Budget``),
with the options of docs/agents.md (exploration, rollout depth, RAVE, decisive moves) and a
small solver (MCTS-Solver) for a seat that sees everything.

The search never reads what its seat cannot see: it starts from a *canonical* state
(``canonical_state``), the same for every state the seat cannot tell apart, and draws its
samples of it with ``Sampler`` (as ``State.resample_from_infostate`` does).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rulelang.errors import RulelangError

from ..model.values import CHANCE
from ..state.infostate import Sampler
from ..state.state import Action, State
from .base import only_action

DEFAULT_EXPLORATION = 0.4
"""UCT's exploration constant for rewards between 0 and 1."""

DEFAULT_ITERATIONS = 200
"""The iterations of a search given neither iterations nor seconds."""


class Node:
    """A node of the search tree: the information set reached by a sequence of actions, seen
    from the edge that leads to it (the player who took that action and how it went for him)."""

    __slots__ = ("amaf_total", "amaf_visits", "availability", "children", "options", "player", "result", "total",
                 "visits")

    def __init__(self, player: int):
        self.player = player          # who acted to reach this node (CHANCE for an outcome)
        self.visits = 0
        self.total = 0.0              # the sum of ``player``'s rewards over the visits
        self.availability = 1         # the visits of the parent where this action was legal
        self.children: dict[tuple[int, int], Node] = {}   # by (player, action id)
        self.result: list[float] | None = None   # the rewards, when the search proved them
        self.amaf_visits = 0          # iterations where ``player`` took this action later on (RAVE)
        self.amaf_total = 0.0         # and the sum of his rewards in them
        self.options = 0              # the legal actions of the player to act here, when last seen

    def value(self, actor: int, exploration: float, rave: float) -> float:
        """How good this child looks to ``actor``, who chooses among its siblings: its proved
        reward for him when there is one, else its UCT value."""
        return self.uct(exploration, rave) if self.result is None else self.result[actor]

    def uct(self, exploration: float, rave: float) -> float:
        """Mean reward plus UCT's exploration bonus, counted on availability. With ``rave``
        above 0, the mean is blended with the all-moves-as-first mean, whose weight
        sqrt(rave / (3 visits + rave)) fades as the node's own visits grow."""
        mean = self.total / self.visits
        if rave and self.amaf_visits:
            weight = math.sqrt(rave / (3 * self.visits + rave))
            mean += weight * (self.amaf_total / self.amaf_visits - mean)
        return mean + exploration * math.sqrt(math.log(self.availability) / self.visits)


def standing(child: Node | None, player: int) -> tuple[int, int]:
    """How a root action ranks for ``player``: a proved win first, a proved loss last,
    then by visits (an action never tried comes after every tried one of its rank)."""
    if child is None:
        return 1, -1
    if child.result is None:
        return 1, child.visits
    reward = child.result[player]
    return (2 if reward == 1.0 else 0 if reward == 0.0 else 1), child.visits


def _proved(parent: Node, child: Node, actor: int, rewards: list[float]) -> list[float]:
    """``rewards``, those of the finished game at ``child`` (reached by ``actor`` from
    ``parent``), recorded; when ``actor`` wins it alone, they are ``parent``'s too: he will
    take that win."""
    child.result = rewards
    if rewards[actor] == 1.0:
        parent.result = rewards
    return rewards


def _settle_path(nodes: list[Node]) -> None:
    """After a proof at the end of ``nodes`` (a path from the root), the nodes above it
    whose every action is proved: each gets the rewards of its best action for the player
    to act there."""
    for node in reversed(nodes[:-1]):
        if node.result is None and not _settle(node):
            return


def _settle(node: Node) -> bool:
    """Prove ``node`` if every legal action has a proved child; whether it is proved."""
    if not node.options or len(node.children) < node.options:
        return False
    results = [child.result for child in node.children.values()]
    if any(result is None for result in results):
        return False
    actor = next(iter(node.children))[0]
    node.result = max((r for r in results if r is not None), key=lambda r: r[actor])
    return True


def _back_up_amaf(parents: list[Node], played: list[tuple[int, int]], rewards: list[float]) -> None:
    """All moves as first (RAVE): at the node where step k of ``played`` was chosen
    (``parents[k]``), every child whose action its player took at step k or later gets
    that player's reward."""
    last = {step: k for k, step in enumerate(played)}
    for depth, parent in enumerate(parents):
        for key, child in parent.children.items():
            at = last.get(key)
            if at is not None and at >= depth and key[0] != CHANCE:
                child.amaf_visits += 1
                child.amaf_total += rewards[key[0]]


def rewards_of(state: State) -> list[float]:
    """Each player's share of the win: 1/k for each of k winners, 0 for the others. A game
    cut before its end is won by the best scores then (no tie-break)."""
    count = state.game.num_players
    winners = state.winners() if state.is_terminal() else _leaders(state.returns())
    rewards = [0.0] * count
    for seat in winners:
        if seat < count:
            rewards[seat] = 1.0 / len(winners)
    return rewards


def _leaders(scores: list[float]) -> list[int]:
    best = max(scores, default=0.0)
    return [i for i, s in enumerate(scores) if s == best]


@dataclass(frozen=True)
class Budget:
    """How long one decision may search: a count of iterations, or seconds of the clock."""

    iterations: int | None = None
    seconds: float | None = None

    def allows(self, done: int, started: float) -> bool:
        """Whether another iteration may start after ``done`` of them (always a first)."""
        if done == 0:
            return True
        if self.seconds is not None:
            return time.perf_counter() - started < self.seconds
        return done < (DEFAULT_ITERATIONS if self.iterations is None else self.iterations)


class MctsAgent:
    """Single-observer information-set MCTS with UCT. Each iteration samples what the seat
    cannot see, descends the tree (keyed by the actions' ids, UCT on availability counts),
    adds one node, plays at random to the end (or ``depth`` decisions, or the ruleset's
    ``max_decisions``) and backs each player's reward up the nodes where that player acted.
    A rollout that the rules stop with an error rewards nobody.

    When the seat sees everything and no chance is drawn on the way, the tree's ends are
    exact (a small MCTS-Solver): a node where the game is over holds its rewards, a node
    where the player to act can win at once holds that win, and a node whose every action
    is proved holds its best; a proved child counts at its exact reward, and an iteration
    that reaches a proved node backs it up without a rollout. ``rave`` above 0 blends in
    all-moves-as-first values (``Node.uct``). ``decisive`` 1 makes rollouts take a move that
    wins at once when there is one; 2 also avoids moves after which the next player can win
    at once (decisive and anti-decisive moves, Teytaud and Teytaud, 2010)."""

    def __init__(self, seed: int = 0, budget: Budget | None = None,
                 exploration: float = DEFAULT_EXPLORATION, depth: int | None = None, rave: float = 0.0,
                 decisive: int = 0):
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.exploration = exploration
        self.depth = depth
        self.rave = rave
        self.decisive = decisive

    def choose(self, state: State, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``: a proved win if the search found
        one, else the most visited at the root that is not a proved loss."""
        actions = state.legal_actions(player)
        if len(actions) < 2:
            return only_action(actions, player)
        try:
            root = self.search(Sampler(state, player), player)
        except RulelangError:
            return actions[self.rng.randrange(len(actions))]
        return max(actions, key=lambda a: standing(root.children.get((player, a.id)), player))

    def search(self, sampler: Sampler, player: int) -> Node:
        """The tree grown from ``sampler``'s samples within the budget; its root."""
        root = Node(player)
        started, done = time.perf_counter(), 0
        while self.budget.allows(done, started):
            self._iterate(root, sampler.sample(self.rng.getrandbits(63)), player, not sampler.hidden)
            done += 1
        return root

    def _iterate(self, root: Node, state: State, player: int, exact: bool) -> None:
        """One iteration on the sample ``state``: select, expand, roll out, back up.
        ``exact``: the sample holds nothing drawn again but future chance."""
        path: list[Node] = []
        played: list[tuple[int, int]] = []   # (player, action id) of every step of the iteration
        try:
            known = self._descend(root, state, player, path, exact, played)
            rewards = self._rollout(state, played if self.rave else None) if known is None else known
        except (RulelangError, ValueError):
            rewards, known = [0.0] * state.game.num_players, None
        if known is not None:
            _settle_path([root, *path])
        for node in path:
            node.visits += 1
            if node.player != CHANCE:
                node.total += rewards[node.player]
        if self.rave:
            _back_up_amaf([root, *path[:-1]], played, rewards)

    def _descend(self, root: Node, state: State, player: int, path: list[Node], exact: bool,
                 played: list[tuple[int, int]]) -> list[float] | None:
        """Walk down the tree by UCT from ``root`` while every legal action has a node,
        applying the actions to ``state``; add a node for the first untried one. ``path``
        gets the nodes walked through, ``played`` the steps taken. The observer acts first at the root, even when
        several players are to act; further down, the first player to act does. The rewards
        if the walk ends at a node whose rewards are proved (``exact``: it may prove them),
        else None."""
        node, generator = root, state.rng
        while not self._stops(state):
            if node.result is not None and node is not root:
                return node.result
            actor = player if node is root else state.current_players()[0]
            if actor == CHANCE:
                outcome = self._draw(state)
                node, exact = self._chance_child(node, state, outcome), False
                path.append(node)
                played.append((CHANCE, outcome))
                continue
            parent = node
            node, action_id, expanded = self._child(node, state, actor)
            path.append(node)   # first: an action that the rules fail on counts, as a loss
            played.append((actor, action_id))
            state.apply_action(action_id, player=actor)
            if exact and state.is_terminal() and state.rng == generator:   # no chance drawn: proved
                return _proved(parent, node, actor, rewards_of(state))
            if expanded:
                return None
        return None

    def _child(self, node: Node, state: State, actor: int) -> tuple[Node, int, bool]:
        """The child of ``node`` to walk into for ``actor``, the id of its action, and
        whether the child is new."""
        ids = state.legal_action_ids(actor)
        children = node.children
        node.options = len(ids)
        untried = [i for i in ids if (actor, i) not in children]
        winning: int | None = None
        for i in ids:
            child = children.get((actor, i))
            if child is not None:
                child.availability += 1
                if child.result is not None and child.result[actor] == 1.0:
                    winning = i
        if winning is not None:   # a proved win: nothing to explore
            return children[actor, winning], winning, False
        if untried:
            chosen = untried[self.rng.randrange(len(untried))]
            children[actor, chosen] = Node(actor)
            return children[actor, chosen], chosen, True
        best = max(ids, key=lambda i: children[actor, i].value(actor, self.exploration, self.rave))
        return children[actor, best], best, False

    def _chance_child(self, node: Node, state: State, outcome: int) -> Node:
        """At an explicit chance node: the ``outcome`` drawn, applied; its node."""
        state.apply_action(outcome)
        child = node.children.get((CHANCE, outcome))
        if child is None:
            child = node.children[CHANCE, outcome] = Node(CHANCE)
        return child

    def _draw(self, state: State) -> int:
        outcomes = state.chance_outcomes()
        return self.rng.choices([a.id for a, _ in outcomes], [p for _, p in outcomes])[0]

    def _rollout(self, state: State, played: list[tuple[int, int]] | None) -> list[float]:
        """Random play from ``state`` to the end, or to the bound on decisions; the rewards.
        ``played`` (if given) gets the players' steps."""
        bound = self._bound(state)
        choose = self.rng.randrange
        while not self._stops(state) and state.decisions < bound:
            actor = state.current_players()[0]
            if actor == CHANCE:
                state.apply_action(self._draw(state))
                continue
            ids = state.legal_action_ids(actor)
            if self.decisive and len(ids) > 1:
                state, action_id = self._decisive_step(state, actor, ids)
            else:
                action_id = ids[choose(len(ids))]
                state.apply_action(action_id, player=actor)
            if played is not None:
                played.append((actor, action_id))
        return rewards_of(state)

    def _decisive_step(self, state: State, actor: int, ids: list[int]) -> tuple[State, int]:
        """A rollout step with decisive moves: the state after ``actor``'s move and its id.
        The move is one that ends the game with ``actor`` among the winners (alone if he can,
        the first in the order of ``ids``); failing that, at random among the moves that do not let
        the next player end the game at once without ``actor`` among its winners (with
        ``decisive`` 2 only; among all the moves if every one does). A move the rules fail on
        wins nothing and is not safe (the rollout will fail on it if it is drawn)."""
        afters = [_after(state, actor, i) for i in ids]
        shared: tuple[State, int] | None = None
        for action_id, after in zip(ids, afters, strict=True):
            if after is not None and after.is_terminal():
                winners = _winners_of(after)
                if winners == [actor]:
                    return after, action_id
                if shared is None and actor in winners:
                    shared = after, action_id
        if shared is not None:
            return shared
        candidates = list(range(len(ids)))
        if self.decisive > 1:
            safe = [k for k, after in enumerate(afters) if after is not None and not _loses_at_once(after, actor)]
            candidates = safe or candidates
        k = candidates[self.rng.randrange(len(candidates))]
        after = afters[k]
        if after is None:   # the rules fail on it: the rollout fails as a plain step would
            state.apply_action(ids[k], player=actor)
            after = state
        return after, ids[k]

    def _bound(self, state: State) -> float:
        """The count of decisions at which a rollout stops."""
        limit = state.game.max_decisions
        bound = math.inf if limit is None else float(limit)
        return bound if self.depth is None else min(bound, state.decisions + self.depth)

    @staticmethod
    def _stops(state: State) -> bool:
        """Whether play cannot go on: the game is over, or nobody is to act."""
        return state.is_terminal() or not state.current_players()


def _after(state: State, actor: int, action_id: int) -> State | None:
    """A copy of ``state`` after ``actor`` takes ``action_id``; None if the rules fail."""
    after = state.clone()
    try:
        after.apply_action(action_id, player=actor)
    except (RulelangError, ValueError, TypeError, IndexError):
        return None
    return after


def _winners_of(state: State) -> list[int]:
    """The winners of the finished game ``state``; [] if the rules fail on them."""
    try:
        return state.winners()
    except (RulelangError, ValueError, TypeError, IndexError):
        return []


def _loses_at_once(state: State, player: int) -> bool:
    """Whether the next player to act in ``state`` (not ``player``, not chance) has a move
    that ends the game with him among the winners and ``player`` not."""
    if state.is_terminal() or not state.current_players():
        return False
    other = state.current_players()[0]
    if other in (player, CHANCE):
        return False
    try:
        ids = state.legal_action_ids(other)
    except (RulelangError, ValueError, TypeError, IndexError):
        return False
    for action_id in ids:
        after = _after(state, other, action_id)
        if after is not None and after.is_terminal():
            winners = _winners_of(after)
            if other in winners and player not in winners:
                return True
    return False
