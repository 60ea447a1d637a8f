"""The narrated log: the recorded events (events.py) as sentences, for one seat.

Each event a seat may see (``events.render_event``: the visibility rules of observations)
becomes one line, worded from the declarations' names (an underscore read as a space) and
the components' labels; what the seat may not see is worded without it ("player 2 takes a
card from draw pile to their hand"). An author's ``log`` line is its own text. Headings: a
phase that starts (level 1), the line of a ``log heading`` (level 2: a round), and a turn
(level 3): where a ``log turn`` says it begins, or, in a ruleset that writes none, at the
first choice of a player after another's. The events of a ``quiet`` block (and
of the block of a ``log ... instead``, whose line follows it) are left out.

A line is JSON data: ``{"seq": n, "text": "..."}``, with ``"heading": 1``, ``2`` or ``3``
for a heading (``seq``: the number of the event it tells; a turn's heading shares it with
the choice that follows).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..model.serialize import JsonValue, zone_slots
from ..model.values import display
from .events import HIDDEN, Event, Viewer, render_event
from .narrate_moves import MoveGroup, RollGroup, ToldMove, ToldRoll, one
from .turn_marks import declares_turns

if TYPE_CHECKING:
    from ..model.values import ZoneRef
    from .state import State

Line = dict[str, JsonValue]
"""One line of the narrated log."""


def narrated(st: State, viewer: Viewer, since: int = 0) -> list[Line]:
    """The lines of the narrated log that ``viewer`` may see (None: everything), for the
    events from number ``since`` on: those before it are followed, not worded (the quiet
    blocks, headings and turns open before it count), so a poll costs what it asks for. The
    lines are the whole log's from ``since`` on, but that a first move (or roll) that the
    whole log joins to a line begun before ``since`` starts a line of its own."""
    log = st.event_log or []
    teller = _Teller(st, viewer)
    start = min(max(since, 0), len(log))
    for event in log[:start]:   # only what the wording of later events reads
        teller.pass_over(event)
    lines: list[Line] = []
    group: MoveGroup | RollGroup | None = None   # the moves or rolls the last line tells
    for seq in range(start, len(log)):
        told = teller.tell(log[seq])
        if not told:
            continue
        move, roll = teller.last_move, teller.last_roll
        if move is not None and isinstance(group, MoveGroup) and group.joins(move):
            group.add(move)
            things = group.words(teller.noun_in(move.source))
            lines[-1]["text"] = move_sentence(teller, move.source, move.target, things, many=True)
            continue
        if roll is not None and isinstance(group, RollGroup) and group.joins(roll):
            group.add(roll)
            lines[-1]["text"] = group.sentence()
            continue
        group = MoveGroup(move) if move is not None else RollGroup(roll) if roll is not None else None
        lines += [{"seq": seq, **line} for line in told]
    return lines


class _Teller:
    """Words the events of one state for one viewer, in order (it keeps the quiet depth
    and the player of the last choice)."""

    def __init__(self, st: State, viewer: Viewer):
        self.st, self.viewer, self.catalog = st, viewer, st.game.catalog
        self.quiet = 0
        self.chooser: int | None = None
        self.guess_turns = not declares_turns(self.catalog)   # no 'log turn': a turn is guessed
        self.heading = False   # the next log line is a heading
        self.last_move: ToldMove | None = None   # the move the last event told, if it was one
        self.last_roll: ToldRoll | None = None   # the roll the last event told, if it was one
        self.slots: dict[str, int] | None = None   # zone slots by key, once a key is read

    def tell(self, event: Event) -> list[dict[str, JsonValue]]:
        """The lines of ``event`` (none when it is quiet or unseen)."""
        kind = event[0]
        self.last_move = self.last_roll = None
        if kind == "narrate":
            self._mark(event[1])
            return []
        if self.quiet:
            return []
        heading = kind == "log" and self.heading   # a heading's line, seen or not, ends it
        self.heading = self.heading and not heading
        view = render_event(self.st, event, self.viewer)
        if view is None:
            return []
        if kind == "phase":
            self.chooser = None
            return [{"text": f"phase {_name(str(event[1]))}", "heading": 1}]
        if kind == "action":
            return self._action(event, view)
        if kind == "turn":
            return [{"text": f"{self.player(int(event[1]))}'s turn", "heading": 3}]
        if heading:
            self.chooser = None
            return [{"text": str(view["text"]), "heading": 2}]
        sentence = _SENTENCES[kind](self, event, view)
        return [] if sentence is None else [{"text": sentence}]

    def pass_over(self, event: Event) -> None:
        """Follow ``event`` as ``tell`` does, without wording it: only what the wording of
        later events reads (the quiet depth, a heading to come, the player of the last choice)."""
        kind = event[0]
        if kind == "narrate":
            self._mark(event[1])
        elif self.quiet:
            return
        elif kind == "log" and self.heading:
            self.heading = False
            if render_event(self.st, event, self.viewer) is not None:
                self.chooser = None
        elif kind == "phase":
            self.chooser = None
        elif kind == "action" and self.guess_turns and event[3] != HIDDEN:
            self.chooser = event[1]

    def _mark(self, mark: str) -> None:
        if mark == "quiet":
            self.quiet += 1
        elif mark == "loud":
            self.quiet = max(self.quiet - 1, 0)
        elif not self.quiet:
            self.heading = True

    def _action(self, event: Event, view: dict[str, JsonValue]) -> list[dict[str, JsonValue]]:
        player, secret = event[1], event[3]
        who = self.player(player)
        lines: list[dict[str, JsonValue]] = []
        if self.guess_turns and secret != HIDDEN and player != self.chooser:
            self.chooser = player
            lines.append({"text": f"{who}'s turn", "heading": 3})
        if "label" in view:
            lines.append({"text": f"{who} chooses {view['label']}"})
        elif secret == HIDDEN:
            lines.append({"text": f"{who} chooses in secret"})
        elif secret >= 0:
            where = self.zone(secret) if self.ref(secret).owner != self.catalog.players[player] \
                else f"their {_name(self.ref(secret).name)}"
            lines.append({"text": f"{who} chooses {self.kind_in(secret)} from {where}"})
        else:
            lines.append({"text": f"{who} chooses"})
        return lines

    # -- words --------------------------------------------------------------

    def player(self, index: int) -> str:
        return str(self.catalog.players[index])

    def ref(self, slot: int) -> ZoneRef:
        ref: ZoneRef = self.catalog.zone_refs[slot]
        return ref

    def zone(self, slot: int) -> str:
        """A zone as a sentence names it: "draw pile", "player 2's hand"."""
        ref = self.ref(slot)
        return _name(ref.name) if ref.owner is None else f"{ref.owner}'s {_name(ref.name)}"

    def zone_of_key(self, key: str) -> str:
        """A zone given by its key (``serialize.zone_key``: "hand/1") as ``zone`` names it;
        a key that names no zone (a shuffled list) as it is."""
        if self.slots is None:
            self.slots = zone_slots(self.catalog.zone_refs)
        slot = self.slots.get(key)
        return key if slot is None else self.zone(slot)

    def kind_in(self, slot: int) -> str:
        """One of what a zone holds ("a card", "an action card"), for a component not shown."""
        return one(self.noun_in(slot))

    def noun_in(self, slot: int) -> str:
        """What a zone holds, as a noun ("card", "action card")."""
        declared = self.catalog.zones[self.ref(slot).name].type
        return "component" if declared is None else _name(declared.name)

    def thing(self, view: dict[str, JsonValue], slot: int) -> str:
        """A moved component: its label when shown, else "a card"."""
        shown = view.get("component")
        if isinstance(shown, dict):
            return str(shown["label"])
        return self.kind_in(slot)


def _name(name: str) -> str:
    """A declaration's name as words: ``draw_pile`` is "draw pile"."""
    return name.replace("_", " ")


def _move(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str:
    _, _, source, target = event
    shown = view.get("component")
    label = str(shown["label"]) if isinstance(shown, dict) else None
    teller.last_move = ToldMove(source, target, label)
    return move_sentence(teller, source, target, teller.thing(view, source))


def move_sentence(teller: _Teller, source: int, target: int, thing: str, many: bool = False) -> str:
    """``thing`` (one component or several, in words) moving from zone slot ``source`` to
    ``target``: who moves it when an owner's zone is either end."""
    owner_from, owner_to = teller.ref(source).owner, teller.ref(target).owner
    if owner_to is not None and owner_to != owner_from:
        return f"{owner_to} takes {thing} from {teller.zone(source)} to their {_name(teller.ref(target).name)}"
    if owner_from is not None:
        there = f"their {_name(teller.ref(target).name)}" if owner_to == owner_from else teller.zone(target)
        return f"{owner_from} moves {thing} from their {_name(teller.ref(source).name)} to {there}"
    verb = "move" if many else "moves"
    return f"{thing} {verb} from {teller.zone(source)} to {teller.zone(target)}"


def _tokens(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str:
    supply = _name(str(event[1]))
    amount = f"{view['amount']} {supply}" if "amount" in view else f"some {supply}"
    source, target = _holder(teller, view["from"]), _holder(teller, view["to"])
    if view["from"] == "bank" and isinstance(view["to"], dict) and "player" in view["to"]:
        return f"{target} gains {amount}"
    if view["to"] == "bank" and isinstance(view["from"], dict) and "player" in view["from"]:
        return f"{source} pays {amount}"
    return f"{source} gives {amount} to {target}"


def _holder(teller: _Teller, holder: JsonValue) -> str:
    """A holder of tokens as events.py shows it, in words."""
    if not isinstance(holder, dict):
        return "the bank"
    if "player" in holder:
        return teller.player(int(str(holder["player"])))
    if "label" in holder:
        return str(holder["label"])
    return f"{one('component')} in {teller.zone_of_key(str(holder['zone']))}"


LONGEST_VALUE = 60
"""A value longer than this many characters is cut in a sentence ("[3,1, 4,1, ...]")."""


def _set(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str:
    _, table, name, index, value, _ = event
    shown = display(value)
    if len(shown) > LONGEST_VALUE:
        shown = shown[:LONGEST_VALUE - 5] + " ...]" if shown.startswith("[") else shown[:LONGEST_VALUE - 4] + " ..."
    var = _name(str(name))
    if table == "player":
        return f"{teller.player(index)}'s {var} is now {shown}"
    if table == "space":
        return f"{var} of {display(teller.catalog.spaces[index])} is now {shown}"
    if table == "component":
        return f"{var} of {teller.catalog.components[index].label} is now {shown}"
    return f"{var} is now {shown}"


def _chance(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str:
    """A roll ("roll d6": "d6 is rolled: 4") or a random pick ("a random pick from bag: card 3"); the
    outcome only for those who see it."""
    asks = str(view["asks"])
    told = f"{_name(asks[5:])} is rolled" if asks.startswith("roll ") else _pick(asks)
    teller.last_roll = ToldRoll(told, str(view["label"]) if "label" in view else None)
    return f"{told}: {view['label']}" if "label" in view else f"{told} (not shown)"


def _pick(asks: str) -> str:
    """A random pick as the log tells it: "random x in bag" (the local's name is the
    rules' own) is "a random pick from bag"."""
    name, found, source = asks.removeprefix("random ").partition(" in ")
    return f"a random pick from {source}" if found and asks.startswith("random ") and name.isidentifier() else asks


def _shuffle(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str:
    return f"{teller.zone_of_key(str(view['what']))} is shuffled"


def _log(teller: _Teller, event: Event, view: dict[str, JsonValue]) -> str | None:
    return str(view["text"]) or None


Sentence = Callable[["_Teller", Event, dict[str, JsonValue]], "str | None"]

_SENTENCES: dict[str, Sentence] = {"move": _move, "tokens": _tokens, "set": _set, "chance": _chance,
                              "shuffle": _shuffle, "log": _log}


def line_text(line: Line) -> str:
    """A line as plain text, a heading set apart: "== phase main ==", "-- round 2 --",
    "- player 2's turn -"."""
    heading = line.get("heading")
    if heading is None:
        return str(line["text"])
    mark = {1: "==", 2: "--"}.get(int(str(heading)), "-")
    return f"{mark} {line['text']} {mark}"


def narrated_text(lines: list[Line]) -> list[str]:
    """The lines as plain text (``line_text``)."""
    return [line_text(line) for line in lines]
