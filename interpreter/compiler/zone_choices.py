"""A 'choose' whose list of options may be a zone, written in place (choices.py's
``choose_in_place``): where the list computed is a short zone, its components as a tuple, and
then the decision kept for them, or a new one offered at once (``offered``), without the call
of the choice's ``given``: a zone holds a component once, so the options have no copies to
take out. An empty zone, the decision kept for another player and a long zone (charged by
``as_list``) go through ``given`` as before, with the same checks and errors in the same order.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..tables.builtins import FREE_WORK
from .integers import is_tuple
from .scope import Scope

if TYPE_CHECKING:
    from .lower import Compiler


def zone_offer(chooser: list[str], names: tuple[str, str, str, str], proven_chooser: bool,
               other: list[str], found: str | None = None, certain: bool = False) -> list[str]:
    """The lines that follow the computation of ``_o`` (the options, which may be a zone): a
    short zone read as its components and offered in place, and ``other`` (the lines for any
    other value) else; ``chooser``: the lines that compute the chooser ``_p``; ``names``: the
    constants of the decisions kept by list, ``given``, ``offered`` and the chooser not
    computed yet; ``found``: a line that a kept decision given again runs (kept_until_found.py);
    ``certain``: the options are certainly a zone (``certain_zone``), their class not tested."""
    kept, given, offered, missing = names
    chosen = f"{'' if proven_chooser else 'type(_p) is _Player and '}_p.index == _d.players[0]"
    return [f"if {'' if certain else 'type(_o) is _ZoneRef and '}len(_oz := st.zones[_o.slot]) <= {FREE_WORK}:",
            "    if not _oz:",
            f"        {given}(st, fr, _o, {missing})",
            "    else:",
            "        _o = tuple(_oz)",
            f"        _d = {kept}.get(_o)",
            *("        " + line for line in chooser),
            "        if _d is None:",
            f"            {offered}(st, _o, _p, -1)",
            f"        elif {chosen}:",
            "            st.pending = _d" + ("" if found is None else f"; {found}"),   # (one line: tails.py's count)
            "        else:",
            f"            {given}(st, fr, _o, _p)",
            "else:",
            *("    " + line for line in other)]


def may_be_zone(compiler: Compiler, source: ast.Expr) -> bool:
    """Whether the options ``source`` of a choice may be a zone: not certainly a list from
    the text alone (``is_tuple``)."""
    return not is_tuple(compiler.cat, source, Scope(set(compiler.scope), compiler.key, {}, "0"))


def certain_zone(compiler: Compiler, source: ast.Expr) -> bool:
    """Whether the options ``source`` of a choice are certainly a zone (``zone_read``: a
    declared zone, or ``p.zone`` of a player the text proves one, a held local or parameter
    of the running code included, as ``hold_item`` reads it): its class then goes untested."""
    scope = Scope(set(compiler.scope), compiler.key, {}, "0")
    compiler.writer.held.learn_running(scope)
    return compiler.writer.zone_read(source, scope)
