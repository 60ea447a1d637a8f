"""A game: a checked ruleset with a player count, ready to make states."""
from __future__ import annotations

from pathlib import Path

from rulelang import ast

from .catalog import Catalog
from .lower import CompileError
from .state import IllegalActionError, State

DEFAULT_MAX_STEPS = 1_000_000


class Game:
    """Everything static about one game; ``new_initial_state`` starts one."""

    def __init__(self, declarations, num_players: int, base_dir: Path, settings: dict, title: str):
        self.title = title
        self.num_players = num_players
        self.settings = settings
        self.max_steps = int(settings.get("max_steps", DEFAULT_MAX_STEPS))
        self.max_decisions = settings.get("max_decisions")
        self.dummies = int(settings.get("dummies", 0))
        self.catalog = Catalog(declarations, num_players, base_dir, self.dummies)
        phases = list(self.catalog.phases)
        self.first_phase = settings.get("start") or (phases[0] if phases else None)
        if self.first_phase is not None and self.first_phase not in self.catalog.phases:
            header = next(d for d in declarations if isinstance(d, ast.GameDecl))
            span = next(s.span for s in header.settings if s.name == "start")
            raise CompileError(f"the 'start' setting names no phase: '{self.first_phase}'", span, "E104",
                               hint=self.catalog.suggest(str(self.first_phase), phases))

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
        holders = len(cat.players) + len(cat.components)
        st.sup = {name: [total] + [0] * holders for name, total in cat.supplies.items()}
        st.g, st.pv, st.sv, st.cv = {}, {}, {}, {}
        self._initial_values(st)
        if self.first_phase is not None:
            st.enter_phase(self.first_phase)
        if "$setup" in cat.code:
            st.push("$setup", {}, None)
        if not st.frames:
            st.end_game()
        return st

    def _initial_values(self, st: State) -> None:
        """Each variable's initial value, from the closures the catalog compiled; ``me`` is the
        owning player or space of a per-player or per-space variable."""
        cat = self.catalog
        for name, value in cat.initial_values["global"].items():
            st.g[name] = st._evaluate(value, {})
        for name, value in cat.initial_values["player"].items():
            st.pv[name] = [st._evaluate(value, {"me": p}) for p in cat.players]
        for name, value in cat.initial_values["space"].items():
            st.sv[name] = [st._evaluate(value, {"me": s}) for s in cat.spaces]
        for name, value in cat.initial_values["component"].items():
            st.cv[name] = [st._evaluate(value, {"me": c}) for c in cat.components]

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
