"""The abstract syntax tree: frozen dataclasses, each with the span of its source text."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import TypeAlias, TypeVar

from rulelang.diagnostics import Span


@dataclass(frozen=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ---- expressions ----

@dataclass(frozen=True)
class Literal(Node):
    value: int | str | bool | None


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class CompClause(Node):
    """``for var in source [if condition]`` inside a comprehension or generator."""
    var: str
    source: Expr
    condition: Expr | None


@dataclass(frozen=True)
class Comprehension(Node):
    element: Expr
    clauses: tuple[CompClause, ...]


@dataclass(frozen=True)
class Generator(Node):
    """``element for x in source [if c] [by key [desc]]``: only as a call argument."""
    element: Expr
    clauses: tuple[CompClause, ...]
    key: Expr | None = None
    descending: bool = False


@dataclass(frozen=True)
class Attribute(Node):
    target: Expr
    name: str


@dataclass(frozen=True)
class Index(Node):
    target: Expr
    index: Expr


@dataclass(frozen=True)
class KeywordArg(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class BinaryOp(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp(Node):
    op: str
    operand: Expr


@dataclass(frozen=True)
class IfExpr(Node):
    condition: Expr
    then: Expr
    otherwise: Expr


Expr: TypeAlias = (Literal | Name | ListExpr | Comprehension | Generator | Attribute | Index
                   | KeywordArg | Call | BinaryOp | UnaryOp | IfExpr)


# ---- types ----

@dataclass(frozen=True)
class TypeRef(Node):
    name: str                 # "int", "bool", "player", "list", an enum or component name
    optional: bool = False
    item: TypeRef | None = None   # element type of a list

    def __str__(self) -> str:
        base = f"list[{self.item}]" if self.name == "list" else self.name
        return base + ("?" if self.optional else "")


# ---- statements ----

@dataclass(frozen=True)
class Block(Node):
    statements: tuple[Stmt, ...]


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Roll(Node):
    """``let x = roll die``: a chance event."""
    name: str
    die: str


@dataclass(frozen=True)
class RandomPick(Node):
    """``let x = random expr``: a chance event over the items of a list."""
    name: str
    source: Expr


@dataclass(frozen=True)
class CallLet(Node):
    name: str
    procedure: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Assign(Node):
    target: Expr
    op: str          # "=", "+=", "-="
    value: Expr


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True)
class For(Node):
    var: str
    source: Expr
    body: Block


@dataclass(frozen=True)
class While(Node):
    condition: Expr
    body: Block


@dataclass(frozen=True)
class Repeat(Node):
    """``repeat { }`` (until ``break``) or ``repeat until c { }`` (checked after each pass)."""
    body: Block
    until: Expr | None = None


@dataclass(frozen=True)
class Break(Node):
    pass


@dataclass(frozen=True)
class Continue(Node):
    pass


@dataclass(frozen=True)
class Prompt(Node):
    """``prompt "text with {placeholders}"`` of a choice: ``parts`` are the placeholders'
    expressions (a name, or a name with attributes: ``{p}``, ``{c.rank}``), in order."""
    text: str
    parts: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Choose(Node):
    var: str
    source: Expr
    chooser: Expr | None
    otherwise: Block | None
    prompt: Prompt | None = None


@dataclass(frozen=True)
class Option(Node):
    label: str
    condition: Expr | None
    body: Block


@dataclass(frozen=True)
class Menu(Node):
    chooser: Expr
    options: tuple[Option, ...]
    prompt: Prompt | None = None


@dataclass(frozen=True)
class Simultaneous(Node):
    player_var: str
    players: Expr
    var: str
    source: Expr
    prompt: Prompt | None = None


@dataclass(frozen=True)
class Move(Node):
    what: Expr
    to: Expr


@dataclass(frozen=True)
class Shuffle(Node):
    target: Expr


@dataclass(frozen=True)
class Gain(Node):
    amount: Expr
    supply: str
    player: Expr


@dataclass(frozen=True)
class Pay(Node):
    amount: Expr
    supply: str
    payer: Expr
    payee: Expr | None


@dataclass(frozen=True)
class CallStmt(Node):
    procedure: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Return(Node):
    value: Expr | None


@dataclass(frozen=True)
class Next(Node):
    phase: str


@dataclass(frozen=True)
class EndGame(Node):
    pass


@dataclass(frozen=True)
class Log(Node):
    """``log MESSAGE [to PLAYERS]``: a line of the log, for everyone or for some players only."""
    message: Expr
    audience: Expr | None = None


@dataclass(frozen=True)
class Reveal(Node):
    """``reveal VALUE to PLAYERS``: those players alone see the value (in their log)."""
    value: Expr
    audience: Expr


Stmt: TypeAlias = (Reveal | Let | Roll | RandomPick | CallLet | Assign | If | For | While | Repeat | Break | Continue
                   | Choose | Menu | Simultaneous | Move | Shuffle | Gain | Pay | CallStmt | Return | Next
                   | EndGame | Log)


# ---- declarations ----

@dataclass(frozen=True)
class Decl(Node):
    name: str
    override: bool = field(default=False, kw_only=True)
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)

    kind = "declaration"


@dataclass(frozen=True)
class Setting(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class GameDecl(Decl):
    title: str = ""
    settings: tuple[Setting, ...] = ()
    kind = "game"


@dataclass(frozen=True)
class Extends(Decl):
    path: str = ""
    kind = "extends"


@dataclass(frozen=True)
class EnumDecl(Decl):
    values: tuple[str, ...] = ()
    kind = "enum"


@dataclass(frozen=True)
class FieldDecl(Node):
    name: str
    type: TypeRef


@dataclass(frozen=True)
class ComponentDecl(Decl):
    fields: tuple[FieldDecl, ...] = ()
    shown_as: str | None = None
    kind = "component"


@dataclass(frozen=True)
class DeckDecl(Decl):
    owner: str | None = None       # "player" for one deck per player
    type: TypeRef | None = None
    zone: str = ""
    contents: Expr | None = None
    size: int | None = None        # the declared number of components (per player for a player deck)
    kind = "deck"


@dataclass(frozen=True)
class ZoneDecl(Decl):
    owner: str | None = None
    type: TypeRef | None = None
    visibility: str | None = None
    kind = "zone"


@dataclass(frozen=True)
class VarDecl(Decl):
    owner: str | None = None       # None (global), "player" or "space"
    type: TypeRef | None = None
    initial: Expr | None = None
    visibility: str | None = None
    kind = "var"


@dataclass(frozen=True)
class SupplyDecl(Decl):
    total: Expr | None = None
    visibility: str | None = None
    kind = "supply"


@dataclass(frozen=True)
class DieDecl(Decl):
    faces: Expr | None = None
    kind = "die"


@dataclass(frozen=True)
class BoardDecl(Decl):
    source: Expr | None = None
    kind = "board"


@dataclass(frozen=True)
class Param(Node):
    name: str
    type: TypeRef


@dataclass(frozen=True)
class SetupDecl(Decl):
    body: Block | None = None
    kind = "setup"


@dataclass(frozen=True)
class PhaseDecl(Decl):
    body: Block | None = None
    kind = "phase"


@dataclass(frozen=True)
class ProcedureDecl(Decl):
    params: tuple[Param, ...] = ()
    body: Block | None = None
    kind = "procedure"


@dataclass(frozen=True)
class FunctionDecl(Decl):
    """``function NAME(params) -> type = expr``: a pure function, usable in any expression."""
    params: tuple[Param, ...] = ()
    result: TypeRef | None = None
    body: Expr | None = None
    kind = "function"


@dataclass(frozen=True)
class ScoreDecl(Decl):
    """``score p = expr``: ``name`` is the player variable."""
    value: Expr | None = None
    kind = "score"


@dataclass(frozen=True)
class TiebreakDecl(Decl):
    value: Expr | None = None
    kind = "tiebreak"


@dataclass(frozen=True)
class InvariantDecl(Decl):
    condition: Expr | None = None
    kind = "invariant"


D = TypeVar("D", bound=Decl)


@dataclass(frozen=True)
class Ruleset(Node):
    """One parsed file: its declarations in source order."""
    path: str
    declarations: tuple[Decl, ...]

    def of_kind(self, cls: type[D]) -> list[D]:
        """The declarations of class ``cls``, in source order."""
        return [d for d in self.declarations if isinstance(d, cls)]



# ---- scenario test files (NAME.tests) ----

@dataclass(frozen=True)
class Step(Node):
    """One step of a scenario; each kind below says what it does."""


@dataclass(frozen=True)
class SetPlayers(Step):
    """``players N``: the scenario's player count (before any step that plays)."""
    count: int


@dataclass(frozen=True)
class SetSeed(Step):
    """``seed N``: the seed of the game and of the chance outcomes no step names."""
    seed: int


@dataclass(frozen=True)
class FromPosition(Step):
    """``position "FILE"``: start from a position file (see ``State.to_position``)."""
    path: str


@dataclass(frozen=True)
class Given(Step):
    """``given { statements }``: change the state with the ruleset's own statements."""
    body: Block


@dataclass(frozen=True)
class Play(Step):
    """``play [PLAYER] "label", ... [prompt "text"]``: take actions by their labels
    (``chance`` as the player names chance outcomes); the prompt, if given, is checked first."""
    player: str | None
    labels: tuple[str, ...]
    prompt: str | None


@dataclass(frozen=True)
class Expect(Step):
    """``expect EXPR``: a condition that must hold now."""
    condition: Expr


@dataclass(frozen=True)
class ExpectOffered(Step):
    """``expect [not] offered [PLAYER] "label", ...``; ``expect options [PLAYER] ...`` (exactly
    these, in this order: ``exact``)."""
    player: str | None
    labels: tuple[str, ...]
    offered: bool = True
    exact: bool = False


@dataclass(frozen=True)
class ExpectPrompt(Step):
    """``expect prompt [PLAYER] "text"``: what that player is asked now."""
    player: str | None
    text: str


@dataclass(frozen=True)
class ExpectLog(Step):
    """``expect [not] log "text"``: a line of the log holds the text (``not``: none does)."""
    text: str
    present: bool = True


@dataclass(frozen=True)
class ExpectSeen(Step):
    """``expect [not] seen by PLAYER EXPR``: the components EXPR gives (one, a list or a
    zone's) are (``seen``) or are not shown in that player's observation."""
    player: str
    value: Expr
    seen: bool = True


@dataclass(frozen=True)
class Scenario(Node):
    """``scenario "name" { steps }``."""
    name: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Use(Node):
    """``use "FILE" [except "NAME", ...]`` or ``use "FILE" only "NAME", ...``: the scenarios
    of another test file, less those named (``only``: just those)."""
    path: str
    names: tuple[str, ...] = ()
    only: bool = False


@dataclass(frozen=True)
class TestsFile(Node):
    """A scenario test file: the ruleset it tests (None: the ``.rules`` file of the same
    name), the default player count, the test files it reuses, its scenarios, and the
    steps of its ``background`` block, which run first in each of its scenarios."""
    path: str
    ruleset: str | None
    players: int | None
    uses: tuple[Use, ...]
    scenarios: tuple[Scenario, ...]
    background: tuple[Step, ...] = ()   # steps that open every scenario of the file


def children(node: Node) -> Iterator[Node]:
    """The nodes directly below ``node``, in field order (inside tuples and pairs too)."""
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            for part in item if isinstance(item, tuple) else (item,):
                if isinstance(part, Node):
                    yield part
