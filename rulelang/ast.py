"""The abstract syntax tree: frozen dataclasses (``rulelang.nodes.node``), each with the span of its source text."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field, fields
from typing import TypeAlias, TypeVar

from rulelang.diagnostics import Span
from rulelang.nodes import node


@node
class Node:
    span: Span = field(compare=False, repr=False)


# ---- expressions ----

@node
class Literal(Node):
    value: int | str | bool | None


@node
class Name(Node):
    name: str


@node
class ListExpr(Node):
    items: tuple[Expr, ...]


@node
class CompClause(Node):
    """``for var in source [if condition]`` inside a comprehension or generator."""
    var: str
    source: Expr
    condition: Expr | None


@node
class Comprehension(Node):
    element: Expr
    clauses: tuple[CompClause, ...]


@node
class Generator(Node):
    """``element for x in source [if c] [by key [desc]]``: only as a call argument."""
    element: Expr
    clauses: tuple[CompClause, ...]
    key: Expr | None = None
    descending: bool = False


@node
class Attribute(Node):
    target: Expr
    name: str


@node
class Index(Node):
    target: Expr
    index: Expr


@node
class KeywordArg(Node):
    name: str
    value: Expr


@node
class Call(Node):
    function: str
    args: tuple[Expr, ...]


@node
class BinaryOp(Node):
    op: str
    left: Expr
    right: Expr


@node
class UnaryOp(Node):
    op: str
    operand: Expr


@node
class IfExpr(Node):
    condition: Expr
    then: Expr
    otherwise: Expr


Expr: TypeAlias = (Literal | Name | ListExpr | Comprehension | Generator | Attribute | Index
                   | KeywordArg | Call | BinaryOp | UnaryOp | IfExpr)


# ---- types ----

@node
class TypeRef(Node):
    name: str                 # "int", "bool", "player", "list", "map", an enum or component name
    optional: bool = False
    item: TypeRef | None = None   # element type of a list, value type of a map
    key: TypeRef | None = None    # key type of a map

    def __str__(self) -> str:
        if self.name == "map":
            base = f"map[{self.key}, {self.item}]"
        else:
            base = f"list[{self.item}]" if self.name == "list" else self.name
        return base + ("?" if self.optional else "")


# ---- statements ----

@node
class Block(Node):
    statements: tuple[Stmt, ...]


@node
class Let(Node):
    name: str
    value: Expr


@node
class Roll(Node):
    """``let x = roll die``: a chance event."""
    name: str
    die: str


@node
class RandomPick(Node):
    """``let x = random expr``: a chance event over the items of a list."""
    name: str
    source: Expr


@node
class CallLet(Node):
    name: str
    procedure: str
    args: tuple[Expr, ...]


@node
class Assign(Node):
    target: Expr
    op: str          # "=", "+=", "-="
    value: Expr


@node
class If(Node):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@node
class For(Node):
    var: str
    source: Expr
    body: Block


@node
class While(Node):
    condition: Expr
    body: Block


@node
class Repeat(Node):
    """``repeat { }`` (until ``break``) or ``repeat until c { }`` (checked after each pass)."""
    body: Block
    until: Expr | None = None


@node
class Break(Node):
    pass


@node
class Continue(Node):
    pass


@node
class Prompt(Node):
    """``prompt "text with {placeholders}"`` of a choice: ``parts`` are the placeholders'
    expressions (a name, or a name with attributes: ``{p}``, ``{c.rank}``), in order."""
    text: str
    parts: tuple[Expr, ...] = ()


@node
class Choose(Node):
    var: str
    source: Expr
    chooser: Expr | None
    otherwise: Block | None
    prompt: Prompt | None = None
    shown_as: Prompt | None = None   # 'shown as "text with {var.attribute}"': each option's label
    by_position: bool = False   # 'by position': interchangeable copies stay apart (merged otherwise)


@node
class Option(Node):
    label: str
    condition: Expr | None
    body: Block


@node
class Menu(Node):
    chooser: Expr
    options: tuple[Option, ...]
    prompt: Prompt | None = None


@node
class Simultaneous(Node):
    player_var: str
    players: Expr
    var: str
    source: Expr
    prompt: Prompt | None = None
    by_position: bool = False   # 'by position': interchangeable copies stay apart (merged otherwise)


@node
class Move(Node):
    what: Expr
    to: Expr


@node
class Shuffle(Node):
    target: Expr


@node
class Gain(Node):
    amount: Expr
    supply: str
    player: Expr


@node
class Pay(Node):
    amount: Expr
    supply: str
    payer: Expr
    payee: Expr | None


@node
class CallStmt(Node):
    procedure: str
    args: tuple[Expr, ...]


@node
class Return(Node):
    value: Expr | None


@node
class Next(Node):
    phase: str


@node
class EndGame(Node):
    pass


@node
class Log(Node):
    """``log MESSAGE [to PLAYERS]``: a line of the log, for everyone or for some players only."""
    message: Expr
    audience: Expr | None = None


@node
class Narrate(Node):
    """A mark for the narration of the events (``mark``): "quiet" where a ``quiet { ... }``
    block starts, "loud" where it ends (the parser writes the block's statements between
    its two marks, in the block that holds it; ``log MESSAGE instead { ... }`` is the quiet
    block, then ``log MESSAGE``), "heading" before the line of ``log heading MESSAGE``."""
    mark: str


@node
class Turn(Node):
    """``log turn PLAYER``: the turn of ``PLAYER`` begins here, a heading of the narrated
    log (``none``: a turn that is no player's, without a heading); a ruleset that writes one
    says where every turn begins (the narration no longer guesses turns from the choices)."""
    player: Expr


@node
class Reveal(Node):
    """``reveal VALUE to PLAYERS``: those players alone see the value (in their log)."""
    value: Expr
    audience: Expr


@node
class Part(Node):
    """``part NAME { ... }``: statements that run in place, named so that a variant can
    replace them alone (``override part PROCEDURE.NAME { ... }``). The front end splices
    them into their block once variants are merged: no later stage sees a part."""
    name: str
    body: Block
    name_span: Span | None = field(default=None, compare=False, repr=False)


Stmt: TypeAlias = (Reveal | Let | Roll | RandomPick | CallLet | Assign | If | For | While | Repeat | Break | Continue
                   | Choose | Menu | Simultaneous | Move | Shuffle | Gain | Pay | CallStmt | Return | Next
                   | EndGame | Log | Narrate | Turn | Part)


# ---- declarations ----

@node
class Decl(Node):
    name: str
    override: bool = field(default=False, kw_only=True)
    name_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)

    kind = "declaration"


@node
class Setting(Node):
    name: str
    value: Expr


@node
class GameDecl(Decl):
    title: str = ""
    settings: tuple[Setting, ...] = ()
    kind = "game"


@node
class Extends(Decl):
    path: str = ""
    kind = "extends"


@node
class EnumDecl(Decl):
    values: tuple[str, ...] = ()
    kind = "enum"


@node
class FieldDecl(Node):
    name: str
    type: TypeRef


@node
class ComponentDecl(Decl):
    fields: tuple[FieldDecl, ...] = ()
    shown_as: str | None = None
    kind = "component"


@node
class DeckDecl(Decl):
    owner: str | None = None       # "player" for one deck per player
    type: TypeRef | None = None
    zone: str = ""
    contents: Expr | None = None
    size: int | None = None        # the declared number of components (per player for a player deck)
    kind = "deck"


@node
class ZoneDecl(Decl):
    owner: str | None = None
    type: TypeRef | None = None
    visibility: str | None = None
    kind = "zone"

    @property
    def visibility_or_default(self) -> str:
        """The visibility declared, or the default: 'owner' for a per-player zone (a hand),
        'all' for a shared one."""
        return self.visibility or ("owner" if self.owner == "player" else "all")


@node
class VarDecl(Decl):
    owner: str | None = None       # None (global), "player" or "space"
    type: TypeRef | None = None
    initial: Expr | None = None
    visibility: str | None = None
    kind = "var"


@node
class SupplyDecl(Decl):
    total: Expr | None = None
    visibility: str | None = None
    kind = "supply"


@node
class DieDecl(Decl):
    faces: Expr | None = None
    kind = "die"


@node
class BoardDecl(Decl):
    source: Expr | None = None
    kind = "board"


@node
class Param(Node):
    name: str
    type: TypeRef


@node
class SetupDecl(Decl):
    body: Block | None = None
    kind = "setup"


@node
class PhaseDecl(Decl):
    body: Block | None = None
    kind = "phase"


@node
class ProcedureDecl(Decl):
    params: tuple[Param, ...] = ()
    body: Block | None = None
    kind = "procedure"


@node
class FunctionDecl(Decl):
    """``function NAME(params) -> type = expr``: a pure function, usable in any expression."""
    params: tuple[Param, ...] = ()
    result: TypeRef | None = None
    body: Expr | None = None
    kind = "function"


@node
class ScoreDecl(Decl):
    """``score p = expr``: ``name`` is the player variable."""
    value: Expr | None = None
    kind = "score"


@node
class TiebreakDecl(Decl):
    value: Expr | None = None
    kind = "tiebreak"


@node
class InvariantDecl(Decl):
    condition: Expr | None = None
    kind = "invariant"


@node
class PartDecl(Decl):
    """``override part OWNER.PART { ... }``: a variant's new body for the part ``PART`` of
    the setup, phase or procedure ``OWNER`` (``name`` is ``OWNER.PART``; ``name_span`` the
    owner's name, ``part_span`` the part's)."""
    owner: str = ""
    part: str = ""
    body: Block | None = None
    part_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)
    kind = "part"


D = TypeVar("D", bound=Decl)


@node
class Ruleset(Node):
    """One parsed file: its declarations in source order."""
    path: str
    declarations: tuple[Decl, ...]

    def of_kind(self, cls: type[D]) -> list[D]:
        """The declarations of class ``cls``, in source order."""
        return [d for d in self.declarations if isinstance(d, cls)]



def children(node: Node) -> Iterator[Node]:
    """The nodes directly below ``node``, in field order (inside tuples and pairs too)."""
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            for part in item if isinstance(item, tuple) else (item,):
                if isinstance(part, Node):
                    yield part
