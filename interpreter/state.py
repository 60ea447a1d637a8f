"""The state of one game: plain data plus a program position, and the host API on it.

The interpreter runs the lowered program until it reaches a decision (one player's
choice, several players' simultaneous hidden choices, or a chance event the host asked
to control) and stops there. ``apply_action`` checks the action, resumes, and runs on.
"""
from __future__ import annotations

from rulelang.diagnostics import Diagnostic
from rulelang.errors import IllegalActionError, RulesRuntimeError

from .values import Player, RuleError, display

CHANCE = -1


class Action:
    """A legal action: a stable integer ``id`` and a readable ``str()``."""

    __slots__ = ("id", "label", "player", "value")

    def __init__(self, action_id: int, label: str, player: int, value=None):
        self.id, self.label, self.player, self.value = action_id, label, player, value

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Action({self.id}, {self.label!r}, player={self.player})"

    def __eq__(self, other):
        return isinstance(other, Action) and other.id == self.id and other.player == self.player

    def __hash__(self):
        return hash((self.id, self.player))


class Frame:
    """One running procedure: its code, program counter, local values, and the caller's
    variable that receives its return value."""

    __slots__ = ("code", "env", "name", "pc", "ret")

    def __init__(self, name, code, pc, env, ret=None):
        self.name, self.code, self.pc, self.env, self.ret = name, code, pc, env, ret

    def copy(self) -> Frame:
        return Frame(self.name, self.code, self.pc, dict(self.env), self.ret)


class State:
    """One game in progress. Create with ``Game.new_initial_state``."""

    def __init__(self, game, seed: int, explicit_chance: bool):
        self.game = game
        self.seed = seed
        self.explicit_chance = explicit_chance
        self.pending = None
        self.terminal = False
        self.decisions = 0
        self.history_list: list[tuple[int, int]] = []
        self.log: list[str] = []
        self.frames: list[Frame] = []
        self.origin = None  # (seed-based start) or the JSON data this state was loaded from
        self.since_origin = 0

    # ---- host API ----
    def current_players(self) -> list[int]:
        """The players to act: one, several (a simultaneous choice), [CHANCE] or []."""
        if self.terminal or self.pending is None:
            return []
        return list(self.pending.players)

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return self.pending is not None and self.pending.kind == "chance"

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The actions ``player`` may take now (the only player to act by default)."""
        player = self._resolve_player(player)
        if player is None or self.terminal:
            return []
        options, ids = self._options(player)
        labels = [self._label(o) for o in options]
        return [Action(i, lab, player, o) for i, lab, o in zip(ids, labels, options)]

    def legal_action_ids(self, player: int | None = None) -> list[int]:
        """The ids of ``legal_actions(player)``, without building Action objects."""
        player = self._resolve_player(player)
        if player is None or self.terminal:
            return []
        return list(self._options(player)[1])

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: every outcome with its probability."""
        if not self.is_chance_node():
            raise IllegalActionError("this is not a chance node")
        p = self.pending
        return [(Action(i, self._label(o), CHANCE, o), pr) for o, i, pr in zip(p.options, p.ids, p.probs)]

    def apply_action(self, action, player: int | None = None) -> None:
        """Apply an Action or an action id for ``player``; IllegalActionError if not legal."""
        if isinstance(action, Action):
            if player is None:
                player = action.player
            action_id = action.id
        elif isinstance(action, int) and not isinstance(action, bool):
            action_id = action
        else:
            raise IllegalActionError(f"an action must be an Action or an int id, not {type(action).__name__}")
        player = self._acting_player(player)
        options, ids = self._options(player)
        try:
            index = ids.index(action_id)
        except ValueError:
            legal = ", ".join(f"{i} ({self._label(o)})" for o, i in zip(options, ids))
            raise IllegalActionError(
                f"action {action_id} is not legal for {self._who(player)}; legal: {legal}") from None
        self._resume(player, options[index], action_id)

    def returns(self) -> list[float]:
        """Each player's score (the ruleset's 'score'); meaningful once terminal."""
        scores = self.game.catalog.scores
        if scores is None:
            return [0.0] * self.game.num_players
        return [float(self._per_player(scores, p)) for p in self.game.catalog.real_players]

    def winners(self) -> list[int]:
        """The players with the best score, after the tie-break; [] until the game ends."""
        if not self.terminal:
            return []
        scores = self.returns()
        best = max(scores)
        tied = [i for i, s in enumerate(scores) if s == best]
        tiebreak = self.game.catalog.tiebreaks
        if tiebreak is None or len(tied) < 2:
            return tied
        keys = {i: self._per_player(tiebreak, self.game.catalog.players[i]) for i in tied}
        top = max(keys.values())
        return [i for i in tied if keys[i] == top]

    def history(self) -> list[tuple[int, int]]:
        """Every (player, action id) applied since the start, chance outcomes included."""
        return list(self.history_list)

    def clone(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.g = dict(self.g)
        other.pv = {k: v[:] for k, v in self.pv.items()}
        other.sv = {k: v[:] for k, v in self.sv.items()}
        other.cv = {k: v[:] for k, v in self.cv.items()}
        other.zones = [z[:] for z in self.zones]
        other.loc = self.loc[:]
        other.sup = {k: v[:] for k, v in self.sup.items()}
        other.frames = [f.copy() for f in self.frames]
        other.history_list = self.history_list[:]
        other.log = self.log[:]
        return other

    def __deepcopy__(self, memo) -> State:
        # copy.deepcopy(state) is clone(): the game and its interned values are shared.
        return self.clone()

    def observation(self, player: int) -> dict:
        """What ``player`` may see, as JSON-serializable data."""
        from .observe import observation
        return observation(self, self._check_player(player))

    def to_json(self) -> dict:
        """The whole state as JSON-serializable data; ``Game.state_from_json`` reads it back."""
        from .serialize import state_to_json
        return state_to_json(self)

    def check_invariants(self) -> list[str]:
        """The labels of the ruleset's invariants that do not hold now."""
        failed = []
        for label, condition in self.game.catalog.invariants:
            if not self._evaluate(condition, {}):
                failed.append(label)
        return failed

    def __str__(self) -> str:
        from .observe import describe
        return describe(self)

    # ---- used by the lowered operations ----
    def move(self, component, slot: int) -> None:
        self.zones[self.loc[component.id]].remove(component)
        self.zones[slot].append(component)
        self.loc[component.id] = slot

    def transfer(self, supply: str, source: int, target: int, amount: int) -> None:
        """Move up to ``amount`` tokens between holders (0 is the bank, 1+i player i)."""
        holders = self.sup[supply]
        amount = min(amount, holders[source])
        holders[source] -= amount
        holders[target] += amount

    def push(self, name: str, env: dict, ret) -> None:
        self.frames.append(Frame(name, self.game.catalog.code[name].ops, 0, env, ret))

    def pop(self, value=None) -> None:
        done = self.frames.pop()
        if not self.frames:
            self.end_game()
        elif done.ret is not None:
            self.frames[-1].env[done.ret] = value

    def enter_phase(self, name: str) -> None:
        self.frames = [Frame(name, self.game.catalog.code[name].ops, 0, {})]

    def end_game(self) -> None:
        self.terminal = True
        self.frames = []
        self.pending = None

    # ---- running ----
    def run(self) -> None:
        """Run until a decision or the end; errors become RulesRuntimeError."""
        limit = self.game.max_steps
        steps = 0
        try:
            while self.pending is None and not self.terminal:
                fr = self.frames[-1]
                ops = fr.code
                if fr.pc >= len(ops):
                    self.pop(None)
                    continue
                ops[fr.pc](self, fr)
                steps += 1
                if steps > limit:
                    raise RuleError(f"the rules ran {limit} steps without reaching a decision", "E603")
        except RuleError as error:
            raise self._runtime_error(error.message, error.code) from None
        except (TypeError, AttributeError, KeyError, ValueError, IndexError, ZeroDivisionError) as error:
            raise self._runtime_error(f"{type(error).__name__}: {error}", "E602") from None
        except RecursionError:
            raise self._runtime_error("procedures call each other too deeply", "E603") from None

    def _runtime_error(self, message, code) -> RulesRuntimeError:
        span = None
        if self.frames:
            fr = self.frames[-1]
            spans = self.game.catalog.code[fr.name].spans
            if fr.pc < len(spans):
                span = spans[fr.pc]
        where = f" (in {self.frames[-1].name})" if self.frames else ""
        return RulesRuntimeError(Diagnostic(code, message + where, span))

    def _resume(self, player: int, value, action_id: int) -> None:
        decision = self.pending
        fr = self.frames[-1]
        self.pending = None
        if decision.kind == "simultaneous":
            decision.resume(self, fr, value, player)
        else:
            decision.resume(self, fr, value)
        if player != CHANCE:
            self.decisions += 1
        self.history_list.append((player, action_id))
        self.since_origin += 1
        try:
            self.run()
        except RulesRuntimeError:
            self._restore()
            raise

    def _restore(self) -> None:
        """Put the state back as it was before the failed action, by replaying from its origin."""
        from .serialize import replay_origin
        restored = replay_origin(self, self.since_origin - 1)
        self.__dict__.update(restored.__dict__)

    # ---- helpers ----
    def _options(self, player: int):
        p = self.pending
        if p.kind == "simultaneous":
            return p.options[player]
        return p.options, p.ids

    def _label(self, value) -> str:
        return display(value)

    def _per_player(self, pair, player: Player):
        name, fn = pair
        return self._evaluate(fn, {name: player})

    def _evaluate(self, fn, env):
        try:
            return fn(self, dict(env))
        except RuleError as error:
            raise RulesRuntimeError(Diagnostic(error.code, error.message)) from None

    def _who(self, player: int) -> str:
        return "chance" if player == CHANCE else f"player {player + 1}"

    def _check_player(self, player) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not (
                player == CHANCE or 0 <= player < self.game.num_players):
            raise IllegalActionError(f"no player {player!r} in a {self.game.num_players}-player game "
                                     f"(players are 0..{self.game.num_players - 1})")
        return player

    def _resolve_player(self, player):
        """The player whose options are asked for, or None if that player is not to act."""
        current = self.current_players()
        if player is None:
            if len(current) != 1:
                return None
            return current[0]
        player = self._check_player(player)
        return player if player in current else None

    def _acting_player(self, player) -> int:
        current = self.current_players()
        if self.terminal:
            raise IllegalActionError("the game is over: no action can be applied")
        if player is None:
            if len(current) != 1:
                raise IllegalActionError(f"several players are to act ({current}): say which with player=")
            return current[0]
        player = self._check_player(player)
        if player not in current:
            raise IllegalActionError(f"it is not {self._who(player)}'s turn to act; to act: "
                                     + ", ".join(self._who(p) for p in current))
        return player
