"""Whether the seats of a run are fair: the first player's test and the seat balance, for the
line-up of agents the run had.

Both tests compare seats by their sole wins (a game won by one player). A seat's result
mixes its position and its agent: with ``greedy,random,random,random``, seat 1 wins more
because greedy sits there. So the first player's test is made only when every seat has the
same agent, and the seat balance compares only seats that have the same agent: for each
group of two or more such seats, its seats' sole wins against equal shares of the group's
sole wins (Pearson's chi-square, summed over the groups with their degrees of freedom: given
each group's total, the groups' counts are independent when the seats of a group are equal).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import statistics as st

MIXED_LINEUP = "the seats have different agents: seat 1's share would measure its agent as much as its place"
NO_SAME_AGENT = "no two seats have the same agent"


def same_agent_groups(agents: Sequence[str]) -> list[list[int]]:
    """The seats (0-based) of each agent that sits at two seats or more, in the order of their
    first seat."""
    groups: dict[str, list[int]] = {}
    for seat, agent in enumerate(agents):
        groups.setdefault(agent, []).append(seat)
    return [seats for seats in groups.values() if len(seats) > 1]


def first_player_test(sole_wins: Sequence[int], agents: Sequence[str]) -> dict[str, Any] | None:
    """The first seat's share of the games won by one player, against the share 1/players
    that equal seats would give: its Wilson interval and the exact binomial test's p-value.
    None when the seats do not all have the same agent."""
    if len(set(agents)) > 1:
        return None
    k, n, expected = sole_wins[0], sum(sole_wins), 1 / len(sole_wins)
    return {"sole_wins": k, "decided_games": n, "share": num(k / n if n else 0.0),
            "interval": [num(x) for x in st.wilson_interval(k, n)], "expected_share": num(expected),
            "p_value": num(st.binomial_test(k, n, expected)), "test": "exact binomial"}


def seat_balance_test(sole_wins: Sequence[int], agents: Sequence[str]) -> dict[str, Any] | None:
    """Pearson's chi-square test of the sole wins of the seats that have the same agent against
    equal shares within each group; ``groups`` lists each group's seats (1-based). None when no
    two seats have the same agent."""
    groups = same_agent_groups(agents)
    if not groups:
        return None
    statistic, df, decided = 0.0, 0, 0
    for seats in groups:
        observed = [sole_wins[s] for s in seats]
        total = sum(observed)
        decided += total
        part, part_df, _ = st.chi_square_test(observed, [total / len(seats)] * len(seats))
        statistic, df = statistic + part, df + (part_df if total else 0)
    p = st.chi_square_sf(statistic, df) if df > 0 and decided else 1.0
    return {"statistic": num(statistic), "df": df, "p_value": num(p), "groups": [[s + 1 for s in g] for g in groups],
            "test": "chi-square goodness of fit of sole wins against equal seats of the same agent"}


def num(x: float) -> float:
    """``x`` to 6 significant digits: short JSON, and the same on every machine."""
    return float(f"{x:.6g}")
