"""Kuhn poker's published game value, found through the host API alone.

Counterfactual regret minimisation (CFR+) runs over the game tree that the engine gives:
explicit chance for the deal, legal actions for the moves, and each player's observation
as his information set. Its average strategy must reach the equilibrium value -1/18 for
the first player, and exploitability near zero: checks of chance, hidden information and
scoring together, against a number the engine cannot know.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang import CHANCE

GAMES = Path(__file__).resolve().parent.parent / "games"


class Node:
    """One state of the tree: chance (outcomes with probabilities), decision or terminal."""

    def __init__(self, state):
        self.terminal = state.is_terminal()
        self.returns = state.returns() if self.terminal else None
        self.player = None if self.terminal else state.current_players()[0]
        self.children, self.probs, self.info = [], [], None
        if self.terminal:
            return
        if self.player == CHANCE:
            pairs = state.chance_outcomes()
        else:
            self.info = json.dumps(state.observation(self.player), sort_keys=True)
            pairs = [(a, None) for a in state.legal_actions(self.player)]
        for action, prob in pairs:
            child = state.clone()
            child.apply_action(action, player=self.player)
            self.children.append(Node(child))
            self.probs.append(prob)


def build_tree():
    game = rulelang.load(GAMES / "kuhn_poker.rules")
    return Node(game.new_initial_state(explicit_chance=True))


class CFRPlus:
    def __init__(self, root):
        self.root, self.regrets, self.totals = root, {}, {}

    def strategy(self, node):
        regrets = self.regrets.setdefault(node.info, [0.0] * len(node.children))
        positive = sum(regrets)
        n = len(node.children)
        return [r / positive for r in regrets] if positive > 0 else [1.0 / n] * n

    def walk(self, node, traverser, own, others, weight):
        """Value of ``node`` for ``traverser``, reached with probability ``own`` by his own
        moves and ``others`` by chance and the opponent; updates his regrets and averages."""
        if node.terminal:
            return node.returns[traverser]
        if node.player == CHANCE:
            return sum(p * self.walk(c, traverser, own, others * p, weight)
                       for c, p in zip(node.children, node.probs, strict=True))
        sigma = self.strategy(node)
        if node.player != traverser:
            children = zip(node.children, sigma, strict=True)
            return sum(s * self.walk(c, traverser, own, others * s, weight) for c, s in children)
        values = [self.walk(c, traverser, own * s, others, weight) for c, s in zip(node.children, sigma, strict=True)]
        value = sum(s * v for s, v in zip(sigma, values, strict=True))
        regrets = self.regrets[node.info]
        totals = self.totals.setdefault(node.info, [0.0] * len(sigma))
        for i, v in enumerate(values):
            regrets[i] = max(0.0, regrets[i] + others * (v - value))
            totals[i] += weight * own * sigma[i]
        return value

    def run(self, iterations):
        for t in range(1, iterations + 1):
            for traverser in (0, 1):
                self.walk(self.root, traverser, 1.0, 1.0, t)

    def average(self, node):
        totals = self.totals.get(node.info)
        if not totals or sum(totals) == 0:
            return [1.0 / len(node.children)] * len(node.children)
        return [x / sum(totals) for x in totals]


def value(node, policy):
    """The first player's expected return when both play ``policy``."""
    if node.terminal:
        return node.returns[0]
    weights = node.probs if node.player == CHANCE else policy(node)
    return sum(w * value(c, policy) for c, w in zip(node.children, weights, strict=True))


def best_response_value(root, policy, responder):
    """What ``responder`` gets by best-responding to ``policy`` (information sets respected)."""
    sets = {}

    def collect(node, reach):
        if node.terminal:
            return
        weights = node.probs if node.player == CHANCE else policy(node)
        if node.player == responder:
            sets.setdefault(node.info, []).append((node, reach))
            weights = [1.0] * len(node.children)
        for c, w in zip(node.children, weights, strict=True):
            collect(c, reach * w)
    collect(root, 1.0)
    choice = {}

    def ev(node):
        if node.terminal:
            return node.returns[responder]
        if node.player == responder:
            if node.info not in choice:
                totals = [sum(r * ev(n.children[i]) for n, r in sets[node.info])
                          for i in range(len(node.children))]
                choice[node.info] = max(range(len(totals)), key=totals.__getitem__)
            return ev(node.children[choice[node.info]])
        weights = node.probs if node.player == CHANCE else policy(node)
        return sum(w * ev(c) for c, w in zip(node.children, weights, strict=True))
    return ev(root)


@pytest.fixture(scope="module")
def solved():
    root = build_tree()
    solver = CFRPlus(root)
    solver.run(1500)
    return root, solver


def test_the_tree_has_the_published_shape():
    root = build_tree()
    assert root.player == CHANCE and len(root.children) == 3          # the first card dealt
    deals = [g for c in root.children for g in c.children]
    assert len(deals) == 6 and all(abs(p - 1 / 2) < 1e-12 for c in root.children for p in c.probs)
    infos = {n.info for d in deals for n in _decisions(d)}
    assert len(infos) == 12                                            # 6 per player


def _decisions(node):
    if node.terminal or node.player == CHANCE:
        return []
    return [node] + [d for c in node.children for d in _decisions(c)]


def test_cfr_reaches_the_game_value_minus_one_eighteenth(solved):
    root, solver = solved
    assert value(root, solver.average) == pytest.approx(-1 / 18, abs=2e-3)


def test_the_average_strategy_is_nearly_unexploitable(solved):
    root, solver = solved
    exploitability = (best_response_value(root, solver.average, 0)
                      + best_response_value(root, solver.average, 1)) / 2
    assert 0 <= exploitability < 5e-3


def test_uniform_play_is_exploitable(solved):
    root, _ = solved

    def uniform(node):
        return [1.0 / len(node.children)] * len(node.children)
    exploitability = (best_response_value(root, uniform, 0) + best_response_value(root, uniform, 1)) / 2
    assert exploitability > 0.1
