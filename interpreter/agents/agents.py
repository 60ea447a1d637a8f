"""Agents: players the engine can seat at a game. An agent picks one legal action.

A line-up is written as text, one spec per seat separated by commas (``mcts:400,random,greedy``),
or one spec for every seat. ``parse_agents`` turns it into ``AgentSpec`` values: plain data
that can be sent to other processes, each building its agent with ``AgentSpec.build``.

The kinds (docs/agents.md):

- ``random``: uniform among the legal actions;
- ``greedy`` / ``greedy:NAME``: one ply, maximising the seat's score (``State.returns``) or
  the ruleset's function ``NAME(p: player) -> int`` on the state after the action;
- ``mcts:N``, ``mcts:Ns`` (``mcts:0.5s``), with options ``:c=X``, ``:depth=D``, ``:rave=K``
  and ``:decisive=L``: single-observer information-set Monte Carlo tree search (Cowling,
  Powley and Whitehouse, 2012) with UCT, ``N`` iterations or ``N`` seconds per decision.

Agents other than ``random`` never read what their seat cannot see: they search from a
*canonical* state (``canonical_state``), the same for every state the seat cannot tell
apart, and from samples of it drawn by ``State.resample_from_infostate``.
"""
from __future__ import annotations

import hashlib
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rulelang import ast
from rulelang.errors import RulelangError

from ..model.values import CHANCE, who
from ..state.infostate import Sampler
from ..state.state import Action, State

if TYPE_CHECKING:
    from ..game import Game


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers; the same parts give the same seed on any machine."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Agent(Protocol):
    """What the engine asks of an agent: one of ``player``'s legal actions in ``state``."""

    def choose(self, state: State, player: int) -> Action: ...


class AgentSpecError(ValueError):
    """A line-up of agents that cannot be read; the message says why."""


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``."""
        actions = state.legal_actions(player)
        if not actions:
            raise ValueError(f"{who(player)} has no legal action here")
        return actions[self.rng.randrange(len(actions))]


# ---------------------------------------------------------------- greedy

Evaluation = Callable[[State, int], float]
"""The value of a state for a seat, higher is better."""


def score_of(state: State, player: int) -> float:
    """The seat's score, as ``State.returns`` computes it."""
    return state.returns()[player]


def heuristic_function(game: Game, name: str) -> Evaluation:
    """The ruleset's function ``name(p: player) -> int`` as an evaluation; AgentSpecError if
    the ruleset declares no such function or it has another shape."""
    decl = game.catalog.functions.get(name)
    if decl is None:
        declared = ", ".join(sorted(game.catalog.functions)) or "none"
        raise AgentSpecError(f"greedy:{name}: the ruleset declares no function '{name}' (functions: {declared})")
    shape = _shape_problem(decl)
    if shape:
        raise AgentSpecError(f"greedy:{name}: {shape}; a heuristic takes one player and returns an int")
    call = ast.Call(decl.span, name, (ast.Name(decl.span, "p"),))
    compiled = game.program.compile_expression(call, {"p"})
    players = game.catalog.players
    return lambda state, player: _number(state.evaluate(compiled, {"p": players[player]}, decl.span))


def _shape_problem(decl: ast.FunctionDecl) -> str:
    """What makes ``decl`` unfit as a heuristic, or "" if it fits."""
    params = ", ".join(f"{p.name}: {p.type}" for p in decl.params)
    if len(decl.params) != 1 or decl.params[0].type.name != "player" or decl.params[0].type.optional:
        return f"function '{decl.name}' takes ({params}), not (p: player)"
    if decl.result is None or decl.result.name != "int" or decl.result.optional:
        return f"function '{decl.name}' returns {decl.result}, not int"
    return ""


def _number(value: object) -> float:
    if isinstance(value, int):
        return float(value)
    raise TypeError(f"a heuristic gave {value!r}, not a number")


class GreedyAgent:
    """One ply: the action whose resulting state is best for the seat by ``evaluation``,
    each action tried on one sample of what the seat cannot see; ties broken at random."""

    def __init__(self, seed: int = 0, evaluation: Evaluation = score_of):
        self.rng = random.Random(seed)
        self.evaluation = evaluation

    def choose(self, state: State, player: int) -> Action:
        """One of ``player``'s legal actions in ``state``."""
        actions = state.legal_actions(player)
        if len(actions) < 2:
            return _only(actions, player)
        try:
            sample = Sampler(state, player).sample(self.rng.getrandbits(63))
        except RulelangError:
            return actions[self.rng.randrange(len(actions))]
        values = [self._value_after(sample, player, action.id) for action in actions]
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values, strict=True) if v == best])

    def _value_after(self, sample: State, player: int, action_id: int) -> float:
        """The evaluation of ``sample`` after ``action_id``; -inf if the rules fail."""
        after = sample.clone()
        try:
            after.apply_action(action_id, player=player)
            return self.evaluation(after, player)
        except (RulelangError, TypeError, IndexError):
            return -math.inf


def _only(actions: list[Action], player: int) -> Action:
    """The one legal action; ValueError if there is none."""
    if not actions:
        raise ValueError(f"{who(player)} has no legal action here")
    return actions[0]


# ---------------------------------------------------------------- IS-MCTS

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
            return _only(actions, player)
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


# ---------------------------------------------------------------- specs

@dataclass(frozen=True)
class AgentSpec:
    """One seat's agent as data: its kind and its settings (plain values, picklable).

    ``heuristic``: greedy's function of the ruleset (None: the score). ``iterations`` or
    ``seconds``: MCTS's budget per decision; ``exploration``: UCT's constant; ``depth``: the
    decisions a rollout plays at most (None: to the end); ``rave``: the weight of the
    all-moves-as-first values (0: none); ``decisive``: 1 for decisive moves in rollouts, 2
    for decisive and anti-decisive moves (0: plain random rollouts)."""

    kind: str = "random"
    heuristic: str | None = None
    iterations: int | None = None
    seconds: float | None = None
    exploration: float = DEFAULT_EXPLORATION
    depth: int | None = None
    rave: float = 0.0
    decisive: int = 0

    def check(self, game: Game) -> None:
        """AgentSpecError if this spec cannot play ``game`` (greedy's function missing or of
        the wrong shape)."""
        if self.kind == "greedy" and self.heuristic is not None:
            heuristic_function(game, self.heuristic)

    def build(self, game: Game, seed: int) -> Agent:
        """A new agent of this kind for ``game``, seeded with ``seed``; AgentSpecError if the
        spec does not fit the game."""
        if self.kind == "greedy":
            evaluation = score_of if self.heuristic is None else heuristic_function(game, self.heuristic)
            return GreedyAgent(seed, evaluation)
        if self.kind == "mcts":
            return MctsAgent(seed, Budget(self.iterations, self.seconds), self.exploration, self.depth, self.rave,
                             self.decisive)
        if self.kind == "random":
            return RandomAgent(seed)
        raise AgentSpecError(f"unknown agent kind {self.kind!r}: the kinds are {', '.join(AGENT_KINDS)}")

    def __str__(self) -> str:
        if self.kind == "greedy":
            return "greedy" if self.heuristic is None else f"greedy:{self.heuristic}"
        if self.kind != "mcts":
            return self.kind
        text = f"mcts:{self.seconds:g}s" if self.seconds is not None else f"mcts:{self.iterations}"
        if self.exploration != DEFAULT_EXPLORATION:
            text += f":c={self.exploration:g}"
        if self.depth is not None:
            text += f":depth={self.depth}"
        if self.rave:
            text += f":rave={self.rave:g}"
        return text if not self.decisive else text + f":decisive={self.decisive}"


AGENT_KINDS = ("random", "greedy", "mcts")
SPEC_SYNTAX = ("random, greedy, greedy:FUNCTION, mcts:ITERATIONS or mcts:SECONDSs (options :c=X, :depth=N, "
               ":rave=K, :decisive=L)")


def parse_agents(text: str, players: int) -> tuple[AgentSpec, ...]:
    """One spec per seat from ``text``: a single spec for every seat, or one per seat."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (1, players):
        raise AgentSpecError(f"{len(parts)} agents given for {players} seats: give one for every seat, "
                             "or one per seat")
    specs = tuple(_parse_one(part) for part in parts)
    return specs * players if len(specs) == 1 else specs


def _parse_one(text: str) -> AgentSpec:
    kind, colon, rest = text.partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(f"unknown agent {text!r}: the kinds are {', '.join(AGENT_KINDS)} ({SPEC_SYNTAX})")
    if colon and not rest:
        raise AgentSpecError(f"agent {text!r}: nothing after ':' ({SPEC_SYNTAX})")
    if kind == "random":
        if rest:
            raise AgentSpecError(f"agent {text!r}: random takes no settings")
        return AgentSpec("random")
    if kind == "greedy":
        return _parse_greedy(text, rest)
    return _parse_mcts(text, rest)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parse_greedy(text: str, rest: str) -> AgentSpec:
    if not rest:
        return AgentSpec("greedy")
    if not _IDENTIFIER.fullmatch(rest):
        raise AgentSpecError(f"agent {text!r}: greedy:FUNCTION names a function of the ruleset, "
                             f"{rest!r} is not a name")
    return AgentSpec("greedy", heuristic=rest)


def _parse_mcts(text: str, rest: str) -> AgentSpec:
    if not rest:
        raise AgentSpecError(f"agent {text!r}: give mcts a budget per decision, "
                             "iterations (mcts:200) or seconds (mcts:0.5s)")
    budget, *options = rest.split(":")
    iterations, seconds = _parse_budget(text, budget)
    settings: dict[str, float] = {}
    for option in options:
        name, value = _parse_option(text, option)
        if name in settings:
            raise AgentSpecError(f"agent {text!r}: {name} is given twice")
        settings[name] = value
    depth = settings.get("depth")
    return AgentSpec("mcts", iterations=iterations, seconds=seconds,
                     exploration=settings.get("c", DEFAULT_EXPLORATION),
                     depth=None if depth is None else int(depth), rave=settings.get("rave", 0.0),
                     decisive=int(settings.get("decisive", 0)))


def _parse_budget(text: str, budget: str) -> tuple[int | None, float | None]:
    """(iterations, seconds) from ``200`` or ``0.5s``."""
    if budget.endswith("s"):
        seconds = _positive_float(budget[:-1])
        if seconds is None:
            raise AgentSpecError(f"agent {text!r}: {budget!r} is not a time budget; write seconds above 0, "
                                 "as in mcts:0.5s")
        return None, seconds
    if not budget.isdigit() or int(budget) < 1:
        raise AgentSpecError(f"agent {text!r}: {budget!r} is not a budget; write iterations (a whole number "
                             "above 0, as in mcts:200) or seconds (mcts:0.5s)")
    return int(budget), None


def _parse_option(text: str, option: str) -> tuple[str, float]:
    """("c", X), ("depth", N), ("rave", K) or ("decisive", L) from ``c=X``, ``depth=N``,
    ``rave=K`` or ``decisive=L``."""
    name, equals, value = option.partition("=")
    if not equals or name not in ("c", "depth", "rave", "decisive"):
        raise AgentSpecError(f"agent {text!r}: unknown option {option!r}; the options are c=X "
                             "(exploration, 0 or more), depth=N (decisions per rollout, 1 or more), "
                             "rave=K (weight of all-moves-as-first values, 0 or more) and decisive=L "
                             "(0, 1: decisive moves in rollouts, 2: and anti-decisive moves)")
    if name == "decisive":
        if value not in ("0", "1", "2"):
            raise AgentSpecError(f"agent {text!r}: decisive must be 0, 1 or 2, not {value!r}")
        return name, int(value)
    if name == "depth":
        if not value.isdigit() or int(value) < 1:
            raise AgentSpecError(f"agent {text!r}: depth must be a whole number above 0, not {value!r}")
        return name, int(value)
    number = _positive_float(value, zero=True)
    if number is None:
        raise AgentSpecError(f"agent {text!r}: {name} must be a number, 0 or more, not {value!r}")
    return name, number


def _positive_float(text: str, zero: bool = False) -> float | None:
    """The finite number ``text`` writes if above 0 (or 0 itself, with ``zero``), else None."""
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number) or number < 0 or (number == 0 and not zero) or "_" in text:
        return None
    return number
