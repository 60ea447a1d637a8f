"""The AST of a ruleset's presentation: ``present { ... }`` (docs/language.md, "Presentation").

How a game looks to its players, kept apart from its rules: display names, colours and
symbols of enum values and component kinds, the face of a card, the labels of a board's
spaces, where a component is drawn, and which variables players are shown. The engine never
reads it; the hosts (the seat's view, the terminal, the web page) do.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import field

from rulelang.ast import Decl, Node
from rulelang.diagnostics import Span
from rulelang.nodes import node


@node
class PresentProperty(Node):
    """``NAME value``: one property of a presented thing; the value a text (``quoted``) or a name."""
    name: str
    value: str
    quoted: bool
    value_span: Span | None = field(default=None, compare=False, repr=False)


@node
class PresentLook(Node):
    """``target[.member] { property ... }``: how one enum value (``colour.red``), component
    kind (``card``), board (``track``) or value of a board's colouring attribute
    (``track.port``) looks."""
    target: str
    member: str | None
    properties: tuple[PresentProperty, ...]
    target_span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def title(self) -> str:
        """The target as written: ``colour.red`` or ``card``."""
        return self.target if self.member is None else f"{self.target}.{self.member}"

    def value(self, name: str) -> str | None:
        """The value of property ``name`` (the last one written), or None."""
        found = [p.value for p in self.properties if p.name == name]
        return found[-1] if found else None

    def name_value(self, name: str) -> str | None:
        """The value of property ``name`` where it is written as a name (a field, a zone, an
        attribute: the last one written), or None."""
        found = [p.value for p in self.properties if p.name == name and not p.quoted]
        return found[-1] if found else None


@node
class PresentShow(Node):
    """``show a, b, c``: variables shown to players (the others are not, once one is named)."""
    names: tuple[str, ...]
    name_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)


@node
class PresentDecl(Decl):
    """``present { ... }``: the whole presentation of a ruleset (one block; a variant's
    ``override present`` replaces its base's)."""
    looks: tuple[PresentLook, ...] = ()
    shows: tuple[PresentShow, ...] = ()
    kind = "present"

    def colouring_attributes(self, boards: Collection[str]) -> dict[str, str]:
        """Each of ``boards``' colouring attribute as the block declares it (``BOARD { colour
        ATTRIBUTE }``, the last one written): what the checker checks values against and what
        the hosts colour spaces by."""
        return {look.target: attribute for look in self.looks
                if look.member is None and look.target in boards
                for attribute in [look.name_value("colour")] if attribute is not None}

    @property
    def shown_variables(self) -> tuple[str, ...] | None:
        """The variables named by ``show`` entries, or None when there is none (every
        visible variable is shown, as without a presentation)."""
        if not self.shows:
            return None
        return tuple(name for show in self.shows for name in show.names)
