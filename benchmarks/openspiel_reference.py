"""Reference speed: OpenSpiel's pure-Python tic-tac-toe, random playouts.

Measures uniformly random playouts per second of the game implemented in
Python in ``open_spiel/python/games/tic_tac_toe.py`` (registered as
``"python_tic_tac_toe"``), *not* the C++ ``"tic_tac_toe"``. Each playout is:
``new_initial_state()``, then repeatedly ``apply_action`` of an action chosen
uniformly from ``legal_actions()`` with ``random.Random(seed)`` until
``is_terminal()``, then ``returns()``. Game loading happens outside the timed
loop. Optional dependency: ``pip install open-spiel``; without it the
functions below return ``None`` / ``False`` instead of raising.
"""

from __future__ import annotations

import random
import time


def _load_game():
    """Return the pure-Python tic-tac-toe game, or None if OpenSpiel is missing."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)
    except ImportError:
        return None
    return pyspiel.load_game("python_tic_tac_toe")


def available() -> bool:
    """True if OpenSpiel and its Python tic-tac-toe can be loaded."""
    try:
        return _load_game() is not None
    except Exception:
        return False


def python_tictactoe_playouts_per_second(seconds: float = 2.0, seed: int = 0) -> float | None:
    """Random playouts/second of OpenSpiel's Python tic-tac-toe over ~``seconds``.

    Returns None if OpenSpiel is not importable (or the game fails to load).
    """
    try:
        game = _load_game()
    except Exception:
        return None
    if game is None:
        return None

    rng = random.Random(seed)
    choice = rng.choice
    playouts = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        state.returns()
        playouts += 1
        now = time.process_time()
        if now >= deadline:
            break
    return playouts / (now - start)


if __name__ == "__main__":
    rate = python_tictactoe_playouts_per_second()
    if rate is None:
        print("open_spiel not available")
    else:
        print(f"OpenSpiel python_tic_tac_toe: {rate:,.0f} random playouts/s")
