"""W310: hidden information written where others read it.

A public ``log`` line (no ``to``) is read by every player, a choice's prompt by its
chooser. Either leaks what its text reads from a zone, a variable or a supply that some of
those readers may not see:

- the components of a zone that is not ``visible all`` (its ``top``, an item, a loop over
  it, the zone itself shown), except its size where the count is visible (``owner``,
  ``others``, ``count``);
- a player variable or a supply that is ``visible owner`` (``p.secret``, ``p.money``), or any
  variable or supply that is ``visible none``.

A reader who owns what is read is no leak: a prompt of a choice ``by p`` may show ``p.hand``.
A zone ``visible others`` (held facing outward) is the other way round: every player but its
owner sees it, so the public log leaks it (to its owner) and a prompt leaks it only where its
chooser is plainly the owner (``by p`` showing ``p.hand``).
The check reads the text as written: a value taken out of a hidden zone into a local name
first (``let c = top(draw)``) is not followed, so nothing correct is reported.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rulelang import ast
from rulelang.check.declared import allowed_visibilities
from rulelang.check.tree import local_names, walk
from rulelang.diagnostics import Diagnostic

_SHOWN_SIZE = {"owner", "others", "count"}   # zone visibilities that let every player see how many


@dataclass(frozen=True)
class _Hidden:
    """A declaration whose contents some players may not see, and who may."""

    decl: ast.ZoneDecl | ast.VarDecl | ast.SupplyDecl
    visibility: str          # 'owner', 'others', 'count' or 'none'
    per_player: bool         # read as PLAYER.NAME; the owner may see it where 'owner', not where 'others'

    def describe(self) -> str:
        return f"{self.decl.kind} '{self.decl.name}' is 'visible {self.visibility}' (line {self.decl.span.line})"


def information_leaks(declarations: Sequence[ast.Decl]) -> Iterator[Diagnostic]:
    """W310 at each read of hidden information in a public log line or a prompt."""
    everywhere = _hidden_things(declarations)
    if not everywhere:
        return
    for decl in declarations:
        local = local_names(decl)   # (a local name hides a declaration of the same name)
        hidden = {key: thing for key, thing in everywhere.items() if key[0] or key[1] not in local}
        for node in walk(decl):
            if isinstance(node, ast.Log) and node.audience is None:
                yield from _leaks(node.message, hidden, None, "the public log, which every player reads,")
            elif isinstance(node, (ast.Choose, ast.Menu)) and node.prompt is not None:
                for part in node.prompt.parts:
                    yield from _leaks(part, hidden, node.chooser, "this prompt, which its chooser reads,")


def _hidden_things(declarations: Iterable[ast.Decl]) -> dict[tuple[bool, str], _Hidden]:
    """(read as an attribute, name) -> what hides it, for names declared only once."""
    found: dict[tuple[bool, str], list[_Hidden | None]] = {}
    for d in declarations:
        if isinstance(d, (ast.ZoneDecl, ast.VarDecl, ast.SupplyDecl)):
            per_player = d.owner == "player" if not isinstance(d, ast.SupplyDecl) else True
            as_attribute = d.owner is not None if not isinstance(d, ast.SupplyDecl) else True
            found.setdefault((as_attribute, d.name), []).append(_hidden_of(d, per_player))
        elif isinstance(d, ast.ComponentDecl):
            for f in d.fields:
                found.setdefault((True, f.name), []).append(None)
    return {key: kinds[0] for key, kinds in found.items() if len(kinds) == 1 and kinds[0] is not None}


def _hidden_of(decl: ast.ZoneDecl | ast.VarDecl | ast.SupplyDecl, per_player: bool) -> _Hidden | None:
    """What hides ``decl``, if anything (a visibility it cannot have is E205, not this)."""
    visibility = decl.visibility_or_default if isinstance(decl, ast.ZoneDecl) else decl.visibility or "all"
    hiding = visibility != "all" and visibility in allowed_visibilities(decl)
    return _Hidden(decl, visibility, per_player) if hiding else None


def _leaks(expr: ast.Node, hidden: dict[tuple[bool, str], _Hidden], reader: ast.Expr | None,
           where: str) -> Iterator[Diagnostic]:
    """W310 for each hidden read in ``expr`` that ``reader`` (None: every player) may not see."""
    for node, parent in _with_parents(expr, None):
        found = _read_of(node, hidden)
        if found is None:
            continue
        thing, owner = found
        if _size_only(parent, thing) or _reader_sees(thing, owner, reader):
            continue
        yield Diagnostic("W310", f"{where} shows what some players may not see: {thing.describe()}",
                         node.span, hint="write it with 'log ... to PLAYERS' or 'reveal ... to PLAYERS', "
                                         "or show what everyone may see (its size, a card once played)",
                         notes=(f"{thing.decl.span.file}:{thing.decl.span.line}:{thing.decl.span.column}: "
                                f"{thing.decl.kind} '{thing.decl.name}' is declared here",))


def _reader_sees(thing: _Hidden, owner: ast.Expr | None, reader: ast.Expr | None) -> bool:
    """Whether the reader of a prompt (None: the public log) may see ``thing`` of ``owner``:
    an 'owner' thing that is plainly his, an 'others' zone that is not plainly his."""
    if reader is None:
        return False
    if thing.visibility == "owner":
        return _same(owner, reader)
    return thing.visibility == "others" and not _same(owner, reader)


def _with_parents(node: ast.Node, parent: ast.Node | None) -> Iterator[tuple[ast.Node, ast.Node | None]]:
    """Each node below ``node`` (itself first) with the node above it."""
    yield node, parent
    for child in ast.children(node):
        yield from _with_parents(child, node)


def _read_of(node: ast.Node, hidden: dict[tuple[bool, str], _Hidden]) -> tuple[_Hidden, ast.Expr | None] | None:
    """What ``node`` reads that is hidden, with the expression of its owner, or None."""
    if isinstance(node, ast.Name):
        thing = hidden.get((False, node.name))
        return (thing, None) if thing is not None else None
    if isinstance(node, ast.Attribute):
        thing = hidden.get((True, node.name))
        return (thing, node.target) if thing is not None else None
    return None


def _size_only(parent: ast.Node | None, thing: _Hidden) -> bool:
    """Whether the read is the zone's size where every player sees how many it holds."""
    return (isinstance(thing.decl, ast.ZoneDecl) and thing.visibility in _SHOWN_SIZE
            and isinstance(parent, ast.Call) and parent.function == "size")


def _same(a: ast.Expr | None, b: ast.Expr | None) -> bool:
    """Whether two expressions are plainly the same player: the same name, or the same
    attributes of the same name."""
    key_a, key_b = _key(a), _key(b)
    return key_a is not None and key_a == key_b


def _key(expr: ast.Expr | None) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.Attribute):
        inner = _key(expr.target)
        return None if inner is None else f"{inner}.{expr.name}"
    return None
