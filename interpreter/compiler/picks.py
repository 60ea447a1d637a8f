"""The decisions of a simultaneous choice (choices.py lowers the statement): ``Picks``, a class
per statement that holds what the statement fixes, so that a pick makes the next decision by
setting four fields; and the options of each player computed by code written for the
statement (``options_function``), the player variable known to hold a player.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space

from ..model.program import Decision, Env, Frame, Options
from ..model.values import Component, EnumValue, Player, RuleError, Value
from ..tables.builtins import FREE_WORK
from .copies import merging
from .moves import players_zone_slot
from .scope import Scope
from .zone_flow import proof_test

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..state.state import State
    from .lower import Compiler

OptionsOf = Callable[["State", Env, tuple[Player, ...]], dict[int, Options]]
"""``options(st, env, waiting)``: the options of each player of ``waiting``, with their ids."""


class Picks(Decision):
    """The decision of a simultaneous choice, pick by pick: the players still to pick, in
    the group's order (``players``), their options (``per_player``: those of the players who
    picked are never read) and the group (who picked, ``chosen``, is computed from both). What
    the statement fixes (its kind, no single list of options, how it goes on, its prompt and
    span) is its class's, made once (``picks_of``): a pick makes one of these, with four fields
    to set."""

    __slots__ = ("group",)
    kind = "simultaneous"
    asks = "simultaneous"
    options: tuple[Value, ...] = ()
    ids: tuple[int, ...] = ()
    probs: tuple[float, ...] = ()
    shared = False   # (never shared by states: no list of actions kept for one player)
    binds: str | None = None   # (a pick goes on by its method ``resume``, not as data)
    then = 0
    goes: tuple[int, ...] | None = None

    def __init__(self, players: tuple[int, ...] = (), per_player: dict[int, Options] | None = None,
                 group: tuple[Player, ...] = ()):   # (Decision's fixed fields: class attributes here; a
        # statement's own class, picks_of, has object's __init__ instead: its fields set by the pick)
        self.players, self.per_player, self.group = players, per_player, group
        self.actions = None   # (a field a host may set: the instance's own)

    @property
    def chosen(self) -> tuple[int, ...]:  # type: ignore[override]  # (read only: computed)
        """The players who picked, in seat order, each as often as the group names them: the
        group less those still to pick, computed where it is read (a pick does not)."""
        left, picked = list(self.players), []
        for player in self.group:
            if player.index in left:
                left.remove(player.index)
            else:
                picked.append(player.index)
        return tuple(sorted(picked))


def following_picks(picks_class: type[Picks], decision: Picks, waiting: tuple[int, ...]) -> Picks:
    """The decision of ``picks_class`` after a pick of ``decision`` that leaves ``waiting`` to
    pick, with the same options and group (as ``Picks(...)``, by the class's own call: ``picks_of``)."""
    following = picks_class()
    following.players, following.per_player = waiting, decision.per_player
    following.group, following.actions = decision.group, None
    return following


def picks_of(resume: Callable[[Picks, State, Frame, Value, int], None], prompt_of: Callable[[State, int], str],
             span: Span) -> type[Picks]:
    """The class of the decisions of one simultaneous choice: ``Picks`` that goes on by
    ``resume`` (a method: it reads the decision it answers), with its prompt and span. Its
    ``__init__`` is object's: a pick is made by a call of the class with no arguments, its
    fields then set by the pick (``object.__new__(cls)`` would do the same through a call that
    packs its argument in a tuple and checks it: about 300 instructions more an object)."""
    return type("Picks", (Picks,), {"__slots__": (), "__init__": object.__init__, "resume": resume,
                                    "prompt_of": staticmethod(prompt_of), "span": span})


SAME_WHEN_EQUAL = frozenset({int, str, bool, type(None), Space, Component, Player, EnumValue})


def unique(items: tuple[Value, ...]) -> tuple[Value, ...]:
    """``items`` without copies, the first of each kept: the options of a choice."""
    try:
        if len(set(items)) == len(items):  # no two are equal: none is a copy of another
            return items
    except TypeError:  # a value that cannot be hashed
        pass
    if {type(item) for item in items} <= SAME_WHEN_EQUAL:  # equal is the same option: a dict keeps one
        return tuple(dict.fromkeys(items))
    seen: set[int | str]
    out: list[Value]
    seen, out = set(), []
    for item in items:
        key = item if isinstance(item, (int, str)) else id(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def no_option(player: Player) -> RuleError:
    """The rules' error of a player of a simultaneous choice who has no option."""
    return RuleError(f"{player} has no option in this simultaneous choice", "E604")


def options_function(compiler: Compiler, node: ast.Simultaneous, note: str) -> OptionsOf:
    """The options of each player of ``node``'s group as a generated function: the list of
    options written in place with the player variable a Python local known to hold a player
    (nothing else reads it meanwhile: the ruleset's functions are given their arguments), a
    zone's items read from the state's list."""
    pvar, writer, module = node.player_var, compiler.writer, compiler.module
    scope = Scope(set(compiler.scope) - {pvar}, compiler.key, {pvar: "_p"}, "0")
    writer.held.learn_running(scope)
    scope.kinds["_p"] = (Player, 0)
    source = writer.write(node.source, scope)
    compute = [f"_o = {source}"]
    if scope.keys_read:
        compute = ["try:", f"    _o = {source}", "except KeyError as error:",
                   f"    raise _unbound(error, {module.constant(tuple(sorted(scope.keys_read)))}) from None"]
    unique_ = module.constant(unique, "<the options without copies>")
    general = f"{unique_}(_as_list(st, _o))"
    ids = f"{module.constant(compiler.cat.action_ids, '<the action ids of options>')}(_o)"
    if writer.zone_read(node.source, scope):   # a zone holds a component once: its list, no search for copies
        listed = ["_z = st.zones[_o.slot]", f"_o = tuple(_z) if len(_z) <= {FREE_WORK} else {general}"]
        slot = players_zone_slot(source.replace("[_p.index]", "[_l0.index]"), module)   # (_p: a player, as an _l local)
        if slot is not None and not scope.keys_read:   # (the group's own zone by its slot: no ZoneRef read)
            compute, listed = [], [f"_z = st.zones[{slot.replace('[_l0.index]', '[_p.index]')}]",
                                   f"_o = tuple(_z) if len(_z) <= {FREE_WORK} else {general.replace('_o', source)}"]
        codes = module.constant(compiler.cat.code_of.__getitem__, "<the action id of a component>")
        ids = f"tuple(map({codes}, _o))"   # (every component has one: the catalog's, made before the code)
    else:
        listed = [f"if type(_o) is _ZoneRef and len(st.zones[_o.slot]) <= {FREE_WORK}:",
                  "    _o = tuple(st.zones[_o.slot])", "else:", f"    _o = {general}"]
    merge = merging(compiler, node.source, node.by_position, scope)   # (copies of a component: one option, copies.py)
    proof = proof_test(compiler, node.source) if merge is not None else ""
    merged = [] if merge is None else [
        f"if {'_copies and ' if proof else ''}not "   # (a list from zones no copy reaches: no test, zone_flow.py)
        f"(_t := {module.constant(merge.twins, '<the components that have a copy>')}).isdisjoint(_o) "
        "and len(_t.intersection(_o)) > 1:",
        f"    _o = {module.constant(merge.merged, '<the options, copies merged>')}(st, _o)"]
    name = module.fresh("_s")
    body = [*compute, *listed, *merged, "if not _o:", f"    raise {module.constant(no_option)}(_p)",
            f"_per[_p.index] = (_o, {ids})"]
    lines = [f"def {name}(st, env, waiting):  # the options of {note}", "    _per = {}",
             *([f"    _copies = {proof}   # (the proof broken: read once)"] if proof else []), "    for _p in waiting:",
             *("        " + line for line in body), "    return _per"]
    found: OptionsOf = module.define(name, "\n".join(lines) + "\n")
    return found
