"""The state of one game: plain data plus a program position, and the running of the rules.

The interpreter runs the lowered program until it reaches a decision (one player's
choice, several players' simultaneous hidden choices, or a chance event the host asked
to control) and stops there. ``apply_action`` checks the action, resumes, and runs on.
What the host asks of the decision is in decisions.py and what it reads in views.py (the
bases of ``State``); actions and decision contexts are in actions.py.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from rulelang.diagnostics import Span
from rulelang.errors import RulelangError

from ..model import rng
from ..model.program import Decision, Env, Expr, Frame, LogLine, line_text, run_one, runaway
from ..model.values import CHANCE, Component, RuleError, Value
from ..tables.effects import NOTHING_TO_MOVE
from ..tables.runtime import MAX_DEPTH
from .actions import Action, DecisionContext
from .applied import applied_checked, replayed, went_on
from .events import Event, action_event, tokens_event
from .failures import cause_of, rulelang_error
from .infostate import components_in
from .initial_tables import InitialTables, copied
from .position_write import position_text
from .precise import applied_precisely, run_precisely
from .stamps import shuffled_knowledge
from .starts import start_of
from .views import Views

if TYPE_CHECKING:
    from rulelang import ast

    from ..game import Game

__all__ = ["CHANCE", "Action", "DecisionContext", "InitialTables", "State"]

_LIST_COPY = list.copy
_FRAME_COPY = Frame.copy
_new_state = object.__new__


class State(Views):
    """One game in progress. Create with ``Game.new_initial_state``."""

    __slots__ = (
        "action_history",
        "chance_taken",
        "component_knowledge",
        "component_values",
        "component_zone",
        "event_log",
        "explicit_chance",
        "frames",
        "game",
        "global_values",
        "log_built",
        "log_lines",
        "max_steps",
        "origin",
        "origin_at",
        "pending",
        "player_values",
        "private_built",
        "private_lines",
        "rng",
        "rounds",
        "seed",
        "space_values",
        "supply_counts",
        "terminal",
        "work",
        "zones",
    )

    def __init__(self, game: Game, seed: int, explicit_chance: bool, events: bool = False):
        """The state before setup: every component in its starting zone, every token in its
        bank, no variable set yet and no procedure running; recording events or not."""
        catalog = game.catalog
        self.game = game
        self.seed = seed
        self.explicit_chance = explicit_chance
        self.rng: int = rng.seed_state(seed)  # the random generator's whole state
        # Variables: by name, then (for owned variables) by player, space or component index.
        self.global_values: dict[str, Value] = {}
        self.player_values: dict[str, list[Value]] = {}
        self.space_values: dict[str, list[Value]] = {}
        self.component_values: dict[str, list[Value]] = {}
        # Tokens of each supply by holder: 0 is the bank, then the seats, then the components.
        holders = catalog.holder_base + len(catalog.components)
        self.supply_counts: dict[str, list[int]] = {
            name: [total] + [0] * (holders - 1) for name, total in catalog.supplies.items()}
        # The components in each zone slot (bottom first), and the zone slot of each component.
        self.zones: list[list[Component]] = [[] for _ in catalog.zone_refs]
        for component, slot in zip(catalog.components, catalog.initial_zone, strict=True):
            self.zones[slot].append(component)
        self.component_zone: list[int] = list(catalog.initial_zone)
        # Per component: the players who know where it is (a bit per player), and above those
        # bits the shuffle that last put it in a random place (0: none); see infostate.py. A
        # state made here without a history (loaded) knows only what the players who see each
        # zone in full see; a new game's layout is public (``initial``). A component's bits
        # always hold those of the players who see its zone in full, so a move adds only those
        # who see the zone it enters.
        self.component_knowledge: list[int] = [catalog.zone_seers[slot] for slot in catalog.initial_zone]
        # The program position: running procedures (innermost last), and the decision awaited.
        self.frames: list[Frame] = []
        self.pending: Decision | None = None
        self.terminal = False
        self.action_history: list[tuple[int, int]] = []  # (player, action id), chance included
        self.chance_taken = 0  # the chance outcomes of the history (``decisions``: the others)
        # The log (``log``, ``private_log``): a line's text is built when someone reads it.
        self.log_lines: list[str | LogLine] = []
        self.log_built = 0  # the first lines, already read: their text is built (``log``)
        # Lines for some players only ('log ... to', 'reveal'): (how many public lines came
        # before it, the players who see it, the text).
        self.private_lines: list[tuple[int, tuple[int, ...], str | LogLine]] = []
        self.private_built = 0
        # What happened, as recorded tuples (events.py), or None when no events are recorded.
        self.event_log: list[Event] | None = [] if events else None
        # A failed action is undone by replaying from the origin: the start (None) or the
        # state this one was loaded from, whose history was the first ``origin_at`` actions
        # of this one's (``since_origin``: the actions applied since).
        self.origin: State | None = None
        self.origin_at = 0
        self.work = 0  # items of work charged (charge()) since the run or evaluation began
        self.rounds = 0  # rounds of compiled loops and calls of compiled procedures (step()), as work
        self.max_steps = game.max_steps  # the bound of both, read in place by the generated code

    @classmethod
    def initial(cls, game: Game, seed: int, explicit_chance: bool, events: bool = False) -> State:
        """A new game, set up and run to its first decision (a failure run again from the
        start, each operation counted one by one: precise.py)."""
        if not explicit_chance:
            starts, key = game.starts, (events, game.max_steps)
            start = starts.get(key)   # (one search of the key where the start is known)
            if start is None and key not in starts:
                start = start_of(cls, game, events)
            if start is not None:  # the setup up to its first draw or decision: the same for every seed
                prefix, steps, work = start
                state = prefix.clone()
                state.seed, state.rng = seed, rng.seed_state(seed)
                if state.pending is None and not state.terminal:  # (else it is at its first decision)
                    try:   # the run goes on as if it had not stopped (its rounds counted so far too)
                        state._run_until_decision(steps, work, rounds=prefix.rounds)
                    except Exception as error:
                        state = prefix.clone()
                        state.seed, state.rng = seed, rng.seed_state(seed)
                        run_precisely(state, steps, work, error, prefix.rounds)
                return state
        state = cls(game, seed, explicit_chance, events)
        state._set_up_and_start()
        try:
            state._run_until_decision()
        except Exception as error:   # (set up again, then run one operation at a time: no copy made before)
            state = cls(game, seed, explicit_chance, events)
            state._set_up_and_start()
            run_precisely(state, 0, 0, error)
        return state

    def _set_up_and_start(self) -> None:
        everyone = (1 << self.game.num_players) - 1
        self.component_knowledge = [everyone] * len(self.game.catalog.components)  # the decks' declared order
        self._set_up()

    def _set_up(self) -> None:
        """Give every variable its initial value, then enter the first phase, after the setup."""
        catalog = self.game.catalog
        self._set_initial_values_of_game()
        if catalog.first_phase is not None:  # its event comes when the setup is done (pop)
            self.enter_phase(catalog.first_phase, announce="$setup" not in self.game.program.code)
        if "$setup" in self.game.program.code:
            self.push("$setup", {}, None)
        if not self.frames:
            self.end_game()

    def _set_initial_values_of_game(self) -> None:
        """``set_initial_values``, computed by the game's first new state only: they read
        nothing but the game (a new state's zones and the variables set before them; no
        chance), and values are immutable, so every new game starts with copies of them."""
        game = self.game
        tables = game.initial_values
        if tables is None or tables.max_steps != game.max_steps:  # (bounded by max_steps too)
            self.set_initial_values()  # an error of the rules is raised again by the next game
            game.initial_values = InitialTables(
                dict(self.global_values), copied(self.player_values), copied(self.space_values),
                copied(self.component_values), game.max_steps)
            return
        self.global_values = dict(tables.global_values)
        self.player_values = copied(tables.player_values)
        self.space_values = copied(tables.space_values)
        self.component_values = copied(tables.component_values)

    def set_initial_values(self) -> None:
        """Give every variable its declared initial value (``me``: the owner of an owned
        variable); a position's values default to these."""
        catalog = self.game.catalog
        initial = self.game.program.initial_values
        for name, value in initial.global_values.items():
            self.global_values[name] = self._evaluate(value, {}, catalog.global_vars[name].span)
        owned: tuple[tuple[dict[str, Expr], dict[str, ast.VarDecl], dict[str, list[Value]], Sequence[Value]], ...] = (
            (initial.player_values, catalog.player_vars, self.player_values, catalog.players),
            (initial.space_values, catalog.space_vars, self.space_values, catalog.spaces),
            (initial.component_values, catalog.component_vars, self.component_values, catalog.components))
        for values, variables, table, owners in owned:
            for name, value in values.items():
                table[name] = [self._evaluate(value, {"me": owner}, variables[name].span) for owner in owners]

    # ---- the log, its lines built when read ----
    @property
    def log(self) -> list[str]:
        """The public lines of the log, oldest first (each line's text built when first read;
        the lines read before are text already: ``log_built``)."""
        lines = self.log_lines
        built = self.log_built
        if built != len(lines):
            if built > len(lines):  # (the list was cut short where it was read)
                built = 0
            for k in range(built, len(lines)):
                line = lines[k]
                if type(line) is not str:
                    lines[k] = line_text(line)
            self.log_built = len(lines)
        return cast("list[str]", lines)

    @log.setter
    def log(self, lines: list[str]) -> None:
        self.log_lines = cast("list[str | LogLine]", lines)
        self.log_built = 0

    @property
    def private_log(self) -> list[tuple[int, tuple[int, ...], str]]:
        """The lines for some players only: (how many public lines came before it, the
        players who see it, the text); built when first read, as ``log``."""
        lines = self.private_lines
        built = self.private_built
        if built != len(lines):
            if built > len(lines):
                built = 0
            for k in range(built, len(lines)):
                at, players, line = lines[k]
                if type(line) is not str:
                    lines[k] = (at, players, line_text(line))
            self.private_built = len(lines)
        return cast("list[tuple[int, tuple[int, ...], str]]", lines)

    @private_log.setter
    def private_log(self, lines: list[tuple[int, tuple[int, ...], str]]) -> None:
        self.private_lines = cast("list[tuple[int, tuple[int, ...], str | LogLine]]", lines)
        self.private_built = 0

    @property
    def decisions(self) -> int:
        """The choices made by players so far (chance outcomes not counted)."""
        return len(self.action_history) - self.chance_taken

    @property
    def since_origin(self) -> int:
        """The actions applied since the origin (``origin``), which a failed action replays."""
        return len(self.action_history) - self.origin_at

    @since_origin.setter
    def since_origin(self, count: int) -> None:
        self.origin_at = len(self.action_history) - count

    def clone(self) -> State:
        """An independent copy: every field of this state copied (values are shared: immutable)."""
        other = _new_state(State)
        copy = _LIST_COPY  # (a list's copy by its C method: fewer instructions than a slice)
        other.game, other.seed, other.explicit_chance, other.rng = self.game, self.seed, self.explicit_chance, self.rng
        other.max_steps = self.max_steps
        other.global_values = self.global_values.copy()
        other.player_values = copied(table) if (table := self.player_values) else {}
        other.space_values = copied(table) if (table := self.space_values) else {}
        other.component_values = copied(table) if (table := self.component_values) else {}
        other.supply_counts = copied(counts) if (counts := self.supply_counts) else {}
        other.zones = [*map(copy, self.zones)]
        other.component_zone = copy(self.component_zone)
        other.component_knowledge = copy(self.component_knowledge)
        other.frames = [*map(_FRAME_COPY, self.frames)]
        other.pending, other.terminal = self.pending, self.terminal
        other.action_history, other.chance_taken = copy(self.action_history), self.chance_taken
        other.log_lines = copy(self.log_lines)  # lines not built yet are shared: immutable
        other.private_lines = copy(self.private_lines)
        other.log_built, other.private_built = self.log_built, self.private_built
        other.event_log = None if (log := self.event_log) is None else copy(log)
        other.origin, other.origin_at = self.origin, self.origin_at
        other.work, other.rounds = self.work, self.rounds
        return other

    def __copy__(self) -> State:
        # copy.copy(state) is clone() too: a shallow copy would share the tables it changes.
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # copy.deepcopy(state) is clone(): the game and its interned values are shared.
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # Pickled as its game's reader (the game itself pickled as its source) and its JSON data.
        return self.game.state_from_json, (self.to_json(),)

    def to_position(self) -> str:
        """The state as a position: readable text naming zones, components, spaces, players
        and variables (docs/state-format.md); ``Game.state_from_position`` reads it back.
        Like FEN it leaves out the history, the count of decisions, the log and events, and
        the variables at their initial values (the game's, computed here if no new game has)."""
        if self.game.initial_values is None:
            State(self.game, 0, False)._set_initial_values_of_game()
        assert self.game.initial_values is not None
        return position_text(self, self.game.initial_values)

    # ---- used by the lowered operations ----
    def move(self, component: Component, slot: int) -> None:
        """Move ``component`` to the top of the zone in ``slot``."""
        cid = component.id
        source = self.component_zone[cid]
        zone = self.zones[source]
        if zone[-1] is component:  # the top, as most moves take: no search
            zone.pop()
        else:
            zone.remove(component)
        self.zones[slot].append(component)
        self.component_zone[cid] = slot
        # who saw it arrive knows where it is (who saw it leave knew: component_knowledge)
        self.component_knowledge[cid] |= self.game.catalog.zone_seers[slot]
        if self.event_log is not None:
            self.event_log.append(("move", cid, source, slot))

    def move_top(self, source: int, slot: int) -> None:
        """Move the top component of the zone in ``source`` to the top of the zone in
        ``slot``: ``move`` of ``top(zone)``, taken off in place (an empty zone has none)."""
        zones = self.zones
        zone = zones[source]
        if not zone:
            raise RuleError(NOTHING_TO_MOVE)
        component = zone.pop()
        zones[slot].append(component)
        cid = component.id
        self.component_zone[cid] = slot
        # who saw it arrive knows where it is (who saw it leave knew: component_knowledge)
        self.component_knowledge[cid] |= self.game.catalog.zone_seers[slot]
        if self.event_log is not None:
            self.event_log.append(("move", cid, source, slot))

    def move_all(self, source: int, slot: int) -> None:
        """Move every component of the zone in ``source``, bottom first, to the top of the
        zone in ``slot``: the same as ``move`` of each in turn, without a search."""
        zones = self.zones
        moving = zones[source]
        if not moving:
            return  # nothing moves: nobody learns anything
        seers = self.game.catalog.zone_seers
        seen = seers[slot]   # (who sees the zone they leave knows where they are: component_knowledge)
        zone_of, knowledge = self.component_zone, self.component_knowledge
        if seen & ~seers[source]:
            for component in moving:  # (a plain loop: c.id read in place costs less than map(attrgetter))
                cid = component.id
                zone_of[cid] = slot
                knowledge[cid] |= seen
        else:
            for component in moving:
                zone_of[component.id] = slot
        if self.event_log is not None:
            self.event_log += [("move", component.id, source, slot) for component in moving]
        if source != slot:  # (a zone moved onto itself keeps its order)
            zones[slot] += moving
            moving.clear()

    def shuffled(self, slot: int) -> None:
        """After a shuffle of the zone in ``slot``: only the players who see it in full know
        where its components are, and they come from one shuffle (stamps.py)."""
        shuffled_knowledge(self, slot)

    def revealed(self, value: Value, players: tuple[int, ...]) -> None:
        """After a reveal of ``value`` to ``players``: they know where its components are."""
        bits = sum(1 << p for p in players)
        for component in components_in(value):
            self.component_knowledge[component.id] |= bits

    def transfer(self, supply: str, source: int, target: int, amount: int) -> None:
        """Move up to ``amount`` tokens between holders (0 is the bank, 1+i player i)."""
        holders = self.supply_counts[supply]
        held = holders[source]
        if amount > held:
            amount = held
        holders[source] = held - amount
        holders[target] += amount
        if amount and self.event_log is not None:
            self.event_log.append(tokens_event(self, supply, source, target, amount))

    def push(self, name: str, env: Env, ret: str | None) -> None:
        """Start procedure ``name``; its return value goes to the caller's local ``ret``.
        A call deeper than MAX_DEPTH running procedures is a runaway (E603)."""
        if len(self.frames) >= MAX_DEPTH:
            raise RuleError(f"procedures call each other more than {MAX_DEPTH} deep", "E603")
        self.frames.append(Frame(name, self.game.program.code[name].ops, 0, env, ret))

    def pop(self, value: Value = None) -> None:
        """Return from the running procedure with ``value`` (the game ends with the last)."""
        done = self.frames.pop()
        if not self.frames:
            self.end_game()
        elif done.ret is not None:
            self.frames[-1].env[done.ret] = value
        if self.event_log is not None and done.name == "$setup" and self.frames:  # the first phase starts
            self.event_log.append(("phase", self.frames[0].name))

    def enter_phase(self, name: str, announce: bool = True) -> None:
        """Leave every running procedure and start phase ``name`` (recording its event, when
        ``announce`` and events are recorded)."""
        self.frames = [Frame(name, self.game.program.code[name].ops, 0, {})]
        if announce and self.event_log is not None:
            self.event_log.append(("phase", name))

    def end_game(self) -> None:
        """Stop the game: nothing runs and nobody is to act any more."""
        self.terminal = True
        self.frames = []
        self.pending = None

    # ---- running ----
    def run(self, steps: int = 0, work: int = 0) -> None:
        """Run until a decision or the end. An error of the rules becomes RulesRuntimeError,
        any other failure InternalError, both located at the operation that failed (the run
        made again from a copy of the state before it, one operation at a time: precise.py).
        (``steps`` and ``work``: what this run has already done, when it goes on from where
        it stopped.)"""
        before = self.clone()
        try:
            self._run_until_decision(steps, work)
        except Exception as error:   # (run again from the state before, each operation counted one by one)
            self._taken_from(before)
            run_precisely(self, steps, work, error)

    def charge(self, work: int) -> None:
        """Count ``work`` items (of a comprehension, a board relation...) against ``max_steps``:
        between two decisions the items of work, like the steps, are at most ``max_steps``."""
        work += self.work
        self.work = work
        if work > self.game.max_steps:
            raise RuleError(f"the rules went through more than {self.game.max_steps} items of work"
                            " without reaching a decision", "E603")

    def step(self) -> None:
        """Count a round of a compiled loop, or a call of a compiled procedure: a step that
        the run loop does not see, counted against ``max_steps`` like its own."""
        self.rounds += 1
        if self.rounds > self.game.max_steps:
            raise runaway(self.game.max_steps)

    def _run_until_decision(self, steps: int = 0, work: int = 0, until_stop: bool = False, rounds: int = 0) -> int:
        """Run to the next decision or the end (``until_stop``: or up to the first operation
        that may stop for a decision or draw from the random generator, left to run); the
        steps done, counting ``steps``, ``work`` and ``rounds`` already done by this run."""
        limit = self.game.max_steps
        self.work, self.rounds = work, rounds
        if until_stop:
            code = self.game.program.code
            while self.pending is None and not self.terminal:
                fr = self.frames[-1]
                if fr.pc < len(fr.code) and (fr.pc in code[fr.name].stops or fr.pc in code[fr.name].draws):
                    break
                steps = run_one(self, fr, steps, limit)
            return steps
        while self.pending is None and not self.terminal:  # the hot loop: the innermost frame runs
            fr = self.frames[-1]
            run = fr.code.run
            steps = run(self, fr, steps, limit)  # its code's resumable function (Ops.run)
        if steps > limit:   # (the functions test the budget where they go back only: optimistic.py)
            raise runaway(limit)
        return steps

    def _as_rulelang_error(self, error: Exception) -> RulelangError:
        """What went wrong while running, located at the statement of a compiled procedure
        where it happened, else at the operation running now."""
        located = self.game.program.generated.locate(error)
        if located is not None:
            span, procedure, cause = located
            if isinstance(cause, Exception):
                return rulelang_error(cause, span, f" (in {procedure})")
        return rulelang_error(error, *self._location())

    def _location(self) -> tuple[Span | None, str]:
        """The span of the operation running now, and " (in PROCEDURE)" to add to a message;
        at the end of a procedure (returning: the step budget may run out there), the span of
        its last operation."""
        if not self.frames:
            return None, ""
        fr = self.frames[-1]
        spans = self.game.program.code[fr.name].spans
        return (spans[min(fr.pc, len(spans) - 1)] if spans else None), f" (in {fr.name})"

    def apply_action(self, action: Action | int, player: int | None = None) -> None:
        """Apply an Action or an action id for ``player``; IllegalActionError if not legal
        (the state unchanged). The run goes on to the next decision or the end: an error of
        the rules puts the state back as it was (``State._restore``), and the action is applied
        again one operation at a time (precise.py), which raises it located."""
        decision = self.pending
        # the usual call, for a player to act: the decision's first player itself (the int it
        # holds: never True, a float or another type equal to it), or an int among them; and an
        # Action, or an int id (hosts that play by ids: no Action needed)
        if decision is None or \
                not (player is decision.players[0] or (type(player) is int and player in decision.players)):
            applied_checked(self, action, player)   # (any other call: applied.py)
            return
        if type(action) is Action:
            action_id = action.id
        elif type(action) is int:
            action_id = action
        else:
            applied_checked(self, action, player)
            return
        binds = decision.binds
        if binds is None and (decision.per_player is not None or decision.goes is None):  # (a choice binds, and
            # has no options per player: nothing more tested) a pick of a simultaneous choice (a seat's) or a
            # chance outcome: on by its resume (applied.py)
            options, ids = decision.options_of(player)
            try:
                chosen = options[ids.index(action_id)]
            except ValueError:   # (_checked raises its error without this one's context)
                player, chosen, action_id = self._checked(action, player)  # raises: not legal
            went_on(self, decision, player, chosen, action_id)
            return
        try:   # a choice's or a menu's option, a seat's (never chance's): one scan of the ids (``at``:
            chosen = decision.options[at := decision.ids.index(action_id)]   # a menu goes on by it too)
        except ValueError:
            player, chosen, action_id = self._checked(action, player)  # raises: not legal
        self.pending = None
        if self.event_log is not None:
            self.event_log.append(action_event(self, player, action_id, chosen, False))
        self.action_history.append((player, action_id))  # (``decisions`` and ``since_origin`` count it)
        self.work = self.rounds = 0
        try:
            fr = self.frames[-1]
            if binds is not None:   # (a choice's local takes the value chosen, the run goes on after it)
                fr.env[binds] = chosen
                fr.pc = decision.then
            else:   # (a menu's option: the run goes on at its block)
                fr.pc = decision.goes[at]  # type: ignore[index]
            # then on to the next decision: this frame's code's function, read as an attribute and then
            # called (``fr.code.run(...)`` is a method call that CPython 3.11 cannot specialise on a slot)
            run = fr.code.run
            steps = run(self, fr, 0, limit := self.max_steps)
            while self.pending is None and not self.terminal:
                fr = self.frames[-1]
                run = fr.code.run
                steps = run(self, fr, steps, limit)
            if steps > limit:   # (the functions test the budget where they go back only: optimistic.py)
                raise runaway(limit)
        except Exception as error:   # the state put back, the action applied again one operation at a time
            self._restore()
            applied_precisely(self, player, action_id, error)

    def _restore(self) -> None:
        """Put the state back as it was before the failed action, by replaying from its origin
        (the replayed state's fields become this one's: nothing else holds them)."""
        self._taken_from(replayed(self, self.since_origin - 1))

    def _taken_from(self, other: State) -> None:
        """Every field of ``other`` becomes this state's (nothing else holds them)."""
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))

    def evaluate(self, fn: Expr, env: Env, span: Span | None = None) -> Value:
        """The value of an expression compiled by ``game.program.compile_expression``, with
        the locals ``env``; RulesRuntimeError (located at ``span``) if the rules fail."""
        return self._evaluate(fn, env, span)

    def _evaluate(self, fn: Expr, env: Env, span: Span | None = None) -> Value:
        """The value of a compiled expression, outside any running procedure."""
        self.work = 0
        try:
            return fn(self, dict(env))
        except Exception as error:
            raise rulelang_error(error, span, "") from cause_of(error)
