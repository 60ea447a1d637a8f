"""The locals a running procedure derived from the state, for the information-set sampler
(infostate.py).

A sample permutes hidden components and relabels every reference to them, the locals of the
running procedures included; but a local may hold what a procedure computed from those
components (``let plays = [c for c in p.hand if fits(c)]``, ``let good = any(...)``, the
options of a choice made of them), and a relabelled value of that kind may no longer be what
the same expression gives in the sample: the sample is then a state no real game reaches (a
player is offered "play a card" with no card he may play, and the game stops at a choice
without options). A permutation must keep such locals derived.

The locals checked are those one 'let' alone binds in their procedure (``names_bound_once``:
they only ever hold the value of that 'let', computed when it last ran) and whose value is
now, in the state sampled, the value of the 'let''s expression (``current``): the state they
were derived from still gives them. A sample keeps each of them, with its relabelled value,
as the value of that expression in the sample, or it is not one. (A local the state has
moved on from since, or one that other statements bind too, is not checked.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.check.tree import local_names, names_bound_once, walk
from rulelang.errors import RulelangError

from .unmoved import static_expression

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..game import Game
    from ..model.program import Env, Expr
    from .state import State

Definitions = dict[str, list[tuple[str, "Expr", "Span"]]]
"""By procedure (its frame's name): each local one 'let' alone binds, and that 'let''s
expression, compiled, with its span."""

_DEFINITIONS: dict[int, tuple[Game, Definitions]] = {}
"""``_definitions`` of the last few games, by the id of each (kept with it)."""


def _definitions(game: Game) -> Definitions:
    """The locals of ``game``'s procedures, phases and setup that one 'let' alone binds, of an
    expression a permutation may change the value of; made once a game."""
    kept = _DEFINITIONS.get(id(game))
    if kept is None or kept[0] is not game:
        if len(_DEFINITIONS) >= 16:
            _DEFINITIONS.clear()
        catalog, found = game.catalog, {}
        for decl in catalog.decls:
            if isinstance(decl, ast.ProcedureDecl | ast.PhaseDecl | ast.SetupDecl) and decl.body is not None:
                params = tuple(p.name for p in decl.params) if isinstance(decl, ast.ProcedureDecl) else ()
                once, scope = names_bound_once(params, decl.body), local_names(decl)
                name = "$setup" if isinstance(decl, ast.SetupDecl) else decl.name
                found[name] = [(node.name, game.program.compile_expression(node.value, scope), node.span)
                               for node in walk(decl.body) if isinstance(node, ast.Let) and node.name in once
                               and not static_expression(catalog, node.value)]
        kept = _DEFINITIONS[id(game)] = (game, found)
    return kept[1]


class DerivedLocals:
    """The locals of ``st``'s running procedures that are derived from it now (see the module's
    docstring): by frame, each local with its expression (found when first asked)."""

    def __init__(self, st: State):
        self.state = st
        self._current: list[tuple[int, str, Expr, Span]] | None = None

    @property
    def current(self) -> list[tuple[int, str, Expr, Span]]:
        """(frame, local, expression, span) of each local of ``state`` that holds, now, the value
        of the 'let' that alone binds it."""
        if self._current is None:
            st = self.state
            definitions = _definitions(st.game)
            self._current = [(k, local, value, span) for k, frame in enumerate(st.frames)
                             for local, value, span in definitions.get(frame.name, ())
                             if local in frame.env and _gives(st, frame.env, local, value, span)]
        return self._current

    def kept_in(self, sample: State) -> bool:
        """Whether each local derived in the state is derived in ``sample`` too (a copy of the
        state, with components permuted and references relabelled, not yet run on)."""
        frames = sample.frames
        return all(_gives(sample, frames[k].env, local, value, span) for k, local, value, span in self.current)


def _gives(st: State, env: Env, local: str, value: Expr, span: Span) -> bool:
    """Whether ``value`` computed in ``st`` with the locals ``env`` is what ``env`` holds as
    ``local`` (not if it fails to compute)."""
    try:
        return bool(st.evaluate(value, env, span) == env[local])
    except RulelangError:
        return False
