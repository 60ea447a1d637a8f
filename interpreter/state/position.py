"""Positions: a state as readable text and back, "FEN for any ruleset".

``position_text(state)`` writes one (``State.to_position``); ``state_from_position(game,
text)`` reads one (``Game.state_from_position``). A position names everything: zones,
components by label, spaces by name, players as ``player N``, variables and supplies by
name, the phase, who is to act and, optionally, the exact program position. Like FEN it
leaves out the history: the actions applied, the count of decisions, the log and events.

Reading builds the saved-state JSON data and hands it to ``state_from_json``, so every
check of saved states applies; problems that only a text has (unknown names, a component
in two zones or in none, tokens that do not add up, values of the wrong type, a "to act"
line the rules do not agree with) are found first, each a diagnostic located in the text.
The format is documented in docs/state-format.md.
"""
from __future__ import annotations

import copy
import json
import re
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang import ast, boards
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import RulelangError, StateDataError

from ..model import rng
from ..model.serialize import BIG_INT, FORMAT, encode_value, zone_key
from ..model.values import CHANCE, Component, EnumType, EnumValue, Player, Ref, Value, ZoneRef
from .deserialize import MAX_NESTING, state_from_json
from .save import state_to_json
from .state import State

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog

HEADER = "# rulelang position"
"""The first line that ``position_text`` writes (a comment: readers need not have it)."""
MAX_INT_DIGITS = 4000
"""The longest integer literal read (decimal digits or hexadecimal ones)."""
KEYWORDS = frozenset({"none", "true", "false", "player", "zone", "supply", "die", "board", "enum"})
"""Words that start a value of their own: an enumeration value so named is written TYPE.NAME."""
Json = Any   # JSON data as ``state_to_json`` writes it


# ================================================================ shared: names and defaults

class _Names:
    """How the things of one game are named in a position, both ways."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.copies: dict[tuple[str, str], list[int]] = {}   # (type, label) -> ids, in id order
        for c in catalog.components:
            self.copies.setdefault((c.type, c.label), []).append(c.id)
        self.enum_values: dict[str, list[EnumValue]] = {}
        for enum in catalog.enums.values():
            for v in enum.values:
                self.enum_values.setdefault(v.name, []).append(v)

    def copy_number(self, c: Component) -> int:
        """Which copy of its label ``c`` is (1-based, in id order)."""
        return self.copies[(c.type, c.label)].index(c.id) + 1

    def shared(self, c: Component) -> bool:
        """Whether other components of its type have its label."""
        return len(self.copies[(c.type, c.label)]) > 1


@dataclass(frozen=True)
class _Defaults:
    """What a position's values default to: the state before setup, every variable at its
    declared initial value, as tables and as saved-state data. It holds no reference to the
    game, so that caching it by game keeps no game alive."""

    global_values: dict[str, Value]
    player_values: dict[str, list[Value]]
    space_values: dict[str, list[Value]]
    component_values: dict[str, list[Value]]
    data: dict[str, Json]


_DEFAULTS: weakref.WeakKeyDictionary[Game, _Defaults] = weakref.WeakKeyDictionary()
_NAMES: weakref.WeakKeyDictionary[Game, _Names] = weakref.WeakKeyDictionary()


def _blank(game: Game) -> _Defaults:
    """The defaults of ``game``'s positions (computed once per game)."""
    defaults = _DEFAULTS.get(game)
    if defaults is None:
        blank = State(game, 0, False)
        blank.set_initial_values()
        defaults = _Defaults(blank.global_values, blank.player_values, blank.space_values, blank.component_values,
                             state_to_json(blank))
        _DEFAULTS[game] = defaults
    return defaults


def _names(game: Game) -> _Names:
    names = _NAMES.get(game)
    if names is None:
        names = _NAMES[game] = _Names(game.catalog)
    return names


# ================================================================ writing

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def position_text(st: State) -> str:
    """The position of ``st`` (see the module docstring); reading it back gives a state
    whose ``to_json()`` is ``st.to_json()`` apart from the history, decisions and log."""
    return "\n".join(_Writer(st).lines()) + "\n"


class _Writer:
    """Writes the lines of one state's position."""

    def __init__(self, st: State):
        self.st = st
        self.catalog = st.game.catalog
        self.names = _names(st.game)
        self.blank = _blank(st.game)

    def lines(self) -> Iterator[str]:
        yield from self._header()
        yield from self._globals()
        yield from self._owners()
        yield from self._zones()
        yield from self._frames()

    def _header(self) -> Iterator[str]:
        st = self.st
        yield HEADER
        yield f"game {_string(st.game.title or '')}"
        yield f"players {st.game.num_players}"
        yield f"seed {_int(st.seed)}"
        yield f"rng {st.rng}"
        if st.explicit_chance:
            yield "explicit chance"
        if st.terminal:
            yield "over"
            return
        yield f"phase {st.frames[0].name}"
        yield "to act " + (", ".join(_actor(p) for p in st.current_players()) or "nobody")

    def _globals(self) -> Iterator[str]:
        for name, value in self.st.global_values.items():
            if not _same(value, self.blank.global_values.get(name)):
                yield f"global {name} = {self.value(value)}"

    def _owners(self) -> Iterator[str]:
        """One line per player, space or component with variables off their initial value or
        tokens of a supply; then the bank when a supply's count there is off the rest."""
        st, catalog = self.st, self.catalog
        for p in catalog.players:
            yield from self._owner_line(f"player {p.index + 1}", st.player_values, self.blank.player_values,
                                        p.index, catalog.holder_slot(p))
        for i, s in enumerate(catalog.spaces):
            yield from self._owner_line(f"space {self.space(s)}", st.space_values, self.blank.space_values, i, None)
        for c in catalog.components:
            yield from self._owner_line(f"component {self.component(c, self.names.shared(c))}", st.component_values,
                                        self.blank.component_values, c.id, catalog.holder_slot(c))

    def _owner_line(self, owner: str, values: dict[str, list[Value]], initial: dict[str, list[Value]], index: int,
                    holder: int | None) -> Iterator[str]:
        parts = [f"{name} = {self.value(table[index])}" for name, table in values.items()
                 if not _same(table[index], initial[name][index])]
        if holder is not None:
            parts += [f"{name} = {counts[holder]}" for name, counts in self.st.supply_counts.items() if counts[holder]]
        if parts:
            yield f"{owner} " + ", ".join(parts)

    def _zones(self) -> Iterator[str]:
        exact = self._exact_groups()
        for ref, zone in zip(self.catalog.zone_refs, self.st.zones, strict=True):
            if zone:
                items = ", ".join(self.component(c, (c.type, c.label) in exact) for c in zone)
                yield f"zone {zone_name(ref)}: {items}"

    def _exact_groups(self) -> set[tuple[str, str]]:
        """The labels whose copies must be named exactly (``@N``) in the zones: those whose
        copies do not appear in id order, as a reader would assign them."""
        order: dict[tuple[str, str], list[int]] = {}
        for zone in self.st.zones:
            for c in zone:
                order.setdefault((c.type, c.label), []).append(c.id)
        return {key for key, ids in order.items() if ids != sorted(ids)}

    def _frames(self) -> Iterator[str]:
        for f in self.st.frames:
            head = f"frame {f.name} pc {f.pc}" + (f" returns to {_key(f.ret)}" if f.ret is not None else "")
            env = ", ".join(f"{_key(k)} = {self.value(v)}" for k, v in f.env.items())
            yield head + (f": {env}" if env else "")

    # ---- values
    def value(self, v: Value) -> str:
        """A value as position text (the reader's ``value``)."""
        if v is None or isinstance(v, bool):
            return {None: "none", True: "true", False: "false"}[v]
        if isinstance(v, int):
            return _int(v)
        if isinstance(v, str):
            return _string(v)
        if isinstance(v, tuple):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{self.value(k)}: {self.value(x)}" for k, x in v.items()) + "}"
        return self._object(v)

    def _object(self, v: Value) -> str:
        if isinstance(v, Player):
            return f"player {v.index + 1}"
        if isinstance(v, Component):
            return self.component(v, self.names.shared(v))
        if isinstance(v, EnumValue):
            bare = len(self.names.enum_values[v.name]) == 1 and v.name not in KEYWORDS
            return v.name if bare else f"{v.type}.{v.name}"
        if isinstance(v, boards.Space):
            return self.space(v)
        if isinstance(v, ZoneRef):
            return f"zone {zone_name(v)}"
        if isinstance(v, Ref):
            return f"{v.kind} {v.name}"
        if isinstance(v, EnumType):
            return f"enum {v.name}"
        raise TypeError(f"a position cannot hold a {type(v).__name__}")

    def component(self, c: Component, exact: bool) -> str:
        return component_name(c, self.names.copy_number(c) if exact else None)

    @staticmethod
    def space(s: boards.Space) -> str:
        return f"{s.board}.{s.name if _BARE.fullmatch(s.name) else _string(s.name)}"


def component_name(c: Component, copy: int | None = None) -> str:
    """A component as a position names it: ``TYPE "label"``, then ``@N`` for copy N."""
    return f"{c.type} {_string(c.label)}" + (f"@{copy}" if copy is not None else "")


def _same(a: Value, b: Value) -> bool:
    """Equal as saved data (so 1 and true differ)."""
    return json.dumps(encode_value(a)) == json.dumps(encode_value(b))


_LOCAL = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_]*")


def _key(name: str) -> str:
    """A local variable's name: bare, or quoted (the engine's ``x@LINE:COL`` for a ``let``
    that hides an outer one)."""
    return name if _LOCAL.fullmatch(name) else _string(name)


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _int(n: int) -> str:
    """An integer as text: hexadecimal from BIG_INT on (no length limit)."""
    return str(n) if -BIG_INT < n < BIG_INT else hex(n)


def zone_name(ref: ZoneRef) -> str:
    """A zone as a position names it: ``deck``, ``hand of player 1``."""
    return ref.name if ref.owner is None else f"{ref.name} of player {ref.owner.index + 1}"


def _actor(player: int) -> str:
    return "chance" if player == CHANCE else f"player {player + 1}"


# ================================================================ reading: tokens

_TOKEN = re.compile(r"""
    (?P<blank>[ \t\r]+)
  | (?P<comment>\#.*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<int>-?0x[0-9a-fA-F]+|-?[0-9]+)
  | (?P<name>\$?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[\[\]{}:,=.@])
""", re.VERBOSE)


@dataclass(frozen=True)
class _Token:
    kind: str      # string, int, name, punct, end
    text: str
    column: int


class _Problem(Exception):
    """A problem at one token of a line: the line is skipped, reading goes on."""

    def __init__(self, token: _Token, message: str, hint: str | None = None):
        super().__init__(message)
        self.token, self.message, self.hint = token, message, hint


def _tokens(line: str) -> list[_Token]:
    """The tokens of one line, ending with an ``end`` token."""
    found: list[_Token] = []
    at = 0
    while at < len(line):
        match = _TOKEN.match(line, at)
        if match is None:
            raise _Problem(_Token("end", line[at], at + 1), f"unexpected character {line[at]!r}")
        kind = match.lastgroup or ""
        if kind not in ("blank", "comment"):
            found.append(_Token(kind, match.group(), at + 1))
        at = match.end()
    found.append(_Token("end", "", len(line) + 1))
    return found


class _Line:
    """A cursor over the tokens of one line."""

    def __init__(self, tokens: list[_Token]):
        self.tokens, self.at = tokens, 0

    @property
    def next(self) -> _Token:
        return self.tokens[self.at]

    def peek(self, offset: int = 1) -> _Token:
        return self.tokens[min(self.at + offset, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        if token.kind != "end":
            self.at += 1
        return token

    def accept(self, text: str) -> bool:
        if self.next.kind in ("punct", "name") and self.next.text == text:
            self.take()
            return True
        return False

    def expect(self, text: str) -> _Token:
        token = self.next
        if not self.accept(text):
            raise _Problem(token, f"expected '{text}', found {_shown(token)}")
        return token

    def name(self, what: str = "a name") -> _Token:
        token = self.take()
        if token.kind != "name":
            raise _Problem(token, f"expected {what}, found {_shown(token)}")
        return token

    def integer(self, what: str = "a whole number") -> tuple[int, _Token]:
        token = self.take()
        if token.kind != "int":
            raise _Problem(token, f"expected {what}, found {_shown(token)}")
        if len(token.text) > MAX_INT_DIGITS:
            raise _Problem(token, f"a number of more than {MAX_INT_DIGITS} digits")
        return int(token.text, 0) if "x" in token.text else int(token.text), token

    def string(self) -> tuple[str, _Token]:
        token = self.take()
        if token.kind != "string":
            raise _Problem(token, f"expected a quoted text, found {_shown(token)}")
        try:
            text: str = json.loads(token.text)
        except ValueError:
            raise _Problem(token, "a quoted text with a bad escape (write it as in JSON)") from None
        return text, token

    def end(self) -> None:
        token = self.next
        if token.kind != "end":
            raise _Problem(token, f"unexpected {_shown(token)} at the end of the line")


def _shown(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the line"
    text = token.text if len(token.text) <= 40 else token.text[:40] + "..."
    return f"'{text}'"


# ================================================================ reading: the draft

@dataclass
class _Ref:
    """A component named in a zone: by label (``copy`` None: the next copy) or exactly."""

    type: str
    label: str
    copy: int | None
    token: _Token
    line: int


@dataclass
class _Others:
    """``others`` in a zone's list: every component not placed elsewhere."""

    token: _Token
    line: int


@dataclass
class _Draft:
    """What the lines of a position say, each with where it was said."""

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
    zones: dict[int, tuple[list[_Ref | _Others], Span]] = field(default_factory=dict)
    frames: list[tuple[dict[str, Json], Span]] = field(default_factory=list)
    spans: dict[str, Span] = field(default_factory=dict)    # JSON path -> where the text says it
    given: set[str] = field(default_factory=set)    # the words of the lines said at most once
    first: Span | None = None    # the first line that says something
    at_start: Span | None = None    # 'others at start': where the components not placed are


def state_from_position(game: Game, text: str, path: str = "<position>") -> State:
    """The state that a position describes, run on to its decision; StateDataError (E606)
    carrying a located diagnostic for each problem found."""
    if not isinstance(text, str):
        message = f"a position is text, not {type(text).__name__}"
        raise StateDataError(message, [Diagnostic("E606", message, Span.point(path, 1, 1))])
    reader = _Reader(game, path)
    draft = reader.read(text)
    data = reader.data(draft) if not reader.problems else None
    st = reader.load(data, draft) if data is not None else None
    if st is None:
        raise _error(reader.problems)
    return st


def _error(problems: list[Diagnostic]) -> StateDataError:
    return StateDataError(problems[0].message, problems)


class _Reader:
    """Reads the lines of a position into a draft, then the draft into saved-state data."""

    def __init__(self, game: Game, path: str):
        self.game, self.path = game, path
        self.catalog = game.catalog
        self.names = _names(game)
        self.problems: list[Diagnostic] = []
        self.line = 0
        self.depth = 0   # of the lists and maps being read

    def span(self, token: _Token, line: int | None = None) -> Span:
        """Where ``token`` is: on ``line``, by default the line being read."""
        line = self.line if line is None else line
        return Span(self.path, line, token.column, line, token.column + max(1, len(token.text)))

    def report(self, span: Span | None, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic("E606", message, span or Span.point(self.path, 1, 1), hint=hint))

    def suggest(self, name: str, candidates: Any) -> str | None:
        return self.catalog.suggest(name, [str(c) for c in candidates])

    # ---- lines
    def read(self, text: str) -> _Draft:
        draft = _Draft()
        for number, raw in enumerate(text.split("\n"), 1):
            self.line = number
            try:
                tokens = _Line(_tokens(raw))
                if tokens.next.kind != "end":
                    draft.first = draft.first or self.span(tokens.next)
                    self.statement(tokens, draft)
            except _Problem as problem:
                self.report(self.span(problem.token), problem.message, problem.hint)
        return draft

    def statement(self, line: _Line, draft: _Draft) -> None:
        word = line.name("a line such as 'zone NAME: ...' or 'player 1 NAME = VALUE'")
        handler = _STATEMENTS.get(word.text)
        if handler is None:
            raise _Problem(word, f"unknown line '{word.text}'", self.suggest(word.text, _STATEMENTS))
        if word.text in _ONCE:
            self._once(word.text in draft.given, word)
            draft.given.add(word.text)
        handler(self, line, draft, word)
        line.end()

    def _once(self, taken: object, word: _Token) -> None:
        if taken:
            raise _Problem(word, f"'{word.text}' is given twice")

    def game_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        title, token = line.string()
        draft.title = (title, self.span(token))

    def players_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        count, token = line.integer()
        draft.players = (count, self.span(token))

    def seed_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        draft.seed = line.integer()[0]

    def rng_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        value, token = line.integer()
        if not 0 <= value < 1 << 64:
            raise _Problem(token, "the generator's state is a number from 0 to 2**64 - 1")
        draft.rng = value

    def explicit_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        line.expect("chance")
        draft.explicit = True

    def over_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        draft.over = self.span(word)

    def others_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        line.expect("at")
        line.expect("start")
        draft.at_start = self.span(word)

    def phase_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        name = line.name("the name of a phase")
        if name.text not in self.catalog.phases:
            raise _Problem(name, f"no phase '{name.text}' in this game", self.suggest(name.text, self.catalog.phases))
        draft.phase = (name.text, self.span(name))

    def to_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        line.expect("act")
        start = line.next
        players: list[int] = []
        if line.accept("chance"):
            players.append(CHANCE)
        elif not line.accept("nobody"):
            players.append(self.seat(line))
            while line.accept(","):
                players.append(self.seat(line))
        draft.to_act = (players, self.span(start))

    def global_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        name = line.name("the name of a global variable")
        if name.text not in self.catalog.global_vars:
            raise _Problem(name, f"no global variable '{name.text}' in this game",
                           self.suggest(name.text, self.catalog.global_vars))
        line.expect("=")
        self.variable(line, draft, f"$.globals.{name.text}", self.catalog.global_vars[name.text], name)

    def player_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        seat = self.seat(line, word)
        self.owned(line, draft, "player_vars", self.catalog.player_vars, seat, seat + 1, "player")

    def space_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        space = self.space(line, line.name("a space: BOARD.NAME"))
        index = self.catalog.space_offset[space.board] + space.index
        self.owned(line, draft, "space_vars", self.catalog.space_vars, index, None, "space")

    def component_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        ref = self.component_ref(line, line.name("a component: TYPE \"label\""))
        cid = self.exact_id(ref)
        self.owned(line, draft, "component_vars", self.catalog.component_vars, cid,
                   self.catalog.holder_base + cid, "component")

    def bank_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        while True:
            name = line.name("the name of a supply")
            if name.text not in self.catalog.supplies:
                raise _Problem(name, f"no supply '{name.text}' in this game",
                               self.suggest(name.text, self.catalog.supplies))
            line.expect("=")
            count, token = self.count(line)
            self._once(name.text in draft.bank, name)
            draft.bank[name.text] = (count, self.span(token))
            if not line.accept(","):
                return

    def zone_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        name = line.name("the name of a zone")
        slot, _ = self.zone(line, name)
        if slot in draft.zones:
            raise _Problem(name, f"zone '{zone_name(self.catalog.zone_refs[slot])}' is given twice")
        line.expect(":")
        items: list[_Ref | _Others] = []
        while line.next.kind != "end":
            if line.next.text == "others" and line.next.kind == "name" and line.peek().text in (",", ""):
                items.append(_Others(line.take(), self.line))
            else:
                items.append(self.zone_item(line, slot))
            if not line.accept(","):
                break
        draft.zones[slot] = (items, self.span(name))

    def zone_item(self, line: _Line, slot: int) -> _Ref:
        """A component in the zone of ``slot``, of the zone's declared type if it has one."""
        ref = self.component_ref(line, line.name("a component: TYPE \"label\""))
        zone = self.catalog.zones[self.catalog.zone_refs[slot].name]
        declared = zone.type.name if zone.type is not None else None
        if declared in self.catalog.component_types and ref.type != declared:
            raise _Problem(ref.token, f"zone {zone.name} holds {declared} components, not a {ref.type}")
        return ref

    def frame_line(self, line: _Line, draft: _Draft, word: _Token) -> None:
        name = line.name("the name of a phase or procedure")
        if name.text not in self.catalog.code:
            raise _Problem(name, f"no phase or procedure '{name.text}' in this game",
                           self.suggest(name.text, self.catalog.code))
        line.expect("pc")
        pc, pc_token = line.integer("the position in the procedure")
        returns_to = None
        if line.accept("returns"):
            line.expect("to")
            returns_to = self.local_name(line)
        n = len(draft.frames)
        env: dict[str, Json] = {}
        if line.accept(":"):
            for key, value, span in self.assignments(line):
                env[key] = value
                draft.spans[f"$.frames[{n}].env.{key}"] = span
        draft.spans[f"$.frames[{n}]"] = self.span(name)
        draft.spans[f"$.frames[{n}].pc"] = self.span(pc_token)
        draft.frames.append(({"procedure": name.text, "pc": pc, "env": env, "returns_to": returns_to},
                             self.span(name)))

    # ---- parts of lines
    def seat(self, line: _Line, word: _Token | None = None) -> int:
        """``player N`` (the word ``player`` already taken if ``word``): the seat N - 1."""
        if word is None:
            line.expect("player")
        number, token = line.integer("a player number (1, 2, ...)")
        seats = len(self.catalog.players)
        if not 1 <= number <= seats:
            raise _Problem(token, f"no player {number}: players are numbered 1 to {seats}")
        return number - 1

    def owned(self, line: _Line, draft: _Draft, table: str, variables: dict[str, ast.VarDecl], index: int,
              holder: int | None, owner: str) -> None:
        """``NAME = VALUE, ...`` for one owner: its variables and the tokens it holds."""
        while True:
            name = line.name(f"a {owner} variable" + (" or a supply" if holder is not None else ""))
            line.expect("=")
            if holder is not None and name.text in self.catalog.supplies:
                key = (name.text, holder)
                self._once(key in draft.tokens, name)
                count, token = self.count(line)
                draft.tokens[key] = (count, self.span(token))
            elif name.text in variables:
                self.variable(line, draft, f"$.{table}.{name.text}[{index}]", variables[name.text], name)
            else:
                pool = list(variables) + (list(self.catalog.supplies) if holder is not None else [])
                raise _Problem(name, f"no {owner} variable{' or supply' if holder is not None else ''} "
                                     f"'{name.text}' in this game", self.suggest(name.text, pool))
            if not line.accept(","):
                return

    def variable(self, line: _Line, draft: _Draft, path: str, decl: ast.VarDecl, name: _Token | None = None) -> None:
        """A variable's value, checked against its declared type."""
        if path in draft.values and name is not None:
            raise _Problem(name, f"'{name.text}' is given twice")
        start = line.next
        value = self.value(line)
        if decl.type is not None and not _fits(value, decl.type, self.catalog):
            raise _Problem(start, f"'{decl.name}' is declared '{decl.type}': {_kind(value)} does not fit")
        draft.values[path] = (value, self.span(start))

    def count(self, line: _Line) -> tuple[int, _Token]:
        count, token = line.integer("a number of tokens")
        if count < 0:
            raise _Problem(token, "a number of tokens is 0 or more")
        return count, token

    def assignments(self, line: _Line) -> Iterator[tuple[str, Json, Span]]:
        while True:
            key = self.local_name(line)
            line.expect("=")
            start = line.next
            yield key, self.value(line), self.span(start)
            if not line.accept(","):
                return

    @staticmethod
    def local_name(line: _Line) -> str:
        """A local variable's name, bare or quoted."""
        return line.string()[0] if line.next.kind == "string" else line.name("the name of a local variable").text

    def zone(self, line: _Line, name: _Token) -> tuple[int, _Token]:
        """``NAME`` or ``NAME of player N``: the zone's slot."""
        decl = self.catalog.zones.get(name.text)
        if decl is None:
            raise _Problem(name, f"no zone '{name.text}' in this game", self.suggest(name.text, self.catalog.zones))
        if decl.owner is None:
            return self.catalog.zone_slot[name.text], name
        if not line.accept("of"):
            raise _Problem(line.next, f"'{name.text}' is a zone of each player: write '{name.text} of player N'")
        return self.catalog.zone_slot[name.text] + self.seat(line), name

    def space(self, line: _Line, board_name: _Token) -> boards.Space:
        board = self.catalog.boards.get(board_name.text)
        if board is None:
            raise _Problem(board_name, f"no board '{board_name.text}' in this game",
                           self.suggest(board_name.text, self.catalog.boards))
        line.expect(".")
        return self._space_on(board, line)

    def _space_on(self, board: boards.Board, line: _Line) -> boards.Space:
        token = line.next
        if token.kind == "string":
            text = line.string()[0]
        elif token.kind in ("name", "int"):
            text = line.take().text
        else:
            raise _Problem(token, f"expected the name of a space of board {board.name}, found {_shown(token)}")
        if text not in board:
            raise _Problem(token, f"board {board.name} has no space {text!r}",
                           self.suggest(text, [s.name for s in board.spaces]))
        return board.space(text)

    def component_ref(self, line: _Line, type_name: _Token) -> _Ref:
        if type_name.text not in self.catalog.component_types:
            raise _Problem(type_name, f"no component type '{type_name.text}' in this game",
                           self.suggest(type_name.text, self.catalog.component_types))
        label, token = line.string()
        if (type_name.text, label) not in self.names.copies:
            labels = [lab for (t, lab) in self.names.copies if t == type_name.text]
            raise _Problem(token, f"no {type_name.text} {_string(label)} in this game", self.suggest(label, labels))
        number = None
        if line.accept("@"):
            number, at = line.integer("a copy number (1, 2, ...)")
            have = len(self.names.copies[(type_name.text, label)])
            if not 1 <= number <= have:
                raise _Problem(at, f"no copy {number} of {type_name.text} {_string(label)}: there "
                                   f"{'is' if have == 1 else 'are'} {have}")
        return _Ref(type_name.text, label, number, type_name, self.line)

    def exact_id(self, ref: _Ref) -> int:
        """The id a component reference names outside the zones: the copy given, or the first."""
        return self.names.copies[(ref.type, ref.label)][(ref.copy or 1) - 1]

    # ---- values
    def value(self, line: _Line) -> Json:
        """A value, as the JSON data that ``encode_value`` writes."""
        token = line.next
        if token.kind == "int":
            n = line.integer()[0]
            return n if -BIG_INT < n < BIG_INT else {"int": hex(n)}
        if token.kind == "string":
            return line.string()[0]
        if token.kind == "punct":
            return self._bracketed(line)
        return self._named_value(line, line.name("a value"))

    def _bracketed(self, line: _Line) -> Json:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise _Problem(line.next, f"values nested more than {MAX_NESTING} deep")
            return self._list_or_map(line)
        finally:
            self.depth -= 1

    def _list_or_map(self, line: _Line) -> Json:
        if line.accept("["):
            return self._items(line, "]", lambda: self.value(line))
        if line.accept("{"):
            return {"map": self._items(line, "}", lambda: self._pair(line))}
        raise _Problem(line.next, f"expected a value, found {_shown(line.next)}")

    def _items(self, line: _Line, close: str, item: Any) -> list[Json]:
        items: list[Json] = []
        if line.accept(close):
            return items
        while True:
            items.append(item())
            if line.accept(close):
                return items
            line.expect(",")

    def _pair(self, line: _Line) -> Json:
        key = self.value(line)
        line.expect(":")
        return [key, self.value(line)]

    def _named_value(self, line: _Line, word: _Token) -> Json:
        text = word.text
        if text in ("none", "true", "false"):
            return {"none": None, "true": True, "false": False}[text]
        if text == "player":
            return {"player": self.seat(line, word)}
        if text == "zone":
            return {"zone": self.zone(line, line.name("the name of a zone"))[0]}
        if text in ("supply", "die", "board") and line.next.kind == "name":
            return self._ref(text, line.name())
        if text == "enum" and line.next.kind == "name":
            enum = line.name()
            if enum.text not in self.catalog.enums:
                raise _Problem(enum, f"no enumeration '{enum.text}'", self.suggest(enum.text, self.catalog.enums))
            return {"enum_type": enum.text}
        if line.next.text == "." and line.next.kind == "punct":
            return self._dotted(line, word)
        if line.next.kind == "string":
            cid = self.exact_id(self.component_ref(line, word))
            return {"component": cid}
        return self._enum_value(word)

    def _ref(self, kind: str, name: _Token) -> Json:
        tables: dict[str, dict[str, Any]] = {"supply": self.catalog.supplies, "die": self.catalog.dice,
                                             "board": self.catalog.boards}
        table = tables[kind]
        if name.text not in table:
            raise _Problem(name, f"no {kind} '{name.text}' in this game", self.suggest(name.text, table))
        return {"ref": kind, "name": name.text}

    def _dotted(self, line: _Line, word: _Token) -> Json:
        """``BOARD.SPACE`` or ``ENUM.VALUE``."""
        if word.text in self.catalog.boards:
            space = self.space(line, word)
            return {"board": space.board, "space": space.name}
        enum = self.catalog.enums.get(word.text)
        if enum is None:
            raise _Problem(word, f"no board or enumeration '{word.text}' in this game",
                           self.suggest(word.text, [*self.catalog.boards, *self.catalog.enums]))
        line.expect(".")
        value = line.name(f"a value of {enum.name}")
        if value.text not in {v.name for v in enum.values}:
            raise _Problem(value, f"enumeration {enum.name} has no value '{value.text}'",
                           self.suggest(value.text, [v.name for v in enum.values]))
        return {"enum": enum.name, "value": value.text}

    def _enum_value(self, word: _Token) -> Json:
        found = self.names.enum_values.get(word.text, [])
        if len(found) == 1:
            return {"enum": found[0].type, "value": found[0].name}
        if found:
            raise _Problem(word, f"'{word.text}' is a value of several enumerations: write "
                                 + " or ".join(f"{v.type}.{v.name}" for v in found))
        raise _Problem(word, f"unknown value '{word.text}'", self.suggest(word.text, self.names.enum_values))

    # ---- the draft as saved-state data
    def data(self, draft: _Draft) -> dict[str, Json] | None:
        """The saved-state data the draft describes (None, with problems reported, if it
        cannot be built): what the position leaves out takes its default."""
        data: dict[str, Json] = copy.deepcopy(_blank(self.game).data)
        self.header(draft, data)
        for path, (value, span) in draft.values.items():
            _set(data, path, value)
            draft.spans[path] = span
        data["supplies"] = self.supplies(draft)
        data["zones"] = self.zones(draft)
        data["frames"] = self.program(draft)
        return None if self.problems else data

    def header(self, draft: _Draft, data: dict[str, Json]) -> None:
        if draft.players is not None and draft.players[0] != self.game.num_players:
            self.report(draft.players[1], f"this game is played by {self.game.num_players} players, "
                                          f"not {draft.players[0]}")
        if draft.title is not None and draft.title[0] != (self.game.title or ""):
            self.report(draft.title[1], f"this game is {_string(self.game.title or '')}, "
                                        f"not {_string(draft.title[0])}")
        data.update(format=FORMAT, seed=encode_value(draft.seed), explicit_chance=draft.explicit,
                    rng=rng.seed_state(draft.seed) if draft.rng is None else draft.rng,
                    terminal=draft.over is not None, decisions=0, history=[], log=[], private_log=[])
        if "events" in data:   # recorded events are history too: a position starts with none
            data["events"] = []

    def supplies(self, draft: _Draft) -> dict[str, list[int]]:
        """Each supply's tokens by holder: as given, the bank making up the rest unless given."""
        return {name: self._supply(draft, name, total) for name, total in self.catalog.supplies.items()}

    def _supply(self, draft: _Draft, name: str, total: int) -> list[int]:
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

    def _bank(self, draft: _Draft, name: str, total: int, held: int, first: Span | None) -> int:
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

    def zones(self, draft: _Draft) -> dict[str, list[int]]:
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

    def _exact_refs(self, draft: _Draft, placed: dict[int, tuple[str, Span]],
                    items: dict[int, list[int | None]]) -> set[int]:
        """Place the components named with ``@N``; the plain ones get a slot (None) for now."""
        exact = set()
        for slot, (refs, _) in draft.zones.items():
            items[slot] = []
            for ref in refs:
                if isinstance(ref, _Ref) and ref.copy is not None:
                    cid = self.exact_id(ref)
                    self._place(cid, slot, ref, placed)
                    exact.add(cid)
                    items[slot].append(cid)
                else:
                    items[slot].append(None)
        return exact

    def _plain_refs(self, draft: _Draft, placed: dict[int, tuple[str, Span]], items: dict[int, list[int | None]],
                    exact: set[int]) -> None:
        """Give the components named by label alone the copies left, in order."""
        left = {key: [i for i in ids if i not in exact] for key, ids in self.names.copies.items()}
        for slot, (refs, _) in draft.zones.items():
            for n, ref in enumerate(refs):
                if not isinstance(ref, _Ref) or ref.copy is not None:
                    continue
                free = left[(ref.type, ref.label)]
                if not free:
                    self._twice(ref, self.names.copies[(ref.type, ref.label)][-1], placed)
                    continue
                cid = free.pop(0)
                self._place(cid, slot, ref, placed)
                items[slot][n] = cid

    def _others(self, draft: _Draft, placed: dict[int, tuple[str, Span]], items: dict[int, list[int | None]]) -> None:
        """``others``: every component not placed elsewhere, in id order."""
        others = [(slot, n, ref) for slot, (refs, _) in draft.zones.items() for n, ref in enumerate(refs)
                  if isinstance(ref, _Others)]
        for _, _, ref in others[1:]:
            self.report(self.span(ref.token, ref.line), "'others' is given twice: in one zone's list at most")
        if not others:
            return
        slot, n, ref = others[0]
        rest = [c.id for c in self.catalog.components if c.id not in placed]
        items[slot][n:n + 1] = rest   # only one 'others' is expanded: the indices before it hold
        where = (zone_name(self.catalog.zone_refs[slot]), self.span(ref.token, ref.line))
        placed.update((cid, where) for cid in rest)

    def _at_start(self, draft: _Draft, placed: dict[int, tuple[str, Span]],
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

    def _place(self, cid: int, slot: int, ref: _Ref, placed: dict[int, tuple[str, Span]]) -> None:
        if cid in placed:
            self._twice(ref, cid, placed)
            return
        placed[cid] = (zone_name(self.catalog.zone_refs[slot]), self.span(ref.token, ref.line))

    def _twice(self, ref: _Ref, cid: int, placed: dict[int, tuple[str, Span]]) -> None:
        where, span = placed.get(cid, ("?", None))
        copies = len(self.names.copies[(ref.type, ref.label)])
        name = f"{ref.type} {_string(ref.label)}" + (f"@{ref.copy}" if ref.copy else "")
        if copies > 1 and ref.copy is None:
            message = f"{name} is placed more often than the {copies} the game has"
        else:
            message = f"{name} is in two zones: {where} (at {span}) and here"
        self.report(self.span(ref.token, ref.line), message)

    def _unplaced(self, draft: _Draft, placed: dict[int, tuple[str, Span]]) -> None:
        missing = [c for c in self.catalog.components if c.id not in placed]
        if missing:
            shown = ", ".join(f"{c.type} {_string(c.label)}" for c in missing[:5]) + (", ..." if len(missing) > 5
                                                                                      else "")
            self.report(draft.first, f"{len(missing)} component{'s are' if len(missing) > 1 else ' is'} in no zone: "
                                     f"{shown}", hint="place each in a zone, end one zone's list with 'others', "
                                                      "or say 'others at start'")

    def program(self, draft: _Draft) -> list[Json]:
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

    # ---- loading
    def load(self, data: dict[str, Json], draft: _Draft) -> State | None:
        """The state of ``data``, checked by ``state_from_json``, then against the 'to act'
        line; None (the problem reported) if it does not fit."""
        try:
            st = state_from_json(self.game, data)
        except StateDataError as error:
            self.located(error, draft)
            return None
        if draft.to_act is not None and sorted(draft.to_act[0]) != sorted(st.current_players()):
            asked = ", ".join(_actor(p) for p in st.current_players()) or "nobody"
            said = ", ".join(_actor(p) for p in draft.to_act[0]) or "nobody"
            self.report(draft.to_act[1], f"the rules ask {asked} to act here, not {said}")
            return None
        return st

    def located(self, error: RulelangError, draft: _Draft) -> None:
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


def _fits(value: Json, declared: ast.TypeRef, catalog: Catalog) -> bool:
    """Whether saved data ``value`` fits a declared type (types the engine does not check
    here, such as a map, fit anything)."""
    if value is None:
        return declared.optional
    name = declared.name
    if name == "list":
        return isinstance(value, list) and (declared.item is None or all(_fits(v, declared.item, catalog)
                                                                          for v in value))
    simple = _SIMPLE_TYPES.get(name)
    if simple is not None:
        return simple(value)
    if name in catalog.enums:
        return isinstance(value, dict) and value.get("enum") == name
    if name in catalog.component_types:
        cid = value.get("component") if isinstance(value, dict) else None
        return isinstance(cid, int) and 0 <= cid < len(catalog.components) and catalog.components[cid].type == name
    return True


def _kind(value: Json) -> str:
    """What kind of value saved data is, for a message."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, str, list)):
        return {int: "a number", str: "a text", list: "a list"}[type(value)]
    tag = next(iter(value), "value")
    return {"int": "a number", "board": "a space", "map": "a map", "ref": f"a {value.get('ref')}",
            "enum_type": "an enumeration"}.get(tag, f"a {tag}")


_SIMPLE_TYPES: dict[str, Callable[[Json], bool]] = {
    "int": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, dict) and "int" in v),
    "bool": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "player": lambda v: isinstance(v, dict) and "player" in v,
    "space": lambda v: isinstance(v, dict) and "space" in v,
    "zone": lambda v: isinstance(v, dict) and "zone" in v,
    "supply": lambda v: isinstance(v, dict) and v.get("ref") == "supply",
    "die": lambda v: isinstance(v, dict) and v.get("ref") == "die",
    "board": lambda v: isinstance(v, dict) and v.get("ref") == "board",
}

_STATEMENTS: dict[str, Any] = {
    "game": _Reader.game_line, "players": _Reader.players_line, "seed": _Reader.seed_line,
    "rng": _Reader.rng_line, "explicit": _Reader.explicit_line, "over": _Reader.over_line,
    "phase": _Reader.phase_line, "to": _Reader.to_line, "global": _Reader.global_line,
    "player": _Reader.player_line, "space": _Reader.space_line, "component": _Reader.component_line,
    "bank": _Reader.bank_line, "zone": _Reader.zone_line, "frame": _Reader.frame_line,
    "others": _Reader.others_line,
}
"""The word that opens each kind of line, and how the line is read."""
_ONCE = frozenset({"game", "players", "seed", "rng", "explicit", "over", "phase", "to", "others"})
"""The lines that a position has at most once."""
