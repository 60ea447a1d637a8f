"""The full tic-tac-toe game tree, walked through the host API, matches the published counts.

Published facts: 549,946 nodes (positions reachable by a sequence of moves, counted per
path), 255,168 finished games, of which 131,184 are won by the first player, 77,904 by the
second and 46,080 are draws.
"""
from __future__ import annotations

from conftest import GAMES_DIR

import rulelang


def test_whole_tree_matches_published_counts():
    game = rulelang.load(str(GAMES_DIR / "tic_tac_toe.rules"), players=2)
    nodes = terminal = 0
    outcomes = {"first": 0, "second": 0, "draw": 0}
    stack = [game.new_initial_state(seed=0)]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_terminal():
            terminal += 1
            winners = state.winners()
            if winners == [0]:
                outcomes["first"] += 1
            elif winners == [1]:
                outcomes["second"] += 1
            else:
                assert winners == [0, 1], winners
                outcomes["draw"] += 1
            continue
        (player,) = state.current_players()
        for action_id in state.legal_action_ids(player):
            child = state.clone()
            child.apply_action(action_id, player=player)
            stack.append(child)
    assert nodes == 549_946
    assert terminal == 255_168
    assert outcomes == {"first": 131_184, "second": 77_904, "draw": 46_080}
