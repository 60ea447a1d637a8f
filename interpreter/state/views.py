"""What a host reads from a state besides its decision: scores and winners, the history
and events, observations and their tensors, information-set samples, the saved data, the
invariants and a text picture.

``Views`` is the part of ``State`` (state.py) that reads the state and changes nothing.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import IllegalActionError, RulesRuntimeError

from ..model.values import CHANCE, Player, Value, kind_of
from .decisions import Decisions
from .events import Event, events_for
from .failures import cause_of, rulelang_error
from .infostate import resample
from .narrate import narrated
from .observe import describe, observation
from .save import state_to_json
from .tensors import observation_tensor

if TYPE_CHECKING:
    from ..model.program import Env, Expr, PlayerRule
    from .state import State


class Views(Decisions):
    """The host's readings of a state (a base of ``State``, which holds the fields)."""

    __slots__ = ()
    action_history: list[tuple[int, int]]
    event_log: list[Event] | None

    if TYPE_CHECKING:   # made by State
        def _evaluate(self, fn: Expr, env: Env, span: Span | None = None) -> Value: ...

    def returns(self) -> list[float]:
        """Each player's score (the ruleset's 'score'); meaningful once terminal."""
        score = self.game.program.score
        if score is None:
            return [0.0] * self.game.num_players
        try:
            return [*map(float, self._numbers(score, self.game.catalog.real_players))]  # (no call of list)
        except OverflowError:
            message = f"'{score.kind} {score.variable}' gives a number too large for a score"
            raise RulesRuntimeError(Diagnostic("E602", message, score.span)) from None

    def winners(self) -> list[int]:
        """The players with the best score, after the tie-break; [] until the game ends. A
        shared win gives several players; a draw (every player tied, the tie-break too) gives
        every player, never []."""
        if not self.terminal:
            return []
        scores = self.returns()
        best = max(scores)
        tied = [i for i, s in enumerate(scores) if s == best]
        tiebreak = self.game.program.tiebreak
        if tiebreak is None or len(tied) < 2:
            return tied
        players = self.game.catalog.players
        keys = dict(zip(tied, self._numbers(tiebreak, [players[i] for i in tied]), strict=True))
        top = max(keys.values())
        return [i for i in tied if keys[i] == top]

    def history(self) -> list[tuple[int, int]]:
        """Every (player, action id) applied since the start, chance outcomes included."""
        return list(self.action_history)

    def events(self, player: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """What happened, from event number ``since`` on, as JSON data: everything for
        ``player`` None, else only what that player may see (``CHANCE``: what everyone
        sees). Each event has its number ``seq`` and a ``type`` (docs/embedding.md, Events).
        IllegalActionError if this state records no events (recording is opt-in:
        ``new_initial_state(events=True)``)."""
        return events_for(cast("State", self), self._event_viewer(player, since), since)

    def narration(self, player: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The narrated log from event number ``since`` on: one sentence for each event
        that player may see (None: everything), with phases, ``log heading`` lines and turns
        as headings (interpreter/state/narrate.py; docs/embedding.md, Narration).
        IllegalActionError, as ``events``, if this state records no events."""
        return narrated(cast("State", self), self._event_viewer(player, since), since)

    def _event_viewer(self, player: int | None, since: int) -> int | None:
        """The viewer of ``events`` and ``narration`` (None: everything), once the player,
        ``since`` and the recording are checked."""
        viewer = None if player is None else self._check_player(player)
        if isinstance(since, bool) or not isinstance(since, int):
            raise IllegalActionError(f"since must be an integer, not {type(since).__name__}")
        if self.event_log is None:
            raise IllegalActionError("this state records no events: start it with new_initial_state(events=True)")
        return viewer

    def event_count(self) -> int:
        """How many events are recorded so far: the ``seq`` of the next one (0 when no
        events are recorded). ``events(player, since=state.event_count())`` taken before an
        action gives what that action did."""
        return 0 if self.event_log is None else len(self.event_log)

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-serializable data."""
        return observation(cast("State", self), self._check_player(player))

    def resample_from_infostate(self, player: int, seed: int) -> State:
        """A new state that ``player`` cannot tell apart from this one (the same observation
        and legal actions), in which what he cannot see is drawn again from ``seed``: hidden
        components permuted among their places, future chance new (see infostate.py and
        docs/embedding.md). This state is unchanged."""
        viewer = self._check_player(player)
        if viewer == CHANCE:
            raise IllegalActionError("chance has no information state: resample for a player")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalActionError(f"seed must be an integer, not {type(seed).__name__}")
        try:
            return resample(cast("State", self), viewer, seed)
        except Exception as error:
            raise rulelang_error(error, None, "") from cause_of(error)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-serializable data; ``Game.state_from_json`` reads it back."""
        return state_to_json(cast("State", self))

    def check_invariants(self) -> list[str]:
        """The labels of the ruleset's invariants that do not hold now."""
        return [rule.label for rule in self.game.program.invariants
                if not self._evaluate(rule.condition, {}, rule.span)]

    def __str__(self) -> str:
        return describe(cast("State", self))

    def _numbers(self, rule: PlayerRule, players: Sequence[Player]) -> list[int]:
        """The value of a per-player rule (a score, a tie-break) for each of ``players``: a
        number (true and false count as 1 and 0); computed in one call (``of_players``), which
        stops after a value that is not one."""
        try:
            numbers = rule.of_players(cast("State", self), players)
        except Exception as error:
            raise rulelang_error(error, rule.span, "") from cause_of(error)
        if numbers and type(last := numbers[-1]) is not int and not isinstance(last, int):
            message = f"'{rule.kind} {rule.variable}' gives {kind_of(last)}, not a number"
            raise RulesRuntimeError(Diagnostic("E602", message, rule.span))
        return numbers  # type: ignore[return-value]  # (each an int or a bool: the test above)

    def observation_tensor(self, player: int) -> list[float]:
        """What ``player`` may see as floats, in a layout fixed per game (docs/embedding.md)."""
        return observation_tensor(cast("State", self), player)
