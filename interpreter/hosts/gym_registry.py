"""Every ruleset of a folder as a registered Gymnasium environment, so that
``gymnasium.make`` finds it by id:

    import gymnasium as gym, rulelang
    rulelang.register_envs(folder="games")            # rulelang/my_game-v0 for games/my_game.rules...
    env = gym.make("rulelang/my_game-v0", players=2, seat=1, render_mode="ansi")

Each id makes a ``gymnasium_env.RulesetEnv`` of its ruleset file; the keywords given to
``gym.make`` are that environment's (``players``, ``seat``, ``opponents``, ``max_decisions``...).
Gymnasium is imported only when ``register_envs`` runs (``import rulelang`` stays light).
"""
from __future__ import annotations

import re
from pathlib import Path

from rulelang.errors import IllegalActionError

from ..sim.extras import MissingExtraError

NAMESPACE = "rulelang"
VERSION = 0
ENTRY_POINT = "rulelang.interpreter.hosts.gymnasium_env:RulesetEnv"
RL_HINT = "pip install 'rulelang[rl]'"


def env_id(path: Path, namespace: str = NAMESPACE) -> str:
    """The Gymnasium id of the ruleset file ``path``: ``rulelang/<file name>-v0`` (a character
    an id may not hold becomes ``_``)."""
    name = re.sub(r"[^\w.]", "_", path.stem)
    return f"{namespace}/{name}-v{VERSION}"


def register_envs(folder: str | Path = "games", *, namespace: str = NAMESPACE) -> list[str]:
    """Register every ruleset file (``*.rules``) of ``folder`` with Gymnasium as
    ``<namespace>/<file name>-v0``; the ids, sorted. Registering a ruleset again (the same
    file under the same id) changes nothing; IllegalActionError for a folder that is not one,
    MissingExtraError without Gymnasium."""
    try:
        import gymnasium
    except ImportError:
        raise MissingExtraError(f"Gymnasium environments need Gymnasium: {RL_HINT}") from None
    where = Path(folder)
    if not where.is_dir():
        raise IllegalActionError(f"register_envs: {folder} is not a folder")
    ids = []
    for path in sorted(where.glob("*.rules")):
        found, kwargs = env_id(path, namespace), {"game": str(path.resolve())}
        known = gymnasium.registry.get(found)
        if known is None or known.kwargs != kwargs:
            gymnasium.register(id=found, entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(found)
    return ids
