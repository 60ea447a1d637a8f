"""Exact answers with explicit chance: walk every chance outcome instead of sampling.

    PYTHONPATH=. python3 examples/explicit_chance.py

With ``new_initial_state(explicit_chance=True)`` a state stops at each roll, random pick
and shuffle step: ``current_players()`` is ``[rulelang.CHANCE]`` and ``chance_outcomes()``
lists ``(action, probability)``. Walking that tree gives exact values, here as fractions:

1. a one-player push-your-luck dice game: the expected score of a fixed strategy, and of
   the best strategy (expectimax: average over chance, maximum over the player's choices);
2. a shuffle of three cards, which the engine exposes as successive picks: every order
   comes out with probability exactly 1/6.
"""
from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

import rulelang

PUSH_YOUR_LUCK = """
game "Push your luck" { players 1 }

die d6 = [1, 2, 3, 4, 5, 6]
player var banked: int = 0

phase turn {
  let p = players[0]
  let total = 0
  repeat {
    let face = roll d6
    if face == 1 { end game }           # bust: nothing is banked
    total += face
    if total >= 20 { break }            # the turn stops at 20 or more
    choose by p {
      option "roll again" { }
      option "hold" { break }
    }
  }
  p.banked = total
}

score p = p.banked
"""

THREE_CARDS = """
game "Three cards" { players 1 }

component card { rank: int } shown as "card {rank}"
zone pile: card visible count
zone table: card visible all
deck cards: card in pile = [card(rank: r) for r in 1..3]

phase deal {
  shuffle pile
  move pile to table                    # face up, bottom card first
}
"""


def exact(probability: float) -> Fraction:
    """Chance probabilities are floats (copies / outcomes); recover the exact fraction."""
    return Fraction(probability).limit_denominator(10_000)


def position(state) -> str:
    """A key for equal positions: the state's JSON without its path (history, log)."""
    data = state.to_json()
    for key in ("history", "log", "decisions"):
        data.pop(key)
    return json.dumps(data, sort_keys=True)


def expected_score(state, policy, memo) -> Fraction:
    """The exact expected score of player 0 from ``state``. At a decision ``policy(state,
    actions)`` returns the action to take, or None to take the best one (expectimax)."""
    key = position(state)
    if key in memo:
        return memo[key]
    if state.is_terminal():
        value = Fraction(state.returns()[0]).limit_denominator()
    elif state.current_players() == [rulelang.CHANCE]:
        outcomes = state.chance_outcomes()
        assert sum(exact(p) for _, p in outcomes) == 1
        value = Fraction(0)
        for action, probability in outcomes:
            child = state.clone()
            child.apply_action(action)
            value += exact(probability) * expected_score(child, policy, memo)
    else:
        actions = state.legal_actions()
        choice = policy(state, actions)
        options = actions if choice is None else [choice]
        value = max(expected_score(_after(state, a), policy, memo) for a in options)
    memo[key] = value
    return value


def _after(state, action):
    child = state.clone()
    child.apply_action(action)
    return child


def hold_at_once(state, actions):
    return next(a for a in actions if str(a) == "hold")


def keep_rolling(state, actions):
    return next(a for a in actions if str(a) == "roll again")


def best(state, actions):
    return None


def shuffle_orders(game) -> dict[tuple[str, ...], Fraction]:
    """Every final order of the table, with its exact probability."""
    orders: dict[tuple[str, ...], Fraction] = {}

    def walk(state, probability):
        if state.is_terminal():
            table = state.observation(0)["zones"]["table"]
            order = tuple(card["label"] for card in table)
            orders[order] = orders.get(order, Fraction(0)) + probability
            return
        outcomes = state.chance_outcomes()   # no decisions here: only chance nodes (3 picks, then 2)
        for action, p in outcomes:
            walk(_after(state, action), probability * exact(p))

    walk(game.new_initial_state(explicit_chance=True), Fraction(1))
    return orders


def main() -> int:
    game = rulelang.load(PUSH_YOUR_LUCK)
    start = game.new_initial_state(explicit_chance=True)
    print(f"{game.title}: the first thing to happen is chance: {start.current_players()}")
    print("first roll outcomes: " + ", ".join(f"{a} ({exact(p)})" for a, p in start.chance_outcomes()))
    for label, policy in (("hold after one roll", hold_at_once), ("roll until 20", keep_rolling),
                          ("best strategy", best)):
        value = expected_score(start, policy, {})
        print(f"{label}: {value}")
        print(f"  ~ {float(value):.4f}")

    orders = shuffle_orders(rulelang.load(THREE_CARDS))
    print(f"orders of 3 shuffled cards: {len(orders)}")
    probabilities = set(orders.values())
    assert len(probabilities) == 1
    print(f"probability of each order: {probabilities.pop()}")
    for order in sorted(orders):
        print("  bottom to top: " + ", ".join(order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
