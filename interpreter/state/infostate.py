"""Information-set sampling: ``State.resample_from_infostate(player, seed)``.

A sample is a new state that ``player`` cannot tell apart from the true one (the same
observation, the same legal actions with the same labels) in which what he cannot see is
drawn again. The state tracks, for every component ``c``, in one integer
``component_knowledge[c]`` (cheap to keep up: a move is two more integer operations):

- in its low bits, one per player, the players who know where ``c`` lies. A new game
  starts with every bit set (the declared layout of the decks is public); a ``move`` adds
  the players who fully see the zone it enters (those who see the zone it leaves are among
  its bits already: a component's bits always hold its zone's seers); a ``shuffle`` of a
  zone resets its components' bits to the players who fully see that zone; a ``reveal``
  adds its audience. A state loaded from data has no such history (it is not saved): each
  component starts with the bits of its zone's seers, so only what the viewer sees now
  counts as known, and its unknown components are only reordered within their zones until
  a shuffle;
- above them, the shuffle that last put ``c`` in a random place (0: none tracked).
  Components of one type from one shuffle are interchangeable for a player who knows
  neither of them: the sampler permutes them among the places they occupy.

A sample swaps the unknown components of each such group uniformly among their places
(zone and position), relabels every reference to them (variables, the locals of running
procedures, the component ids in the other players' actions of the history; the viewer's own
actions are kept as he took them) by the same permutation, gives the state a fresh
random generator, rebuilds the decision awaited by running on, and checks that the
viewer's observation and legal actions are unchanged and the ruleset's invariants still
hold. A permutation that fails the check is drawn again; after a few failures the groups
are narrowed (same zone, then same zone slot), and at worst only future chance is new.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from rulelang.errors import RulelangError

from ..model import rng
from ..model.values import Component
from .events import Event, redacted
from .hidden import components_in, facts, unknown_components, widest_groups
from .precheck import Checked, Precheck, rebuilds_alone
from .relabel import Mapping, Relabelling
from .sameview import alike_to, asked, view_of
from .unmoved import blind_invariants, same_plain_tables, uniform_fields

if TYPE_CHECKING:

    from ..game import Game
    from ..model.program import Invariant
    from .state import State

GroupKey = Callable[["State", Component], tuple[Any, ...]]
"""What makes two unknown components interchangeable at one level of caution."""

__all__ = ["Fit", "Sampler", "canonical_state", "components_in", "resample"]

_MIX = 0xD1B54A32D192ED03  # odd constant that spreads the count of decisions over the seed's bits


# ---------------------------------------------------------------- the sampler

def resample(st: State, viewer: int, seed: int) -> State:
    """A state that ``viewer`` cannot tell apart from ``st``, its hidden part drawn again
    from ``seed`` (``st`` is unchanged). See the module's docstring."""
    fit = Fit(viewer, st, st)
    generator, fresh_rng = _generators(st, seed)
    fresh = _Fresh(fresh_rng, viewer, None if st.event_log is None else redacted(st, viewer))
    unknown = unknown_components(st, viewer)
    levels = ((_groups(st, unknown, key), tries) for key, tries in _LEVELS)   # each only if reached
    return _drawn(st, levels, generator, fresh, fit, Relabelling(st, viewer, unknown))


def _drawn(st: State, levels: Iterable[tuple[list[list[Component]], int]], generator: int, fresh: _Fresh,
           fits: Fit, relabelling: Relabelling) -> State:
    """The first permutation of the unknown components drawn from ``generator`` that ``fits``,
    trying each level of groups (widest first) its number of times; else ``st`` with the
    fresh generator and nothing moved. RulelangError if an invariant of the state a sample
    is checked against fails to compute."""
    for groups, tries in levels:
        for _ in range(tries if groups else 0):
            generator, mapping = _permutation(groups, generator)
            built = _built(st, mapping, fresh, relabelling)
            if built is not None and _fits(fits, *built):
                return _with_origin(built[0])
    built = _built(st, {}, fresh, relabelling)
    return _with_origin(built[0]) if built is not None else _with_rng(st, fresh)


class Fit:
    """Whether a sample may stand for a reference state: it breaks no invariant that the
    reference does not, and ``viewer`` sees ``view`` in it. The invariants are tried first,
    one by one up to the first newly broken, which is tried first the next time (the order is
    the game's, kept from one decision to the next): a permutation that does not fit mostly
    breaks an invariant, and the same one. The answer is the same whatever the order (each
    check is a function of the sample alone). The reference's invariants are computed only
    for those a sample breaks (``holds``: what is known of them); ``broken``: those the sample
    kept last breaks."""

    def __init__(self, viewer: int, seen: State, reference: State | None, holds: dict[str, bool] | None = None,
                 unmoved: dict[int, bool] | None = None):
        self.viewer, self.seen, self.reference = viewer, seen, reference
        self.holds = {} if holds is None else holds
        # By id: the invariants whose value a sample built from the reference keeps when
        # rebuilding its decision changed nothing (``_rebuilt``): the blind ones, and those
        # that read components by fields that each group's agree on (``uniform_invariants``).
        self.unmoved = unmoved
        self.broken: set[str] = set()
        self.unsure: set[str] = set()   # the labels of the blind invariants not computed on the sample
        self._view: tuple[object, ...] | None = None
        self._asked: tuple[object, ...] | None = None

    def __call__(self, sample: State, pure: bool = False, checked: Checked | None = None) -> bool:
        """Whether ``sample`` fits (``pure``: it was built from the reference, and rebuilding
        its decision changed nothing, ``_rebuilt``; ``checked``: the invariants computed on
        its permutation before it was built, ``Precheck.keeps``)."""
        return self.keeps_invariants(sample, pure, checked) and self.looks_the_same(sample)

    @property
    def view(self) -> tuple[object, ...]:
        """What the viewer sees of ``seen``: his observation and labelled options (made once)."""
        if self._view is None:
            self._view = _of_reference(view_of, self.seen, self.viewer)
        return self._view

    def looks_the_same(self, sample: State) -> bool:
        """Whether the viewer sees in the sample what he sees in ``seen`` (a view that fails to
        compute, a prompt say, is not the same): at once if every table the observation is
        made of is alike in both (``alike_to``), else by making both views."""
        if self._asked is None:
            self._asked = _of_reference(asked, self.seen, self.viewer)
        try:
            if asked(sample, self.viewer) == self._asked and alike_to(sample, self.seen, self.viewer):
                return True
            return view_of(sample, self.viewer) == self.view
        except RulelangError:
            return False

    def keeps_invariants(self, sample: State, pure: bool = False, checked: Checked | None = None) -> bool:
        """Whether the sample breaks no invariant but those the reference breaks (one that
        fails to compute breaks it); if so, ``broken`` is what it breaks. ``pure``: the sample
        was built from the reference and rebuilding its decision changed nothing, so that
        the invariants ``unmoved`` keep their value, and those ``checked`` computed on its
        permutation before it was built have it."""
        rules, blind, _ = _order(sample.game)
        known, broken = checked if pure and checked is not None else _NOTHING_CHECKED
        reference = self.reference
        if reference is None:
            blind = {}
        elif pure:
            blind = blind if self.unmoved is None else self.unmoved
        elif not same_plain_tables(sample, reference):
            blind = {}
        broken = set(broken)
        self.unsure = set()
        try:
            for k, rule in enumerate(rules):
                if blind.get(id(rule)):   # the reference's value: kept if the reference keeps it
                    self.unsure.add(rule.label)
                elif id(rule) not in known and not sample.evaluate(rule.condition, {}, rule.span):
                    if self.reference_holds(rule):
                        rules.insert(0, rules.pop(k))
                        return False
                    broken.add(rule.label)
        except RulelangError:
            return False
        self.broken = broken
        return True

    def reference_holds(self, rule: Invariant) -> bool:
        """Whether the reference keeps the invariants labelled as ``rule`` is, computed once
        (_ReferenceFailed if one fails to compute there)."""
        label = rule.label
        known = self.holds.get(label)
        if known is None:
            reference = self.reference
            assert reference is not None, "a reference that is not kept has every invariant known"
            try:
                known = all(reference.evaluate(r.condition, {}, r.span)
                            for r in reference.game.program.invariants if r.label == label)
            except RulelangError as error:
                raise _ReferenceFailed(error) from error
            self.holds[label] = known
        return known


_NOTHING_CHECKED: Checked = (set(), set())


def _fits(fits: Fit, sample: State, pure: bool, checked: Checked | None = None) -> bool:
    """``fits(sample, pure, checked)``; RulelangError if an invariant of the reference fails
    to compute."""
    try:
        return fits(sample, pure, checked)
    except _ReferenceFailed as failed:
        raise failed.error from failed.error.__cause__


class _ReferenceFailed(Exception):
    """An invariant of the reference state failed to compute: the sampler cannot tell what
    a sample may break (not a RulelangError, so that no check mistakes it for a sample's)."""

    def __init__(self, error: RulelangError):
        super().__init__(error)
        self.error = error


_Fields = dict[int, frozenset[str]]
_ORDERS: dict[int, tuple[tuple[Invariant, ...], list[Invariant], dict[int, bool], _Fields]] = {}
"""The order of each program's invariants, which are blind and the fields through which the
others read components (by the id of each), by the id of the program's tuple of them (kept
with it, so that the id is not another's), for the last few programs."""


def _order(game: Game) -> tuple[list[Invariant], dict[int, bool], _Fields]:
    """The order a game's invariants are tried in, the last one broken first (only how soon
    a sample that does not fit is found out depends on it); by the id of each, whether a
    permutation leaves its value unchanged (``unmoved.blind_invariants``); and, by the id of
    each other, the fields through which alone it reads what zones hold
    (``unmoved.uniform_fields``)."""
    invariants = game.program.invariants
    kept = _ORDERS.get(id(invariants))
    if kept is None or kept[0] is not invariants:
        if len(_ORDERS) >= 16:
            _ORDERS.clear()
        blind = dict(zip(map(id, invariants), blind_invariants(game.catalog), strict=True))
        fields = {id(rule): read for rule, read, unchanged in
                  zip(invariants, uniform_fields(game.catalog), blind.values(), strict=True)
                  if read is not None and not unchanged}
        kept = _ORDERS[id(invariants)] = (invariants, list(invariants), blind, fields)
    return kept[1], kept[2], kept[3]


def uniform_invariants(game: Game, groups: list[list[Component]]) -> dict[int, bool]:
    """By id, the invariants whose value a permutation within ``groups`` keeps, when nothing
    else changes: the blind ones, and those that read components only by fields that the
    components of each group agree on."""
    _, blind, fields = _order(game)
    unmoved = dict(blind)
    if fields:
        ids = [[c.id for c in group] for group in groups]
        uniform: dict[frozenset[str], bool] = {}
        for rule_id, read in fields.items():
            known = uniform.get(read)
            if known is None:
                profile = facts(game).profile(read)
                known = uniform[read] = all(len(set(map(profile.__getitem__, group))) == 1 for group in ids)
            unmoved[rule_id] = known
    return unmoved


# ---------------------------------------------------------------- one state for what a seat may know

def canonical_state(state: State, viewer: int) -> State:
    """A state that ``viewer`` cannot tell from ``state``, and the same one for every state he
    cannot tell from it: the components he does not know the place of are put back in a fixed
    order (by id, over the places their group occupies), with every reference relabelled, and
    the generator is reset (future chance is unknown to him). Searching from it, an agent's
    choices depend only on what its seat may see. The groups are those ``resample_from_infostate``
    permutes; an arrangement that the viewer could tell apart (or that breaks an invariant) is
    tried again with narrower groups, as the sampler does."""
    return _canonical(state, viewer)[0]


def _canonical(state: State, viewer: int) -> tuple[State, Fit | None]:
    """``canonical_state``, and the check it passed (the viewer's view of ``state``, the
    invariants ``state`` breaks), None if no arrangement passed it."""
    fit = Fit(viewer, state, state)
    events = None if state.event_log is None else redacted(state, viewer)
    fresh = _Fresh(rng.seed_state(0), viewer, events)
    unknown = unknown_components(state, viewer)
    relabelling = Relabelling(state, viewer, unknown)
    for key, _ in _LEVELS:
        mapping = _sorted_mapping(_groups(state, unknown, key), relabelling)
        built = _built(state, mapping, fresh, relabelling)
        if built is not None and _fits(fit, *built):
            return _without_seed(_with_origin(built[0])), fit
    built = _built(state, {}, fresh, relabelling)
    return _without_seed(_with_origin(built[0]) if built is not None else state.clone()), None


def _sorted_mapping(groups: list[list[Component]], relabelling: Relabelling) -> Mapping:
    """The permutation that puts each group's components, lowest id first, in its places
    taken in order (zone slot, then position in the zone)."""
    mapping: Mapping = {}
    where = relabelling.where
    for group in groups:
        places = sorted(group, key=lambda c: where[c.id])
        ordered = sorted(group, key=lambda c: c.id)
        mapping.update((old.id, new) for old, new in zip(places, ordered, strict=True) if old is not new)
    return mapping


def _without_seed(state: State) -> State:
    """``state`` with nothing left of the true game's generator (its seed, its state)."""
    state.seed, state.rng = 0, rng.seed_state(0)
    return state


class Sampler:
    """Samples of what one seat cannot see, for one decision: the canonical state
    (``canonical_state``) resampled as ``resample_from_infostate`` does, with what every sample
    shares (the viewer's view, the invariants, the groups of unknown components) computed
    once. Without unknown components, a sample is a copy with a new generator.

    The canonical state is the true one with the widest groups sorted; a sample of it, the
    canonical state with the same groups permuted again. So a sample is made from the true
    state at once, by both permutations composed (``sample`` of the canonical state is the
    same state, which ``tests/test_agents.py`` checks), and checked against the true state's
    view and invariants: neither the canonical state nor its check is made unless the widest
    groups do not give a sample (then the sampler goes on from the canonical state, with the
    same generator, as it went before)."""

    def __init__(self, state: State, viewer: int):
        self.state, self.viewer = state, viewer
        self.unknown = unknown_components(state, viewer)
        self.widest = widest_groups(state, self.unknown)
        self.events = None if state.event_log is None else redacted(state, viewer)
        self.relabelling = Relabelling(state, viewer, self.unknown)
        self.draws = _sorted_draws(self.widest, self.relabelling.where)
        self.fit = None if not self.widest else Fit(viewer, state, state,
                                                    unmoved=uniform_invariants(state.game, self.widest))
        self.precheck = _precheck(state, self.fit, self.widest, self.relabelling)
        self._narrower: _FromRoot | None = None
        self.hidden = bool(self.widest) or bool(self._from_root().levels)

    @property
    def root(self) -> State:
        """The canonical state: what every sample is drawn again from."""
        return self._from_root().root

    def _from_root(self) -> _FromRoot:
        """The canonical state, its check and its groups of every level, made once."""
        if self._narrower is None:
            self._narrower = _FromRoot(self.state, self.viewer)
        return self._narrower

    def sample(self, seed: int) -> State:
        """The state ``root.resample_from_infostate(viewer, seed)`` gives (the same for a
        seed), or, with nothing hidden to draw again, a copy with a generator from ``seed``."""
        if not self.hidden:
            copy = self.root.clone()
            copy.rng = rng.seed_state(seed)
            return copy
        generator, fresh_rng = _generators(self.state, seed)
        fresh = _Fresh(fresh_rng, self.viewer, self.events)
        if self.fit is not None:
            rules, precheck = _order(self.state.game)[0], self.precheck
            for _ in range(_LEVELS[0][1]):
                generator, mapping = _sorted_permutation(self.draws, generator)
                checked = None if precheck is None else _prechecked(precheck, mapping, rules, self.fit)
                if checked is None and precheck is not None:
                    continue   # (it breaks an invariant: no sample to build)
                built = _built(self.state, mapping, fresh, self.relabelling, 0)
                if built is not None and _fits(self.fit, *built, checked):
                    return _with_origin(built[0])
        narrower = self._from_root()
        return _drawn(narrower.root, narrower.levels[1:], generator, fresh, narrower.fit, narrower.relabelling)


def _precheck(state: State, fit: Fit | None, widest: list[list[Component]],
              relabelling: Relabelling) -> Precheck | None:
    """The check of the widest groups' permutations of ``state`` before their samples are
    built (``precheck.py``): the invariants that read what zones hold by fields that the
    components of a group do not all agree on, where rebuilding the decision awaited can
    change nothing; None if there are none, or it can."""
    if fit is None or fit.unmoved is None or not rebuilds_alone(state):
        return None
    unmoved = fit.unmoved
    ids = {rule_id for rule_id in _order(state.game)[2] if not unmoved.get(rule_id)}
    return Precheck(state, ids, [c for group in widest for c in group], relabelling.where) if ids else None


def _prechecked(precheck: Precheck, mapping: Mapping, rules: list[Invariant], fit: Fit) -> Checked | None:
    """``precheck.keeps(mapping, ...)`` against ``fit``'s reference; RulelangError if an
    invariant of the reference fails to compute."""
    try:
        return precheck.keeps(mapping, rules, fit.reference_holds)
    except _ReferenceFailed as failed:
        raise failed.error from failed.error.__cause__


class _FromRoot:
    """The canonical state of ``state`` for ``viewer``, the check its samples must pass, and
    the groups of its unknown components at every level (empty if it has none)."""

    def __init__(self, state: State, viewer: int):
        root, fit = _canonical(state, viewer)
        self.root = root
        if fit is None:
            self.fit = Fit(viewer, root, root)
        else:   # the root fits: the viewer sees the same in it, and it was checked against every invariant
            holds = {rule.label: rule.label not in fit.broken for rule in root.game.program.invariants
                     if rule.label not in fit.unsure}   # (but the blind ones, which the root holds as the original)
            self.fit = Fit(viewer, fit.seen, root, holds)
        unknown = unknown_components(root, viewer)
        levels = [(_groups(root, unknown, key), tries) for key, tries in _LEVELS]
        self.levels = levels if any(groups for groups, _ in levels) else []
        self.relabelling = Relabelling(root, viewer, unknown)


Draws = list[tuple[list[Component], list[int]]]
"""Each group, and for each of its components ``c``, where in the group lies the component the
sorting puts in the place of ``c`` (``_sorted_draws``)."""


def _sorted_draws(groups: list[list[Component]], where: dict[int, tuple[int, int]]) -> Draws:
    """What ``_sorted_permutation`` draws from: each group (its components by id, as
    ``unknown_components`` gives them), with where the sorting (``_sorted_mapping``: the
    lowest id in the first place, by zone slot then position) takes each component from: the
    component at the place ranked ``j`` gets the ``j``-th of the group."""
    draws: Draws = []
    for group in groups:
        ranked = sorted(range(len(group)), key=lambda k: where[group[k].id])
        sorted_from = [0] * len(group)
        for j, k in enumerate(ranked):
            sorted_from[k] = j
        draws.append((group, sorted_from))
    return draws


def _sorted_permutation(draws: Draws, generator: int) -> tuple[int, Mapping]:
    """``_permutation`` of the groups of ``draws`` after their sorting: the component that
    takes the place of each after both (the sorting puts ``d`` where ``c`` was, then the
    permutation puts ``e`` where ``d`` was: ``e`` takes the place of ``c``); and the
    generator's new state."""
    mapping: Mapping = {}
    for group, sorted_from in draws:
        order = list(group)
        generator = rng.shuffle(generator, order, len(order) - 1)
        for c, k in zip(group, sorted_from, strict=True):
            new = order[k]
            if new is not c:
                mapping[c.id] = new
    return generator, mapping


def _of_reference(made: Callable[[State, int], tuple[object, ...]], st: State, viewer: int) -> tuple[object, ...]:
    """``made(st, viewer)`` of a reference state (_ReferenceFailed if it fails to compute)."""
    try:
        return made(st, viewer)
    except RulelangError as error:
        raise _ReferenceFailed(error) from error


def _generators(st: State, seed: int) -> tuple[int, int]:
    """(the generator that draws the permutations, the sample's own generator state): both
    from ``seed`` and the count of decisions made, so one seed gives other samples at other
    points of a game."""
    base = rng.seed_state(seed ^ (st.decisions * _MIX))
    base, permutations = rng.next_u64(base)
    _, fresh = rng.next_u64(base)
    return rng.seed_state(permutations), fresh


# ---------------------------------------------------------------- groups and permutations

def _by_shuffle(st: State, c: Component) -> tuple[Any, ...]:
    """Level 0: the same type from the same shuffle. Without a tracked shuffle (a state
    loaded from data, whose history is unknown) only the order within each zone."""
    shuffle = _shuffle_of(st, c)
    return (c.type, shuffle) if shuffle else _by_slot(st, c)


def _by_zone(st: State, c: Component) -> tuple[Any, ...]:
    """Level 1: and in the same kind of zone (a hand with hands, a pile with piles)."""
    return c.type, _shuffle_of(st, c), st.game.catalog.zone_refs[st.component_zone[c.id]].name


def _by_slot(st: State, c: Component) -> tuple[Any, ...]:
    """Level 2: and in the same zone (only the order within each zone is drawn again)."""
    return c.type, _shuffle_of(st, c), st.component_zone[c.id]


def _shuffle_of(st: State, c: Component) -> int:
    """The shuffle that last put ``c`` in a random place (0: none tracked)."""
    return st.component_knowledge[c.id] >> st.game.num_players


_LEVELS: tuple[tuple[GroupKey, int], ...] = ((_by_shuffle, 8), (_by_zone, 4), (_by_slot, 2))
"""The ways to group unknown components, most to least random, with how many permutations
each may draw before the next, more cautious, is tried."""


def _groups(st: State, unknown: list[Component], key: GroupKey) -> list[list[Component]]:
    """The groups of interchangeable unknown components (only those of two or more)."""
    groups: dict[tuple[Any, ...], list[Component]] = {}
    for c in unknown:
        groups.setdefault(key(st, c), []).append(c)
    return [group for group in groups.values() if len(group) > 1]


def _permutation(groups: list[list[Component]], generator: int) -> tuple[int, Mapping]:
    """A uniform permutation within each group (Fisher-Yates): the component that takes the
    place of each; and the generator's new state."""
    mapping: Mapping = {}
    for group in groups:
        order = list(group)
        generator = rng.shuffle(generator, order, len(order) - 1)
        mapping.update((c.id, d) for c, d in zip(group, order, strict=True) if c is not d)
    return generator, mapping


# ---------------------------------------------------------------- building a sample

class _Fresh(NamedTuple):
    """What every sample of one call gets: its generator state, and the viewer's own record
    of the past (his private log lines; the event log redacted for him, if one is kept)."""

    rng: int
    viewer: int
    events: list[Event] | None


def _built(st: State, mapping: Mapping, fresh: _Fresh, relabelling: Relabelling,
           seed: int | None = None) -> tuple[State, bool] | None:
    """A copy of ``st`` with the components of ``mapping`` swapped into each other's places
    and every reference relabelled (``relabelling``, made for ``st``), the viewer's record of
    the past only, a fresh generator (and the seed ``seed``, if given), and the decision
    awaited rebuilt by running on; and whether that run changed nothing but the decision
    awaited (``_rebuilt``). None if running on fails, or if the permutation changes what a
    local of a running procedure was derived from (``DerivedLocals``). (Its origin is made
    by ``_with_origin`` once it is kept.)"""
    sample = _copy(st, fresh)
    if seed is not None:
        sample.seed = seed
    if mapping:
        relabelling.apply(sample, mapping)
        if not relabelling.derived.kept_in(sample):
            return None
        if (apart := st.game.program.apart) is not None:   # (a copy swapped where no rule brings one?)
            apart.check(sample.zones)
    pure = _rebuilt(sample)
    return None if pure is None else (sample, pure)


def _rebuilt(sample: State) -> bool | None:
    """Rebuild the decision ``sample`` awaits by running on (as ``State.run``, to which any
    failure is a RulelangError): None if that fails; else whether the run ran one operation
    only, the one that stopped there before, and stopped there again (the operations that
    stop for a decision change nothing else when they do), or the game is over."""
    if sample.terminal:
        return True
    frames = sample.frames
    depth, pc = len(frames), frames[-1].pc if frames else -1
    sample.pending = None
    try:
        steps = sample._run_until_decision()
    except Exception:
        return None
    frames = sample.frames
    return (steps == 1 and sample.pending is not None and not sample.terminal and len(frames) == depth
            and frames[-1].pc == pc)


def _with_rng(st: State, fresh: _Fresh) -> State:
    """The last resort: a copy where only future chance is new."""
    return _with_origin(_copy(st, fresh))


def _copy(st: State, fresh: _Fresh) -> State:
    """A copy of ``st`` with the viewer's record of the past only (his private log lines,
    the event log redacted for him) and a fresh generator."""
    sample = st.clone()
    sample.rng = fresh.rng
    sample.private_lines = [line for line in sample.private_lines if fresh.viewer in line[1]]   # (not built)
    sample.private_built = 0   # the lines kept are not those counted as built
    if fresh.events is not None:
        sample.event_log = fresh.events[:]
    return sample


def _with_origin(sample: State) -> State:
    """``sample``, which a failed action puts back by replaying from here, not from the start
    (its history is the true game's, relabelled, and does not replay to it)."""
    sample.origin = sample.clone()
    sample.since_origin = 0
    return sample
