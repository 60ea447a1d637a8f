"""A game: a checked ruleset with a player count, ready to make states."""
from __future__ import annotations

from pathlib import Path

from rulelang import ast

from .catalog import Catalog
from .state import Frame, IllegalActionError, State
from .values import RuleError

DEFAULT_MAX_STEPS = 1_000_000


class Game:
    """Everything static about one game; ``new_initial_state`` starts one."""

    def __init__(self, declarations, num_players: int, base_dir: Path, settings: dict, title: str):
        self.title = title
        self.num_players = num_players
        self.settings = settings
        self.max_steps = int(settings.get("max_steps", DEFAULT_MAX_STEPS))
        self.max_decisions = settings.get("max_decisions")
        self.catalog = Catalog(declarations, num_players, base_dir)
        phases = list(self.catalog.phases)
        self.first_phase = settings.get("start") or (phases[0] if phases else None)

    def new_initial_state(self, seed: int = 0, explicit_chance: bool = False) -> State:
        """A new game at its first decision. ``explicit_chance`` exposes chance events."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalActionError(f"seed must be an integer, not {type(seed).__name__}")
        state = self._blank_state(seed, explicit_chance)
        state.run()
        return state

    def _blank_state(self, seed: int, explicit_chance: bool) -> State:
        from . import rng
        cat = self.catalog
        st = State(self, seed, explicit_chance)
        st.origin = None
        st.rng = rng.seed_state(seed)
        st.zones = [[] for _ in cat.zone_refs]
        for component, slot in zip(cat.components, cat.initial_zone):
            st.zones[slot].append(component)
        st.loc = list(cat.initial_zone)
        st.sup = {name: [total] + [0] * self.num_players for name, total in cat.supplies.items()}
        st.g, st.pv, st.sv = {}, {}, {}
        self._initial_values(st)
        if self.first_phase is not None:
            st.enter_phase(self.first_phase)
        if "$setup" in cat.code:
            st.push("$setup", {}, None)
        if not st.frames:
            st.end_game()
        return st

    def _initial_values(self, st: State) -> None:
        cat = self.catalog

        def evaluate(decl, env):
            cat.compiler.scope = set(env)  # `me` (the owner) is a name in a per-player initial value
            return st._evaluate(cat.compiler.expr(decl.initial), env)
        for name, decl in cat.global_vars.items():
            st.g[name] = evaluate(decl, {})
        for name, decl in cat.player_vars.items():
            st.pv[name] = [evaluate(decl, {"me": p}) for p in cat.players]
        for name, decl in cat.space_vars.items():
            st.sv[name] = [evaluate(decl, {"me": s}) for s in cat.spaces]

    def state_from_json(self, data: dict) -> State:
        """The state that ``State.to_json`` wrote (possibly edited by hand)."""
        from .serialize import state_from_json
        return state_from_json(self, data)

    def num_distinct_actions(self) -> int:
        """Action ids below this bound name spaces, components, players, enum values, labels;
        ids from ``catalog.int_base`` on name the numbers 0, 1, 2..."""
        return self.catalog.int_base

    def __repr__(self) -> str:
        return f"Game({self.title!r}, players={self.num_players})"
