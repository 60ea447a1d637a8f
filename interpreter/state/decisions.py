"""The decision a state awaits, as the host asks and answers it: who is to act, the legal
actions and their mask, what a player is asked, the chance outcomes, and the checks of an
action applied.

``Decisions`` is the part of ``State`` (state.py) that reads the decision awaited
(``State.pending``) and checks the players and actions a host gives (``_checked``);
``State.apply_action`` takes the usual call in place, then resumes the run with the value
chosen.
"""
from __future__ import annotations

from operator import itemgetter as _items
from typing import TYPE_CHECKING, cast

from rulelang.errors import IllegalActionError, RulelangError

from ..model.values import CHANCE, Value, display, who
from .action_ids import legal_action_mask
from .actions import Action, DecisionContext, as_integer, checked_player
from .failures import cause_of

if TYPE_CHECKING:
    from ..game import Game
    from ..model.program import Decision, Options
    from .state import State

ACTIONS_KEPT = 10_000  # Action objects a game keeps for each player, to give them again


class Decisions:
    """The host's questions about the decision awaited and its answer to it (a base of
    ``State``, which holds the fields and runs the rules)."""

    __slots__ = ()
    game: Game
    pending: Decision | None
    terminal: bool

    if TYPE_CHECKING:   # made by State
        def _as_rulelang_error(self, error: Exception) -> RulelangError: ...

    def current_players(self) -> list[int]:
        """The players to act: one, several (a simultaneous choice), [CHANCE] or []."""
        try:   # (no test of the decision first: the usual call costs only the list)
            return [*self.pending.players]   # type: ignore[union-attr]
        except AttributeError:   # no decision: None once the game is over (``State.end_game``)
            return []

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.terminal

    def is_chance_node(self) -> bool:
        """Whether the state waits for a chance outcome (only with explicit chance)."""
        return self.pending is not None and self.pending.kind == "chance"

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The actions ``player`` may take now (the only player to act by default)."""
        decision = self.pending  # (None once the game is over)
        # the usual call, a player to act: the decision's first player itself (the int it holds:
        # never True, a float or another type equal to it), or an int among its players
        if decision is not None and \
                (player is decision.players[0] or (type(player) is int and player in decision.players)):
            kept: tuple[Action, ...] | None = decision.actions
            if kept is not None:  # at a decision that states share, asked before
                return [*kept]
            per_player = decision.per_player   # (the ids of Decision.options_of in place)
            ids = decision.ids if per_player is None else per_player[player][1]
            try:   # (two or more by one itemgetter: no call of the dict's method for each id)
                actions = [*_items(*ids)(self.game.actions[player])] if len(ids) > 1 else \
                    [*map(self.game.action_of[player], ids)]
            except KeyError:   # (an action not made yet)
                actions = self._actions_of(player, *decision.options_of(player))
            if per_player is None and decision.shared:  # (of this one player; a pick's never is)
                decision.actions = tuple(actions)
            return actions
        player = self._resolve_player(player)
        if player is None:
            return []
        if decision is not None and decision.actions is not None:   # (labelled by the rules, or kept)
            return [*decision.actions]
        return self._actions_of(player, *self._options(player))

    def _actions_of(self, player: int, options: tuple[Value, ...], ids: tuple[int, ...]) -> list[Action]:
        """The Action objects of ``options`` (with their ``ids``) for ``player``: the game's,
        made once and given again (up to ACTIONS_KEPT a player)."""
        made = self.game.actions[player]
        try:
            return list(map(made.__getitem__, ids))
        except KeyError:
            pass
        if len(made) >= ACTIONS_KEPT:
            return [Action(i, None, player, o) for i, o in zip(ids, options, strict=True)]
        for i, o in zip(ids, options, strict=True):
            if i not in made:
                made[i] = Action(i, None, player, o)
        return list(map(made.__getitem__, ids))

    def decision(self, player: int | None = None) -> DecisionContext | None:
        """What ``player`` (the only one to act by default; ``CHANCE`` at a chance node) is
        asked now, or None if that player is not to act: the kind of answer ("choice", "number
        range", "menu", "simultaneous", "chance"), the prompt, the statement's span in the
        ruleset, and the legal actions (or chance outcomes) with their labels."""
        decision = self.pending
        if decision is None:
            return None
        if player == CHANCE or (player is None and decision.kind == "chance"):
            if decision.kind != "chance":
                return None
            actions = [action for action, _ in self.chance_outcomes()]
            return DecisionContext(decision.asks, self.prompt(CHANCE) or "chance", CHANCE, decision.span,
                                   tuple(actions))
        resolved = self._resolve_player(player)
        if resolved is None:
            return None
        return DecisionContext(decision.asks, self.prompt(resolved) or "", resolved, decision.span,
                               tuple(self.legal_actions(resolved)))

    def prompt(self, player: int | None = None) -> str | None:
        """What ``player`` (the only player to act by default) is asked now: the choice's
        ``prompt`` with its placeholders filled in, or one derived from the statement
        ("choose c in p.hand"); "chance" at a chance node; None if that player is not to act."""
        decision = self.pending
        if decision is not None and decision.kind == "chance" and player in (None, CHANCE):
            return decision.prompt_of(cast("State", self), CHANCE) if decision.prompt_of is not None else "chance"
        player = self._resolve_player(player)
        if player is None or decision is None or decision.prompt_of is None:
            return None
        try:
            return decision.prompt_of(cast("State", self), player)
        except Exception as error:
            raise self._as_rulelang_error(error) from cause_of(error)

    def legal_action_ids(self, player: int | None = None) -> list[int]:
        """The ids of ``legal_actions(player)``, without building Action objects."""
        player = self._resolve_player(player)
        if player is None:
            return []
        return list(self._options(player)[1])

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: every outcome with its probability."""
        decision = self.pending
        if decision is None or decision.kind != "chance":
            raise IllegalActionError("this is not a chance node")
        return [(Action(i, None, CHANCE, o), p)
                for o, i, p in zip(decision.options, decision.ids, decision.probs, strict=True)]

    def _checked(self, action: Action | int, player: int | None) -> tuple[int, Value, int]:
        """The player, the value chosen and the action id of ``apply_action(action, player)``
        as a host may call it (an Action, or an int id; the player given, or the only one to
        act); IllegalActionError if that is not a legal action now."""
        if isinstance(action, Action):
            if player is None:
                player = action.player
            action_id = action.id
        else:
            number = as_integer(action)
            if number is None:
                raise IllegalActionError(f"an action must be an Action or an integer id, not {type(action).__name__}")
            action_id = number
        player = self._acting_player(player)
        options, ids = self._options(player)
        try:
            return player, options[ids.index(action_id)], action_id
        except ValueError:
            legal = ", ".join(f"{i} ({display(o)})" for o, i in zip(options, ids, strict=True))
            raise IllegalActionError(f"action {action_id} is not legal for {who(player)}; legal: {legal}") from None

    def _options(self, player: int) -> Options:
        assert self.pending is not None
        return self.pending.options_of(player)

    def _to_act(self) -> tuple[int, ...]:
        """``current_players()``, as the decision holds them."""
        if self.terminal or self.pending is None:
            return ()
        return self.pending.players

    def _check_player(self, player: object) -> int:
        return checked_player(player, self.game.num_players)

    def _resolve_player(self, player: int | None) -> int | None:
        """The player whose options are asked for, or None if that player is not to act."""
        current = self._to_act()
        if type(player) is int and player in current:  # the usual call: a player to act
            return player
        if player is None:
            return current[0] if len(current) == 1 else None
        player = self._check_player(player)
        return player if player in current else None

    def _acting_player(self, player: int | None) -> int:
        current = self._to_act()
        if type(player) is int and player in current:  # the usual call: a player to act
            return player
        if self.terminal:
            raise IllegalActionError("the game is over: no action can be applied")
        if player is None:
            if len(current) != 1:
                raise IllegalActionError(f"several players are to act ({list(current)}): say which with player=")
            return current[0]
        player = self._check_player(player)
        if player not in current:
            raise IllegalActionError(f"it is not {who(player)}'s turn to act; to act: "
                                     + ", ".join(who(p) for p in current))
        return player

    def legal_action_mask(self, player: int | None = None, max_number: int | None = None) -> list[int]:
        """1 for each action id ``player`` may take now, 0 for the others, over the game's
        action space (``Game.num_distinct_actions``)."""
        return legal_action_mask(cast("State", self), player, max_number)
