"""A game: a checked ruleset with a player count, ready to make states."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulelang import ast
from rulelang.check.settings import Settings
from rulelang.errors import IllegalActionError, RulesetError

from .compiler.driver import LoadTimeEvaluator, compile_program
from .model.problems import diagnostics_of
from .state.catalog_info import catalog_info
from .state.deserialize import state_from_json
from .state.initial_tables import InitialTables
from .state.position_read import state_from_position
from .state.state import Action, State
from .tables.catalog import Catalog


class Game:
    """Everything static about one game; ``new_initial_state`` starts one."""

    def __init__(self, declarations: Sequence[ast.Decl], num_players: int, base_dir: Path, settings: Settings):
        """The game of the merged, checked ``declarations`` for ``num_players`` players (data
        files are read relative to ``base_dir``). Raises RulesetError with every problem
        found while building the game's tables and lowering its procedures."""
        # Copies and pickles rebuild the game from these (a Game holds compiled code, which
        # does not pickle); the declarations are frozen, so a copy may share them.
        self._arguments = (tuple(declarations), num_players, base_dir, settings)
        self.title = settings.title
        self.num_players = num_players
        self.settings = settings
        self.max_steps = settings.max_steps
        self.max_decisions = settings.max_decisions
        self.dummies = settings.dummies
        self.catalog = Catalog(declarations, num_players, base_dir, settings, LoadTimeEvaluator())
        if self.catalog.problems:
            raise RulesetError(diagnostics_of(self.catalog.problems))
        self.program = compile_program(self.catalog)   # the rules, compiled against the catalog
        # What every new game computes the same way, kept by the first (State.initial): the
        # variables' initial values, which no chance or seed reaches...
        self.initial_values: InitialTables | None = None
        # And, when chance is not explicit, a new game up to its first draw or decision (by
        # whether it records events, and the bound on steps), with the steps and work of its
        # run so far (State.initial).
        self.starts: dict[tuple[bool, int], tuple[State, int, int] | None] = {}
        # The Action objects that legal_actions has made, by player and id (an id always
        # names the same value), shared by every state: at most ACTIONS_KEPT a player. One
        # more for chance, last: its index, CHANCE (-1), reads it.
        self.actions: list[dict[int, Action]] = [{} for _ in range(num_players + 1)]
        # Each player's ``actions[player].__getitem__``, made once: legal_actions maps its ids
        # through it (a bound method of a dict read from its instance is a generic lookup and a
        # new object at each read).
        self.action_of: list[Callable[[int], Action]] = [made.__getitem__ for made in self.actions]

    def new_initial_state(self, seed: int = 0, explicit_chance: bool = False, events: bool = False) -> State:
        """A new game at its first decision. ``explicit_chance`` exposes chance events;
        ``events`` records what happens, for ``State.events`` (opt-in: it costs a little)."""
        if type(seed) is not int and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise IllegalActionError(f"seed must be an integer, not {type(seed).__name__}")
        return State.initial(self, seed, explicit_chance, bool(events))

    def state_from_json(self, data: object) -> State:
        """The state that ``State.to_json`` wrote (possibly edited by hand); StateDataError
        (a ValueError, E606) if the data does not fit this game."""
        return state_from_json(self, data)

    def state_from_position(self, text: str, path: str = "<position>") -> State:
        """The state a position describes (``State.to_position`` writes one; people write
        them too: docs/state-format.md), run on to its first decision. StateDataError (E606)
        with a diagnostic per problem, located at ``path``:line:col in the text."""
        return state_from_position(self, text, path)

    def catalog_info(self) -> dict[str, Any]:
        """Everything static about this game as JSON data: components, zones, boards and their
        spaces, variables, supplies and their holders, dice, enumerations and phases, with the
        names and keys that the saved state uses (docs/state-format.md)."""
        return catalog_info(self.catalog, self.num_players, self.title)

    def generated_code(self) -> str:
        """The Python source that this game's rules were compiled to (``rulelang code``):
        every function with the ruleset line and column it comes from, and the constants it
        names. For reading: the engine runs the code it compiled, not this text."""
        return self.program.generated.listing()

    def num_distinct_actions(self, max_number: int | None = None) -> int:
        """How many action ids the game has: every id a state offers is below it. Ids name
        spaces, components, players, enum values, labels and constants, then the numbers up
        to ``max_number`` (default: the bound the ruleset gives them, tensors.action_space)."""
        from .state.tensors import action_space
        return action_space(self, max_number).size

    def __reduce__(self) -> tuple[type[Game], tuple[Sequence[ast.Decl], int, Path, Settings]]:
        """Pickled as its checked declarations, player count, data folder and settings: the
        unpickled game is built again from them (its board files are read again)."""
        return Game, self._arguments

    def __copy__(self) -> Game:
        return Game(*self._arguments)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return Game(*self._arguments)

    def __repr__(self) -> str:
        return f"Game({self.title!r}, players={self.num_players})"
