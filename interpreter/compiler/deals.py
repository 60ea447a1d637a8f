"""A deal written as one call: a 'for' (or a nest of them, each body the next loop alone)
whose innermost body only moves the top of a zone the rules name to a zone of each round.

    for p in players { move top(deck) to p.hand }
    for i in 1..each { for p in line { move top(draw_pile) to p.hand } }
    for p in players { for i in 1..3 { move top(draw) to p.hand } }

The loop's source is computed once, as the loop computes it; the source of an inner loop is
a constant list (``players``, a range of two numbers) or a global variable, read once, which
the moves cannot change. Where all the rounds fit within the step budget, the zone holds a
component for each move and no event is kept, the rounds are counted at once and the
components dealt by one call (``tables/dealing.deal_tops``: ``State.move_top`` of each, in
the loops' order), and each loop's variable left holding its last item, as the loops leave
it. Only between zones where the source's components may enter (a zone's declared component
type: moves.py). Otherwise the loops run as written (procedures.py), so E603 comes at the same round,
and "nothing to move" at the same move, with the same state.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from rulelang import ast
from rulelang.check.tree import walk

from ..tables.builtins import FREE_WORK
from ..tables.dealing import deal_rounds, deal_tops
from .integers import short_list
from .moves import only_type, players_zone_slot, slot_holds, top_of, zone_slot
from .ranges import range_in_place

if TYPE_CHECKING:
    from .procedures import ProcedureWriter


class _Level(NamedTuple):
    """One loop of a deal: the list of its items (a local or a constant), that list's length
    where it is known now, and whether its kind is to be tested where it runs."""

    items: str
    length: int | None
    tested: bool


def loop_or_deal(writer: ProcedureWriter, node: ast.For, items: str, indent: int) -> None:
    """Write ``node``, a loop over ``items`` (its source computed once): as a deal where it
    is one, with the loops themselves (``writer.for_over``) as the way taken otherwise."""
    loops = _nest(node, writer)
    if loops is None:
        writer.for_over(node, items, indent)
        return
    move = loops[-1].body.statements[0]
    assert isinstance(move, ast.Move)
    scope, texts = writer.learnt_scope(), writer.compiler.writer
    module, span = writer.module, node.span
    zone = top_of(move.what, writer.cat)
    assert zone is not None
    source = zone_slot(texts.write(zone, scope), module)
    listed = module.fresh("_d")
    writer.emit(indent, f"{listed} = {range_in_place(items, module)}", span)
    levels = [_Level(listed, None, False)]
    for loop in loops[1:]:
        level = _inner_level(writer, loop.source, indent)
        if level is None:
            writer.for_over(node, listed, indent)
            return
        levels.append(level)
    names = [module.fresh("_v") for _ in loops]   # (each loop's item, where the slots are written)
    for name, loop in zip(names, loops, strict=True):
        scope.python[loop.var] = name
        texts.bind_item_kind(name, loop.source, scope)
    to = texts.write(move.to, scope)
    slot = zone_slot(to, module) or players_zone_slot(to, module)
    if source is None or slot is None or slot == source or not _one_type(writer, source, slot):
        writer.for_over(node, listed, indent)
        return
    rounds = module.fresh("_n")
    tests = ["st.event_log is None", *(f"type({lv.items}) is tuple and len({lv.items}) <= {FREE_WORK}"
                                         for lv in levels if lv.tested),
             f"st.rounds + ({rounds} := {_rounds(levels)}) <= st.max_steps",
             f"len(st.zones[{source}]) >= {_product(levels)}"]
    writer.emit(indent, f"if not ({' and '.join(tests)}):", span)
    writer.for_over(node, levels[0].items, indent + 1)
    writer.emit(indent, "else:", span)
    writer.emit(indent + 1, f"st.rounds += {rounds}", span)
    for depth, line in _dealing(writer, slot, names, levels, source, module.fresh("_sl")):
        writer.emit(indent + 1 + depth, line, span)
    for depth, (level, loop) in enumerate(zip(levels, loops, strict=True)):   # (each variable as its loop leaves it)
        writer.emit(indent + 1 + depth, f"if {level.items}:", span)
        var = writer.local(loop.var)
        writer.emit(indent + 2 + depth, f"{var} = {level.items}[-1]", span)
        writer.bound(indent + 2 + depth, var, span)


def _one_type(writer: ProcedureWriter, source: str, slot: str) -> bool:
    """Whether every component of the zone in ``source`` may enter each zone ``slot`` gives
    (``Catalog.zone_holds``: a zone of any type, or of the type of the source's): else the
    loops run as written, where each move is tested (moves.py)."""
    cat, module = writer.cat, writer.module
    if only_type(cat) is not None:
        return True
    holds, held = slot_holds(slot, module, cat), slot_holds(source, module, cat)
    return holds is not None and held is not None and all(h is None or {h} == held for h in holds)


def _nest(node: ast.For, writer: ProcedureWriter) -> list[ast.For] | None:
    """The loops of ``node`` if it is a deal's: each body is the next loop alone, the last
    one's a 'move top(ZONE) to ...' whose zone names none of their variables; else None."""
    loops = [node]
    while True:
        body = loops[-1].body.statements
        if len(body) != 1:
            return None
        inner = body[0]
        if isinstance(inner, ast.For):
            loops.append(inner)
            continue
        zone = top_of(inner.what, writer.cat) if isinstance(inner, ast.Move) else None
        names = {loop.var for loop in loops}
        if zone is None or len(names) < len(loops) \
                or any(isinstance(n, ast.Name) and n.name in names for n in walk(zone)):
            return None
        inner_sources = [n for loop in loops[1:] for n in walk(loop.source)]
        return None if any(isinstance(n, ast.Name) and n.name in names for n in inner_sources) else loops


def _inner_level(writer: ProcedureWriter, source: ast.Expr, indent: int) -> _Level | None:
    """The items of an inner loop's ``source``, read once before the loops, if the rounds
    cannot change them and reading them can neither fail nor charge work: a short constant
    list (``players``), a range of two numbers (a constant), or a global variable's value
    (a short list: tested where it runs, as ``as_list`` gives it back at no charge)."""
    scope, cat = writer.learnt_scope(), writer.cat
    if short_list(cat, source, scope):
        return _Level(writer.expr(source), None, False)
    if isinstance(source, ast.BinaryOp) and source.op == ".." and _number(source.left) is not None \
            and _number(source.right) is not None:
        low, high = _number(source.left), _number(source.right)
        assert low is not None and high is not None
        if high - low >= FREE_WORK:
            return None
        numbers = tuple(range(low, high + 1))
        return _Level(writer.module.constant(numbers, f"<{low}..{high}>"), len(numbers), False)
    if isinstance(source, ast.Name) and source.name in cat.global_vars and not scope.is_local(source.name):
        local = writer.module.fresh("_d")
        writer.emit(indent, f"{local} = {writer.expr(source)}", source.span)
        return _Level(local, None, True)
    return None


def _number(node: ast.Expr) -> int | None:
    return node.value if isinstance(node, ast.Literal) and type(node.value) is int else None


def _length(level: _Level) -> str:
    return str(level.length) if level.length is not None else f"len({level.items})"


def _rounds(levels: list[_Level]) -> str:
    """The steps the loops count: a step a round of each, ``n1 + n1 * n2 + ...``."""
    text = _length(levels[-1])
    for level in reversed(levels[:-1]):
        text = f"{_length(level)} * (1 + {text})"
    return text


def _product(levels: list[_Level]) -> str:
    """The moves: one a round of the innermost loop."""
    return " * ".join(map(_length, levels))


def _dealing(writer: ProcedureWriter, slot: str, names: list[str], levels: list[_Level], source: str,
             slots: str) -> list[tuple[int, str]]:
    """The lines (with their depth) that deal: the zones dealt to in the loops' order, from
    the deepest loop whose item ``slot`` reads, the loops under it repeating each; where that
    is the innermost loop (or none), a round's zones and how many rounds."""
    module = writer.module
    rounds = module.constant(deal_rounds, "<the top of a zone dealt to each zone of a round, round after round>")
    used = [k for k, name in enumerate(names) if re.search(rf"\b{name}\b", slot)]
    if not used:
        return [(0, f"{rounds}(st, {source}, [{slot}], {_product(levels)})")]
    deepest = used[-1]
    if deepest == len(levels) - 1:
        outer = _product(levels[:-1]) if len(levels) > 1 else "1"
        return [(0, f"{rounds}(st, {source}, [{slot} for {names[-1]} in {levels[-1].items}], {outer})")]
    tops = module.constant(deal_tops, "<the top of a zone dealt to each zone in turn: State.move_top of each>")
    lines = [(0, f"{slots} = []"), *((depth, f"for {names[depth]} in {levels[depth].items}:")
                                      for depth in range(deepest + 1))]
    repeated = f"[{slot}] * ({_product(levels[deepest + 1:])})"
    return [*lines, (deepest + 1, f"{slots} += {repeated}"), (0, f"{tops}(st, {source}, {slots})")]
