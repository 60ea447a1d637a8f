"""Reading positions: ``state_from_position(game, text)`` (``Game.state_from_position``)
gives the state that a position (position_write.py writes one; people write them too)
describes, run on to its decision.

Each line is read into a draft (position_draft.py), checking names, types and values as it
goes: a problem that only a text has (an unknown name, a value of the wrong type, a line
given twice) is a diagnostic located in the text, the line is skipped and reading goes on.
The draft then becomes saved-state data for ``state_from_json``, so every check of saved
states applies. The format is documented in docs/state-format.md.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rulelang import ast, boards
from rulelang.check.zone_types import wrong_zone
from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import StateDataError

from ..model.serialize import BIG_INT
from ..model.values import CHANCE
from .deserialize import MAX_NESTING
from .position_draft import ComponentRef, Draft, DraftBuilder, Json, Others, Reporter
from .position_tokens import LineProblem, Token, TokenLine, line_tokens, shown
from .position_write import quoted, zone_name

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog
    from .state import State


def state_from_position(game: Game, text: str, path: str = "<position>") -> State:
    """The state that a position describes, run on to its decision; StateDataError (E606)
    carrying a located diagnostic for each problem found."""
    if not isinstance(text, str):
        message = f"a position is text, not {type(text).__name__}"
        raise StateDataError(message, [Diagnostic("E606", message, Span.point(path, 1, 1))])
    reader = _Reader(game, path)
    draft = reader.read(text)
    builder = DraftBuilder(game, path, reader.problems)
    data = builder.data(draft) if not reader.problems else None
    st = builder.load(data, draft) if data is not None else None
    if st is None:
        raise _error(reader.problems)
    return st


def _error(problems: list[Diagnostic]) -> StateDataError:
    """The error that reports ``problems``, the first one its message."""
    return StateDataError(problems[0].message, problems)


class _Reader(Reporter):
    """Reads the lines of a position into a draft."""

    def __init__(self, game: Game, path: str):
        super().__init__(game, path, [])
        self.line = 0
        self.depth = 0   # of the lists and maps being read

    def span(self, token: Token, line: int | None = None) -> Span:
        """Where ``token`` is: on ``line``, by default the line being read."""
        return super().span(token, self.line if line is None else line)

    def suggest(self, name: str, candidates: Any) -> str | None:
        """The name among ``candidates`` that ``name`` may have meant, as a hint."""
        return self.catalog.suggest(name, [str(c) for c in candidates])

    # ---- lines
    def read(self, text: str) -> Draft:
        draft = Draft()
        for number, raw in enumerate(text.split("\n"), 1):
            self.line = number
            try:
                tokens = TokenLine(line_tokens(raw))
                if tokens.next.kind != "end":
                    draft.first = draft.first or self.span(tokens.next)
                    self.statement(tokens, draft)
            except LineProblem as problem:
                self.report(self.span(problem.token), problem.message, problem.hint)
        return draft

    def statement(self, line: TokenLine, draft: Draft) -> None:
        word = line.name("a line such as 'zone NAME: ...' or 'player 1 NAME = VALUE'")
        handler = _STATEMENTS.get(word.text)
        if handler is None:
            raise LineProblem(word, f"unknown line '{word.text}'", self.suggest(word.text, _STATEMENTS))
        if word.text in _ONCE:
            self._once(word.text in draft.given, word)
            draft.given.add(word.text)
        handler(self, line, draft, word)
        line.end()

    def _once(self, taken: object, word: Token) -> None:
        if taken:
            raise LineProblem(word, f"'{word.text}' is given twice")

    def game_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        title, token = line.string()
        draft.title = (title, self.span(token))

    def players_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        count, token = line.integer()
        draft.players = (count, self.span(token))

    def seed_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        draft.seed = line.integer()[0]

    def rng_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        value, token = line.integer()
        if not 0 <= value < 1 << 64:
            raise LineProblem(token, "the generator's state is a number from 0 to 2**64 - 1")
        draft.rng = value

    def explicit_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        line.expect("chance")
        draft.explicit = True

    def over_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        draft.over = self.span(word)

    def others_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        line.expect("at")
        line.expect("start")
        draft.at_start = self.span(word)

    def phase_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        name = line.name("the name of a phase")
        if name.text not in self.catalog.phases:
            raise LineProblem(name, f"no phase '{name.text}' in this game",
                              self.suggest(name.text, self.catalog.phases))
        draft.phase = (name.text, self.span(name))

    def to_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
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

    def global_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        name = line.name("the name of a global variable")
        if name.text not in self.catalog.global_vars:
            raise LineProblem(name, f"no global variable '{name.text}' in this game",
                              self.suggest(name.text, self.catalog.global_vars))
        line.expect("=")
        self.variable(line, draft, f"$.globals.{name.text}", self.catalog.global_vars[name.text], name)

    def player_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        seat = self.seat(line, word)
        self.owned(line, draft, "player_vars", self.catalog.player_vars, seat, seat + 1, "player")

    def space_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        space = self.space(line, line.name("a space: BOARD.NAME"))
        index = self.catalog.space_offset[space.board] + space.index
        self.owned(line, draft, "space_vars", self.catalog.space_vars, index, None, "space")

    def component_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        ref = self.component_ref(line, line.name("a component: TYPE \"label\""))
        cid = self.exact_id(ref)
        self.owned(line, draft, "component_vars", self.catalog.component_vars, cid,
                   self.catalog.holder_base + cid, "component")

    def bank_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        while True:
            name = line.name("the name of a supply")
            if name.text not in self.catalog.supplies:
                raise LineProblem(name, f"no supply '{name.text}' in this game",
                                  self.suggest(name.text, self.catalog.supplies))
            line.expect("=")
            count, token = self.count(line)
            self._once(name.text in draft.bank, name)
            draft.bank[name.text] = (count, self.span(token))
            if not line.accept(","):
                return

    def zone_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        name = line.name("the name of a zone")
        slot, _ = self.zone(line, name)
        if slot in draft.zones:
            raise LineProblem(name, f"zone '{zone_name(self.catalog.zone_refs[slot])}' is given twice")
        line.expect(":")
        items: list[ComponentRef | Others] = []
        while line.next.kind != "end":
            if line.next.text == "others" and line.next.kind == "name" and line.peek().text in (",", ""):
                items.append(Others(line.take(), self.line))
            else:
                items.append(self.zone_item(line, slot))
            if not line.accept(","):
                break
        draft.zones[slot] = (items, self.span(name))

    def zone_item(self, line: TokenLine, slot: int) -> ComponentRef:
        """A component in the zone of ``slot``, of the type the zone holds if it holds one
        (``Catalog.zone_holds``)."""
        ref = self.component_ref(line, line.name("a component: TYPE \"label\""))
        holds = self.catalog.zone_holds[slot]
        if holds is not None and ref.type != holds:
            raise LineProblem(ref.token, wrong_zone(self.catalog.zone_refs[slot].name, holds, ref.type))
        return ref

    def frame_line(self, line: TokenLine, draft: Draft, word: Token) -> None:
        name = line.name("the name of a phase or procedure")
        if name.text not in self.game.program.code:
            raise LineProblem(name, f"no phase or procedure '{name.text}' in this game",
                              self.suggest(name.text, self.game.program.code))
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
    def seat(self, line: TokenLine, word: Token | None = None) -> int:
        """``player N`` (the word ``player`` already taken if ``word``): the seat N - 1."""
        if word is None:
            line.expect("player")
        number, token = line.integer("a player number (1, 2, ...)")
        seats = len(self.catalog.players)
        if not 1 <= number <= seats:
            raise LineProblem(token, f"no player {number}: players are numbered 1 to {seats}")
        return number - 1

    def owned(self, line: TokenLine, draft: Draft, table: str, variables: dict[str, ast.VarDecl], index: int,
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
                raise LineProblem(name, f"no {owner} variable{' or supply' if holder is not None else ''} "
                                        f"'{name.text}' in this game", self.suggest(name.text, pool))
            if not line.accept(","):
                return

    def variable(self, line: TokenLine, draft: Draft, path: str, decl: ast.VarDecl, name: Token | None = None) -> None:
        """A variable's value, checked against its declared type."""
        if path in draft.values and name is not None:
            raise LineProblem(name, f"'{name.text}' is given twice")
        start = line.next
        value = self.value(line)
        if decl.type is not None and not _fits(value, decl.type, self.catalog):
            raise LineProblem(start, f"'{decl.name}' is declared '{decl.type}': {_kind(value)} does not fit")
        draft.values[path] = (value, self.span(start))

    def count(self, line: TokenLine) -> tuple[int, Token]:
        count, token = line.integer("a number of tokens")
        if count < 0:
            raise LineProblem(token, "a number of tokens is 0 or more")
        return count, token

    def assignments(self, line: TokenLine) -> Iterator[tuple[str, Json, Span]]:
        while True:
            key = self.local_name(line)
            line.expect("=")
            start = line.next
            yield key, self.value(line), self.span(start)
            if not line.accept(","):
                return

    @staticmethod
    def local_name(line: TokenLine) -> str:
        """A local variable's name, bare or quoted."""
        return line.string()[0] if line.next.kind == "string" else line.name("the name of a local variable").text

    def zone(self, line: TokenLine, name: Token) -> tuple[int, Token]:
        """``NAME`` or ``NAME of player N``: the zone's slot."""
        decl = self.catalog.zones.get(name.text)
        if decl is None:
            raise LineProblem(name, f"no zone '{name.text}' in this game", self.suggest(name.text, self.catalog.zones))
        if decl.owner is None:
            return self.catalog.zone_slot[name.text], name
        if not line.accept("of"):
            raise LineProblem(line.next, f"'{name.text}' is a zone of each player: write '{name.text} of player N'")
        return self.catalog.zone_slot[name.text] + self.seat(line), name

    def space(self, line: TokenLine, board_name: Token) -> boards.Space:
        board = self.catalog.boards.get(board_name.text)
        if board is None:
            raise LineProblem(board_name, f"no board '{board_name.text}' in this game",
                              self.suggest(board_name.text, self.catalog.boards))
        line.expect(".")
        return self._space_on(board, line)

    def _space_on(self, board: boards.Board, line: TokenLine) -> boards.Space:
        token = line.next
        if token.kind == "string":
            text = line.string()[0]
        elif token.kind in ("name", "int"):
            text = line.take().text
        else:
            raise LineProblem(token, f"expected the name of a space of board {board.name}, found {shown(token)}")
        if text not in board:
            raise LineProblem(token, f"board {board.name} has no space {text!r}",
                              self.suggest(text, [s.name for s in board.spaces]))
        return board.space(text)

    def component_ref(self, line: TokenLine, type_name: Token) -> ComponentRef:
        if type_name.text not in self.catalog.component_types:
            raise LineProblem(type_name, f"no component type '{type_name.text}' in this game",
                              self.suggest(type_name.text, self.catalog.component_types))
        label, token = line.string()
        if (type_name.text, label) not in self.names.copies:
            labels = [lab for (t, lab) in self.names.copies if t == type_name.text]
            raise LineProblem(token, f"no {type_name.text} {quoted(label)} in this game", self.suggest(label, labels))
        number = None
        if line.accept("@"):
            number, at = line.integer("a copy number (1, 2, ...)")
            have = len(self.names.copies[(type_name.text, label)])
            if not 1 <= number <= have:
                raise LineProblem(at, f"no copy {number} of {type_name.text} {quoted(label)}: there "
                                      f"{'is' if have == 1 else 'are'} {have}")
        return ComponentRef(type_name.text, label, number, type_name, self.line)

    # ---- values
    def value(self, line: TokenLine) -> Json:
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

    def _bracketed(self, line: TokenLine) -> Json:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise LineProblem(line.next, f"values nested more than {MAX_NESTING} deep")
            return self._list_or_map(line)
        finally:
            self.depth -= 1

    def _list_or_map(self, line: TokenLine) -> Json:
        if line.accept("["):
            return self._items(line, "]", lambda: self.value(line))
        if line.accept("{"):
            return {"map": self._items(line, "}", lambda: self._pair(line))}
        raise LineProblem(line.next, f"expected a value, found {shown(line.next)}")

    def _items(self, line: TokenLine, close: str, item: Any) -> list[Json]:
        items: list[Json] = []
        if line.accept(close):
            return items
        while True:
            items.append(item())
            if line.accept(close):
                return items
            line.expect(",")

    def _pair(self, line: TokenLine) -> Json:
        key = self.value(line)
        line.expect(":")
        return [key, self.value(line)]

    def _named_value(self, line: TokenLine, word: Token) -> Json:
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
                raise LineProblem(enum, f"no enumeration '{enum.text}'", self.suggest(enum.text, self.catalog.enums))
            return {"enum_type": enum.text}
        if line.next.text == "." and line.next.kind == "punct":
            return self._dotted(line, word)
        if line.next.kind == "string":
            cid = self.exact_id(self.component_ref(line, word))
            return {"component": cid}
        return self._enum_value(word)

    def _ref(self, kind: str, name: Token) -> Json:
        tables: dict[str, dict[str, Any]] = {"supply": self.catalog.supplies, "die": self.catalog.dice,
                                             "board": self.catalog.boards}
        table = tables[kind]
        if name.text not in table:
            raise LineProblem(name, f"no {kind} '{name.text}' in this game", self.suggest(name.text, table))
        return {"ref": kind, "name": name.text}

    def _dotted(self, line: TokenLine, word: Token) -> Json:
        """``BOARD.SPACE`` or ``ENUM.VALUE``."""
        if word.text in self.catalog.boards:
            space = self.space(line, word)
            return {"board": space.board, "space": space.name}
        enum = self.catalog.enums.get(word.text)
        if enum is None:
            raise LineProblem(word, f"no board or enumeration '{word.text}' in this game",
                              self.suggest(word.text, [*self.catalog.boards, *self.catalog.enums]))
        line.expect(".")
        value = line.name(f"a value of {enum.name}")
        if value.text not in {v.name for v in enum.values}:
            raise LineProblem(value, f"enumeration {enum.name} has no value '{value.text}'",
                              self.suggest(value.text, [v.name for v in enum.values]))
        return {"enum": enum.name, "value": value.text}

    def _enum_value(self, word: Token) -> Json:
        found = self.names.enum_values.get(word.text, [])
        if len(found) == 1:
            return {"enum": found[0].type, "value": found[0].name}
        if found:
            raise LineProblem(word, f"'{word.text}' is a value of several enumerations: write "
                                    + " or ".join(f"{v.type}.{v.name}" for v in found))
        raise LineProblem(word, f"unknown value '{word.text}'", self.suggest(word.text, self.names.enum_values))


def _fits(value: Json, declared: ast.TypeRef, catalog: Catalog) -> bool:
    """Whether saved data ``value`` fits a declared type (types the engine does not check
    here, such as a die, fit anything)."""
    if value is None:
        return declared.optional
    name = declared.name
    if name == "list":
        return isinstance(value, list) and (declared.item is None or all(_fits(v, declared.item, catalog)
                                                                          for v in value))
    if name == "map":
        return _map_fits(value, declared, catalog)
    simple = _SIMPLE_TYPES.get(name)
    if simple is not None:
        return simple(value)
    if name in catalog.enums:
        return isinstance(value, dict) and value.get("enum") == name
    if name in catalog.component_types:
        cid = value.get("component") if isinstance(value, dict) else None
        return isinstance(cid, int) and 0 <= cid < len(catalog.components) and catalog.components[cid].type == name
    return True


def _map_fits(value: Json, declared: ast.TypeRef, catalog: Catalog) -> bool:
    """Whether saved data ``value`` is a map (``{"map": [[key, value]...]}``) whose keys and
    values fit ``declared``'s."""
    pairs = value.get("map") if isinstance(value, dict) else None
    if not isinstance(pairs, list):
        return False
    return all(isinstance(pair, list) and len(pair) == 2
               and (declared.key is None or _fits(pair[0], declared.key, catalog))
               and (declared.item is None or _fits(pair[1], declared.item, catalog)) for pair in pairs)


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
