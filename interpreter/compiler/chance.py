"""Lowering of chance: 'roll', 'random' picks and 'shuffle'.

A chance event draws from the state's random generator, or, when chance is explicit, stops
the run loop with a decision of the chance player whose options are the distinct outcomes
and their probabilities (interchangeable copies of a component are one outcome). The
lowering of the other statements is lower.py's; players' choices are choices.py's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from rulelang import ast

from ..model import rng
from ..model.problems import unchecked
from ..model.program import Code, Env, Frame, made_decision
from ..model.serialize import zone_key
from ..model.values import CHANCE, Component, RuleError, Value, ZoneRef, kind_of
from ..state.events import chance_event
from ..state.stamps import shuffled_knowledge
from ..tables.builtins import as_list
from .choices import source_text
from .copies import copy_key
from .shuffled import SHAPE, named_zone

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..state.state import State
    from .lower import Action, Compiler

class ChanceLowering:
    """Lowers the chance events of the procedure that ``compiler`` is lowering."""

    def __init__(self, compiler: Compiler):
        self.compiler = compiler

    def event(self, code: Code, span: Span, var: str, outcomes_of: Callable[[State, Env], tuple[Value, ...]],
              asked: str) -> None:
        """A chance event binding ``var`` ('let x = roll d', 'let x = random list'): sampled
        from the state's RNG, or exposed."""
        compiler = self.compiler
        var = compiler.bind_let(var, span)
        action_ids = compiler.cat.action_ids

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.env[var] = value
            fr.pc += 1
            if st.event_log is not None:
                st.event_log.append(chance_event(st, asked, value))

        def asked_of(st: State, player: int) -> str:
            return asked

        def chance(st: State, fr: Frame) -> None:
            values = outcomes_of(st, fr.env)
            if not values:
                raise RuleError("a random pick from an empty list")
            if st.explicit_chance:
                options, probs = _distribution(st, values)
                if len(options) > 1:
                    st.pending = made_decision("chance", (CHANCE,), options, action_ids(options), resume,
                                               probs, prompt_of=asked_of, span=span)
                    return
                value = options[0]  # a single outcome is no chance node
            else:
                st.rng, i = rng.below(st.rng, len(values))
                value = values[i]
            resume(st, fr, value, CHANCE)
        code.stops.add(compiler.emit(code, chance, span))

    def roll(self, node: ast.Roll, code: Code) -> None:
        """'let x = roll DIE': one of the die's faces."""
        compiler = self.compiler
        if node.die not in compiler.cat.dice:
            raise unchecked(f"unknown die '{node.die}'", node.span)
        faces = compiler.cat.dice[node.die]
        self.event(code, node.span, node.name, lambda st, env: faces, f"roll {node.die}")

    def random_pick(self, node: ast.RandomPick, code: Code) -> None:
        """'let x = random LIST': one of the items of a list."""
        compiler = self.compiler
        source = compiler.expr(node.source)
        self.event(code, node.span, node.name, lambda st, env: as_list(st, source(st, env)),
                     f"random {node.name} in {source_text(node.source)}")

    def shuffle(self, node: ast.Shuffle, code: Code) -> None:
        """'shuffle ZONE' or 'shuffle LIST_VARIABLE': drawn from the random generator at
        once, or, with explicit chance, one chance decision for each place, from the last."""
        compiler = self.compiler
        target = compiler.expr(node.target)
        write: Action | None = None
        if compiler.assignable(node.target):
            write = compiler.assignment(node.target, "=", lambda st, env: env["$shuffled"])
        compiler.counter += 1
        key = f"$shuffle{compiler.counter}"
        code.shuffled[key] = target
        action_ids = compiler.cat.action_ids
        what = source_text(node.target)
        span, shuffled = node.span, f"shuffle {what}: the item at each place"

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            items: tuple[Value, ...] | list[Value]
            items, i = cast("tuple[tuple[Value, ...], int]", fr.env[key])
            j = _position(items, value)
            items = list(items)
            items[i], items[j] = items[j], items[i]
            fr.env[key] = (tuple(items), i - 1)

        def shuffled_of(st: State, player: int) -> str:
            return shuffled

        def shuffle(st: State, fr: Frame) -> None:
            env = fr.env
            items: tuple[Value, ...]
            if key not in env:
                value = target(st, env)
                if type(value) is ZoneRef and not st.explicit_chance:
                    shuffle_zone_in_place(st, value)
                    fr.pc += 1
                    return
                if isinstance(value, ZoneRef):
                    items = tuple(st.zones[value.slot])
                elif isinstance(value, tuple) and write is not None:
                    items = value
                else:
                    raise RuleError(f"can only shuffle a zone or a list variable, not {kind_of(value)}")
                env[key] = (items, len(items) - 1)
            items, i = cast("tuple[tuple[Value, ...], int]", env[key])
            if i > 0 and st.explicit_chance:
                # Equal items (a list [1, 1, 2]), and interchangeable copies of a component, are
                # one outcome with their summed probability.
                options, probs = _distribution(st, items[: i + 1])
                if len(options) > 1:
                    st.pending = made_decision("chance", (CHANCE,), options, action_ids(options), resume,
                                               probs, prompt_of=shuffled_of, span=span)
                    return
                i = 0  # the items left are interchangeable: their order is decided
            order = list(items)
            st.rng = rng.shuffle(st.rng, order, i)
            del env[key]
            value = target(st, env)
            if st.event_log is not None:
                st.event_log.append(("shuffle", zone_key(value) if isinstance(value, ZoneRef) else what))
            if isinstance(value, ZoneRef):
                st.zones[value.slot][:] = cast("list[Component]", order)  # the zone's own components
                shuffled_knowledge(st, value.slot)
            elif write is None:
                raise RuleError(f"can only shuffle a zone or a list variable, not {kind_of(value)}")
            else:
                env["$shuffled"] = tuple(order)
                write(st, env)
                del env["$shuffled"]
            fr.pc += 1
        at = compiler.emit(code, shuffle, node.span)
        code.stops.add(at)
        zone = named_zone(compiler.cat, node.target, compiler.scope)
        if zone is not None:   # (the resumable function shuffles it in place: shuffled.py)
            code.shapes[at] = (SHAPE, zone, key)


def shuffle_zone_in_place(st: State, zone: ZoneRef) -> None:
    """'shuffle ZONE' drawn from the random generator at once: the zone's own list shuffled in
    place, with the draws (and the events) of a shuffle of a copy put back."""
    components = st.zones[zone.slot]
    st.rng = rng.shuffle(st.rng, components, len(components) - 1)
    if st.event_log is not None:
        st.event_log.append(("shuffle", zone_key(zone)))
    shuffled_knowledge(st, zone.slot)


def _position(items: Sequence[Value], value: Value) -> int:
    """Where the outcome ``value`` (one of ``items`` itself) is among ``items``: found by
    identity, so that the copy picked, and a true apart from a 1, is the one moved."""
    for k, item in enumerate(items):
        if item is value:
            return k
    return items.index(value)


def _distribution(st: State, values: Sequence[Value]) -> tuple[tuple[Value, ...], tuple[float, ...]]:
    """The distinct outcomes (the first of each kind, in order) and the probability of each,
    for explicit chance. Values with the same outcome key (equal values, interchangeable
    copies of a component) are one outcome with their summed probability."""
    first: dict[object, Value] = {}
    counts: dict[object, int] = {}
    try:
        for v in values:
            key = _outcome_key(st, v)
            if key in counts:
                counts[key] += 1
            else:
                first[key], counts[key] = v, 1
    except TypeError:  # a map: it has no hash
        raise RuleError(f"a chance event cannot pick among values of kind {kind_of(v)}") from None
    total = len(values)
    return tuple(first.values()), tuple(n / total for n in counts.values())


_BOOL = object()  # tags a boolean's outcome key: true is not the number 1 there


def _outcome_key(st: State, value: Value) -> object:
    """What a chance outcome stands for: a value itself, a boolean apart from the numbers, and
    a component by what makes its copies interchangeable now (``copy_key``, copies.py)."""
    if isinstance(value, Component):
        return copy_key(st, value)
    if isinstance(value, bool):
        return _BOOL, value
    return value
