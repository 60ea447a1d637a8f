"""A read position as saved-state data: the draft (what the lines of a position say, and
where), the state it describes, and the problems found on the way.

``DraftBuilder`` turns the draft that position_read.py reads into the saved-state JSON data
and hands it to ``state_from_json``, so every check of saved states applies; what the text
leaves out takes its default (the state before setup, every variable at its declared
initial value). Problems that only a text has (a component in two zones or in none, tokens
that do not add up, a "to act" line the rules do not agree with) are reported here, and a
problem the saved-state checks find is located where the text says it.
"""
from __future__ import annotations

import copy
import re
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.check.zone_types import wrong_zone
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulelangError, StateDataError

from ..model import rng
from ..model.serialize import FORMAT, encode_value, zone_key
from .deserialize import state_from_json
from .position_write import actor_name, position_names, quoted, zone_name
from .state import State

if TYPE_CHECKING:
    from ..game import Game
    from .position_tokens import Token

Json = Any   # JSON data as ``State.to_json`` writes it


# ================================================================ the draft

@dataclass(frozen=True)
class ComponentRef:
    """A component named in a zone: by label (``copy`` None: the next copy) or exactly."""

    type: str
    label: str
    copy: int | None
    token: Token
    line: int


@dataclass(frozen=True)
class Others:
    """``others`` in a zone's list: every component not placed elsewhere."""

    token: Token
    line: int


@dataclass
class Draft:
    """What the lines of a position say, each with where it was said (filled in as they are read)."""

    title: tuple[str, Span] | None = None
    players: tuple[int, Span] | None = None
    seed: int = 0
    rng: int | None = None
    explicit: bool = False
    over: Span | None = None
    phase: tuple[str, Span] | None = None
    to_act: tuple[list[int], Span] | None = None
    values: dict[str, tuple[Json, Span]] = field(default_factory=dict)     # JSON path -> value
    tokens: dict[tuple[str, int], tuple[int, Span]] = field(default_factory=dict)  # (supply, holder) -> count
    bank: dict[str, tuple[int, Span]] = field(default_factory=dict)
    zones: dict[int, tuple[list[ComponentRef | Others], Span]] = field(default_factory=dict)
    frames: list[tuple[dict[str, Json], Span]] = field(default_factory=list)
    spans: dict[str, Span] = field(default_factory=dict)    # JSON path -> where the text says it
    given: set[str] = field(default_factory=set)    # the words of the lines said at most once
    first: Span | None = None    # the first line that says something
    at_start: Span | None = None    # 'others at start': where the components not placed are


# ================================================================ problems

class Reporter:
    """What reading one position shares: the game, its names, and the problems found so far,
    each an E606 diagnostic located in the text at ``path``."""

    def __init__(self, game: Game, path: str, problems: list[Diagnostic]):
        self.game, self.path, self.problems = game, path, problems
        self.catalog = game.catalog
        self.names = position_names(game)

    def span(self, token: Token, line: int) -> Span:
        """Where ``token`` is, on ``line``."""
        return Span(self.path, line, token.column, line, token.column + max(1, len(token.text)))

    def report(self, span: Span | None, message: str, hint: str | None = None) -> None:
        """A problem at ``span`` (the start of the text if None)."""
        self.problems.append(Diagnostic("E606", message, span or Span.point(self.path, 1, 1), hint=hint))

    def exact_id(self, ref: ComponentRef) -> int:
        """The id a component reference names outside the zones: the copy given, or the first."""
        return self.names.copies[(ref.type, ref.label)][(ref.copy or 1) - 1]


_BLANK: weakref.WeakKeyDictionary[Game, dict[str, Json]] = weakref.WeakKeyDictionary()


def blank_data(game: Game) -> dict[str, Json]:
    """The saved-state data that a position's defaults come from: ``game``'s state before
    setup, every variable at its declared initial value (computed once per game; the cache
    holds data only, so it keeps no game alive). A copy, to fill in."""
    data = _BLANK.get(game)
    if data is None:
        blank = State(game, 0, False)
        blank.set_initial_values()
        data = _BLANK[game] = blank.to_json()
    return copy.deepcopy(data)


# ================================================================ the draft as a state

class DraftBuilder(Reporter):
    """Turns the draft of a position into saved-state data, then into the state it describes."""

    def data(self, draft: Draft) -> dict[str, Json] | None:
        """The saved-state data the draft describes (None, with problems reported, if it
        cannot be built): what the position leaves out takes its default."""
        data = blank_data(self.game)
        self.header(draft, data)
        for path, (value, span) in draft.values.items():
            _set(data, path, value)
            draft.spans[path] = span
        data["supplies"] = self.supplies(draft)
        data["zones"] = self.zones(draft)
        data["frames"] = self.program(draft)
        return None if self.problems else data

    def header(self, draft: Draft, data: dict[str, Json]) -> None:
        """The header's facts in ``data`` (the players and title checked against the game), and no history."""
        if draft.players is not None and draft.players[0] != self.game.num_players:
            self.report(draft.players[1], f"this game is played by {self.game.num_players} players, "
                                          f"not {draft.players[0]}")
        if draft.title is not None and draft.title[0] != (self.game.title or ""):
            self.report(draft.title[1], f"this game is {quoted(self.game.title or '')}, "
                                        f"not {quoted(draft.title[0])}")
        data.update(format=FORMAT, seed=encode_value(draft.seed), explicit_chance=draft.explicit,
                    rng=rng.seed_state(draft.seed) if draft.rng is None else draft.rng,
                    terminal=draft.over is not None, decisions=0, history=[], log=[], private_log=[])
        if "events" in data:   # recorded events are history too: a position starts with none
            data["events"] = []

    def supplies(self, draft: Draft) -> dict[str, list[int]]:
        """Each supply's tokens by holder: as given, the bank making up the rest unless given."""
        return {name: self._supply(draft, name, total) for name, total in self.catalog.supplies.items()}

    def _supply(self, draft: Draft, name: str, total: int) -> list[int]:
        counts = [0] * (self.catalog.holder_base + len(self.catalog.components))
        first: Span | None = None
        for (supply, holder), (count, span) in draft.tokens.items():
            if supply == name:
                counts[holder] = count
                first = first or span
        if first is not None:
            draft.spans[f"$.supplies.{name}"] = first
        counts[0] = self._bank(draft, name, total, sum(counts), first)
        return counts

    def _bank(self, draft: Draft, name: str, total: int, held: int, first: Span | None) -> int:
        """The tokens of supply ``name`` in the bank: as given, which must make the total, or the rest."""
        if name in draft.bank:
            bank, span = draft.bank[name]
            if bank + held != total:
                hint = f"leave the bank out and it holds the rest ({total - held})" if held <= total else None
                self.report(span, f"the tokens of supply {name} add up to {bank + held}, not its total {total}", hint)
            return bank
        if held > total:
            self.report(first, f"players and components hold {held} tokens of supply {name}, "
                               f"more than its total {total}")
        return max(total - held, 0)

    def zones(self, draft: Draft) -> dict[str, list[int]]:
        """Each zone's component ids, bottom first: every component placed exactly once."""
        placed: dict[int, tuple[str, Span]] = {}
        items: dict[int, list[int | None]] = {}
        exact = self._exact_refs(draft, placed, items)
        self._plain_refs(draft, placed, items, exact)
        self._others(draft, placed, items)
        self._at_start(draft, placed, items)
        self._unplaced(draft, placed)
        refs = self.catalog.zone_refs
        zones: dict[str, list[int]] = {zone_key(r): [] for r in refs}
        for slot, ids in items.items():
            zones[zone_key(refs[slot])] = [i for i in ids if i is not None]
        return zones

    def _exact_refs(self, draft: Draft, placed: dict[int, tuple[str, Span]],
                    items: dict[int, list[int | None]]) -> set[int]:
        """Place the components named with ``@N``; the plain ones get a slot (None) for now."""
        exact = set()
        for slot, (refs, _) in draft.zones.items():
            items[slot] = []
            for ref in refs:
                if isinstance(ref, ComponentRef) and ref.copy is not None:
                    cid = self.exact_id(ref)
                    self._place(cid, slot, ref, placed)
                    exact.add(cid)
                    items[slot].append(cid)
                else:
                    items[slot].append(None)
        return exact

    def _plain_refs(self, draft: Draft, placed: dict[int, tuple[str, Span]], items: dict[int, list[int | None]],
                    exact: set[int]) -> None:
        """Give the components named by label alone the copies left, in order."""
        left = {key: [i for i in ids if i not in exact] for key, ids in self.names.copies.items()}
        for slot, (refs, _) in draft.zones.items():
            for n, ref in enumerate(refs):
                if not isinstance(ref, ComponentRef) or ref.copy is not None:
                    continue
                free = left[(ref.type, ref.label)]
                if not free:
                    self._twice(ref, self.names.copies[(ref.type, ref.label)][-1], placed)
                    continue
                cid = free.pop(0)
                self._place(cid, slot, ref, placed)
                items[slot][n] = cid

    def _others(self, draft: Draft, placed: dict[int, tuple[str, Span]], items: dict[int, list[int | None]]) -> None:
        """``others``: every component not placed elsewhere, in id order."""
        others = [(slot, n, ref) for slot, (refs, _) in draft.zones.items() for n, ref in enumerate(refs)
                  if isinstance(ref, Others)]
        for _, _, ref in others[1:]:
            self.report(self.span(ref.token, ref.line), "'others' is given twice: in one zone's list at most")
        if not others:
            return
        slot, n, ref = others[0]
        rest = [c.id for c in self.catalog.components if c.id not in placed]
        holds = self.catalog.zone_holds[slot]
        other = next((c for c in rest if self.catalog.components[c].type != holds), None) if holds else None
        if holds and other is not None:   # (a zone of one component type takes no other)
            got = self.catalog.components[other].type
            self.report(self.span(ref.token, ref.line), "'others' puts every component not placed elsewhere "
                        f"here: {wrong_zone(zone_name(self.catalog.zone_refs[slot]), holds, got)}",
                        hint="name the others' zones, or write 'others at start'")
        items[slot][n:n + 1] = rest   # only one 'others' is expanded: the indices before it hold
        where = (zone_name(self.catalog.zone_refs[slot]), self.span(ref.token, ref.line))
        placed.update((cid, where) for cid in rest)

    def _at_start(self, draft: Draft, placed: dict[int, tuple[str, Span]],
                  items: dict[int, list[int | None]]) -> None:
        """``others at start``: every component not placed elsewhere in the zone its deck
        starts it in, in id order, below the components a zone line names there."""
        if draft.at_start is None:
            return
        below: dict[int, list[int | None]] = {}
        for c in self.catalog.components:
            if c.id not in placed:
                slot = self.catalog.initial_zone[c.id]
                below.setdefault(slot, []).append(c.id)
                placed[c.id] = (zone_name(self.catalog.zone_refs[slot]), draft.at_start)
        for slot, ids in below.items():
            items[slot] = ids + items.get(slot, [])

    def _place(self, cid: int, slot: int, ref: ComponentRef, placed: dict[int, tuple[str, Span]]) -> None:
        """Note that component ``cid`` is in the zone of ``slot`` (a problem if it is placed already)."""
        if cid in placed:
            self._twice(ref, cid, placed)
            return
        placed[cid] = (zone_name(self.catalog.zone_refs[slot]), self.span(ref.token, ref.line))

    def _twice(self, ref: ComponentRef, cid: int, placed: dict[int, tuple[str, Span]]) -> None:
        """Report ``ref`` placing a component placed already (or one copy more than the game has)."""
        where, span = placed.get(cid, ("?", None))
        copies = len(self.names.copies[(ref.type, ref.label)])
        name = f"{ref.type} {quoted(ref.label)}" + (f"@{ref.copy}" if ref.copy else "")
        if copies > 1 and ref.copy is None:
            message = f"{name} is placed more often than the {copies} the game has"
        else:
            message = f"{name} is in two zones: {where} (at {span}) and here"
        self.report(self.span(ref.token, ref.line), message)

    def _unplaced(self, draft: Draft, placed: dict[int, tuple[str, Span]]) -> None:
        """Report the components that no zone line places."""
        missing = [c for c in self.catalog.components if c.id not in placed]
        if missing:
            shown = ", ".join(f"{c.type} {quoted(c.label)}" for c in missing[:5]) + (", ..." if len(missing) > 5
                                                                                     else "")
            self.report(draft.first, f"{len(missing)} component{'s are' if len(missing) > 1 else ' is'} in no zone: "
                                     f"{shown}", hint="place each in a zone, end one zone's list with 'others', "
                                                      "or say 'others at start'")

    def program(self, draft: Draft) -> list[Json]:
        """The frames given, or the phase started from its beginning; none once over."""
        frames = [f for f, _ in draft.frames]
        if draft.over is not None:
            if frames or draft.phase:
                self.report(draft.over, "a game that is over runs no phase: leave out 'phase' and 'frame' lines")
            return []
        if draft.phase is None and not frames:
            self.report(draft.first, "the position says neither which phase runs ('phase NAME') nor that the game "
                                     "is 'over'")
            return []
        if draft.phase is None:
            return frames
        if not frames:
            draft.spans["$.frames"] = draft.phase[1]
            return [{"procedure": draft.phase[0], "pc": 0, "env": {}, "returns_to": None}]
        if frames[0]["procedure"] != draft.phase[0]:
            self.report(draft.phase[1], f"the first frame runs {frames[0]['procedure']}, not phase {draft.phase[0]}")
        return frames

    def load(self, data: dict[str, Json], draft: Draft) -> State | None:
        """The state of ``data``, checked by ``state_from_json``, then against the 'to act'
        line; None (the problem reported) if it does not fit."""
        try:
            st = state_from_json(self.game, data)
        except StateDataError as error:
            self.located(error, draft)
            return None
        if draft.to_act is not None and sorted(draft.to_act[0]) != sorted(st.current_players()):
            asked = ", ".join(actor_name(p) for p in st.current_players()) or "nobody"
            said = ", ".join(actor_name(p) for p in draft.to_act[0]) or "nobody"
            self.report(draft.to_act[1], f"the rules ask {asked} to act here, not {said}")
            return None
        return st

    def located(self, error: RulelangError, draft: Draft) -> None:
        """A problem that the saved-state checks found, placed where the text says it."""
        prefix = "state data does not fit this game: "
        for d in error.diagnostics:
            message = d.message[len(prefix):] if d.message.startswith(prefix) else d.message
            message = message.replace("resuming it fails", "running the rules from here fails", 1)
            path = getattr(error, "path", None)
            span = _lookup(draft.spans, path) if path else None
            if span is not None:
                message = message.split(": ", 1)[1] if message.startswith("at $") else message
            hint = f"declared at {d.span}" if d.span is not None else None
            fallback = draft.phase[1] if draft.phase else draft.first
            self.report(span or fallback, message, hint)


def _lookup(spans: dict[str, Span], path: str) -> Span | None:
    """The span of the longest JSON path in ``spans`` that ``path`` starts with."""
    while path:
        if path in spans:
            return spans[path]
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= 0:
            return None
        path = path[:cut]
    return None


_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _set(data: dict[str, Json], path: str, value: Json) -> None:
    """Set ``data`` at a JSON path such as ``$.player_vars.at[1]``."""
    parts: list[str | int] = [m.group(1) if m.group(1) is not None else int(m.group(2))
                              for m in _PATH_PART.finditer(path)]
    target: Any = data
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = value
