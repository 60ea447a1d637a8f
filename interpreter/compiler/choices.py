"""Lowering of the decisions that players make: 'choose', menus and simultaneous choices.

Each becomes an operation that stops the run loop with a ``Decision`` (its options, their
action ids, who chooses, the prompt) and a ``resume`` that goes on once the choice is made;
the prompts are computed only when a host asks for them. The lowering of the other
statements is lower.py's; chance is chance.py's.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter as _items
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from rulelang import ast
from rulelang.syntax.placeholders import PLACEHOLDER

from ..model.problems import unchecked
from ..model.program import Code, Decision, Env, Frame, made_decision
from ..model.values import Component, Player, RuleError, Value, ZoneRef, display, display_within, kind_of
from ..tables.builtins import FREE_WORK, as_list
from .copies import merging
from .held import hold_item, map_promise
from .kept_until_found import found_again, kept_limit
from .known import known_list
from .module import Inline, Module
from .option_labels import NothingKept, labelled
from .options import SUBSET
from .picks import Picks, following_picks, options_function, picks_of, unique
from .scope import Scope
from .subsets import subset_ids
from .zone_choices import certain_zone, may_be_zone, zone_offer

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from ..state.state import State
    from .lower import Box, Compiler

PromptOf: TypeAlias = Callable[["State", Env, int], str]  # a choice's prompt: ``f(st, env, player)``
Offered: TypeAlias = Callable[["State", tuple[Value, ...], Value, int], None]  # a new decision: f(st, options,
# chooser, the index of its subset or -1: subsets.py)

PROMPT_VALUE = 200  # the most characters of one value shown in a prompt
DECISIONS_KEPT = 4096  # the most decisions one 'choose' keeps to give again

SEATS_SHARED = 64  # the players whose decisions share one tuple of their seat (a kept decision makes no new one)
SEATS = tuple((seat,) for seat in range(SEATS_SHARED))
_MISSING = object()
_NOT_YET = cast(Value, object())  # a chooser not computed yet (typed as a value: no cast where it is passed)
_T = TypeVar("_T")


class ChoiceLowering:
    """Lowers the choices of the procedure that ``compiler`` is lowering."""

    def __init__(self, compiler: Compiler):
        self.compiler = compiler

    def _short(self, source: ast.Expr, lines: list[str]) -> bool:
        """Whether the options ``source`` (computed by ``lines`` into ``_o``) certainly are a
        tuple of at most FREE_WORK items: a list written out, or a comprehension of one
        clause over a list known at load that long."""
        compiler = self.compiler
        if isinstance(source, ast.ListExpr):
            short = len(source.items) <= FREE_WORK
        elif isinstance(source, ast.Comprehension) and len(source.clauses) == 1:
            known = known_list(compiler.writer, source.clauses[0].source, Scope(set(compiler.scope), compiler.key,
                                                                                {}, "0"))
            short = known is not None and len(known) <= FREE_WORK
        else:
            return False
        return short and any(re.match(rf"\s*_o = (tuple\(\[|\(|_k\d+\[{SUBSET}\]$)", line) for line in lines)

    def choose(self, node: ast.Choose, code: Code) -> None:
        """'choose x in LIST by P': P picks one of the distinct options (the 'otherwise'
        block runs when there is none)."""
        compiler = self.compiler
        source = compiler.expr(node.source)
        if node.chooser is None:
            raise unchecked("a choice needs 'by PLAYER' to say who chooses", node.span)
        chooser = compiler.expr(node.chooser)
        in_place = [compiler.writer.assigned(node.source, compiler.scope, compiler.key, "_o", options=True),
                    compiler.writer.assigned(node.chooser, compiler.scope, compiler.key, "_p")]  # (before it binds)
        proven_chooser = self.proven_player(node.chooser)   # (before it binds)
        certain = certain_zone(compiler, node.source)   # (before it binds: zone_choices.py)
        prompt = self.prompt(node.prompt, f"choose {node.var} in {source_text(node.source)}")
        span = node.span
        asks = "number range" if isinstance(node.source, ast.BinaryOp) and node.source.op == ".." else "choice"
        merge = merging(compiler, node.source, node.by_position)   # (before it binds: copies.py)
        twins = None if merge is None else merge.twins   # (the components that have a copy)
        hold_item(compiler, node.var, node.source)
        var, option_ids, code_of = compiler.bind_plain(node.var), compiler.cat.option_ids, compiler.cat.code_of
        otherwise_box = compiler.target()
        has_otherwise = node.otherwise is not None
        after = compiler.target(len(code.ops) + 1)  # the operation after the choice (threaded)

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.env[var] = value
            fr.pc = after[0]

        prompt_of = _prompt_of_running(prompt)  # made once: a decision reads the state it is asked from
        # The decisions of this statement, by list of options, for lists of interned values
        # (equal only to themselves: a list equal to a key holds the very same values, without
        # copies, and the same ids). A decision holds no state of its own, so the states that
        # offer the same list share one.
        made: dict[tuple[Value, ...], Decision] = {} if node.shown_as is None else NothingKept()  # (labels: of a state)
        short = self._short(node.source, in_place[0])
        ids_of = subset_ids(compiler.module, in_place[0], compiler.cat) if short and node.shown_as is None else None
        subsets_ids = ids_of or ()
        by_subset: list[Decision | None] = [None] * len(subsets_ids)   # (the decisions kept, by subset)
        zone = not short and may_be_zone(compiler, node.source)
        limit = kept_limit(zone, DECISIONS_KEPT)   # (fewer until one is given again: kept_until_found.py)

        def choose(st: State, fr: Frame) -> None:
            begin(st, fr, source(st, fr.env), _NOT_YET)

        def given(st: State, fr: Frame, options: Value, chosen_by: Value) -> None:
            """``choose`` once its list of options is computed (and its chooser, if not
            ``_NOT_YET``): the resumable function computes them in place (``choose_in_place``).
            The decision kept for that list when there is one; else the same checks, and the
            decision kept from now on when its options are interned values (equal only to
            themselves: a list equal to it holds the very same values, ``option_ids``)."""
            distinct = False  # known to hold no copies
            if type(options) is ZoneRef and len(zone := st.zones[options.slot]) <= FREE_WORK:  # (as as_list reads it)
                options, distinct = tuple(zone), True   # a zone holds a component once
            elif type(options) is not tuple or len(options) > FREE_WORK:  # (as_list's own test: no call)
                options = as_list(st, options)
            try:
                decision = made.get(options)
            except TypeError:  # a value that cannot be hashed: neither kept nor known
                decision = None
            if decision is None:
                if not distinct:
                    options = unique(options)
                if not options:
                    if has_otherwise:
                        fr.pc = otherwise_box[0]
                        return
                    raise RuleError("this choice offers no option", "E604")
            player = chooser(st, fr.env) if chosen_by is _NOT_YET else chosen_by
            if decision is None:
                offered(st, options, player, -1)
                return
            limit[0] = DECISIONS_KEPT   # (one given again: kept_until_found.py)
            if type(player) is not Player or player.index >= st.game.num_players:  # (no call when it is one)
                player = _choosing_player(st, player)
            if decision.players[0] != player.index:  # the same options for another player: not kept
                decision = made_decision("choose", (player.index,), decision.options, decision.ids, resume, (),
                                         None, (), prompt_of, span, asks, var, after[0])
            st.pending = decision

        seated = tuple(compiler.cat.real_players)   # (the game's own players: one is found by identity)

        def offered(st: State, options: tuple[Value, ...], player: Value, subset: int) -> None:
            """A list of options without copies, not empty and not kept, offered to ``player``
            (computed in place too by the resumable function): its decision, kept from now on
            when its options are interned values (``option_ids``); ``subset``: the index of the
            options' subset (subsets.py: their ids made at load, the decision kept by it too),
            or -1."""
            if player not in seated:   # (one of the game's real players itself: no test of its kind and seat)
                player = _choosing_player(st, player)
            copied = twins is not None and not twins.isdisjoint(options) and len(twins.intersection(options)) > 1
            if copied and merge is not None and \
                    (shown := merge.merged(st, options)) is not options:   # (never kept: the merge reads the state)
                st.pending = made_decision("choose", (player.index,), shown, option_ids(shown)[0], resume, (),
                                           None, (), prompt_of, span, asks, var, after[0])
                return
            if subset >= 0:
                ids, interned = subsets_ids[subset], True
            elif zone:   # (a zone's components, the usual options where they may be a zone: no call of option_ids;
                try:       # their ids as catalog.interned_ids takes them, in place: one call fewer an offer)
                    ids, interned = _items(*options)(code_of) if len(options) > 1 else (code_of[options[0]],), True
                except (KeyError, TypeError):   # (a list of other values)
                    ids, interned = option_ids(options)
            else:
                ids, interned = option_ids(options)
            decision = Decision()   # (its fields set here, as made_decision sets them: no call)
            decision.kind = "choose"
            try:   # (a seat's shared tuple, by one subscript: no test of the seat first)
                decision.players = SEATS[player.index]
            except IndexError:   # (past SEATS_SHARED: a tuple of its own)
                decision.players = (player.index,)
            decision.options = options
            decision.ids = ids
            decision.resume = resume
            decision.probs = ()
            decision.per_player = None
            decision.chosen = ()
            decision.prompt_of = prompt_of
            decision.span = span
            decision.asks = asks
            decision.binds = var
            decision.then = after[0]
            decision.goes = None
            decision.shared = False
            decision.actions = None
            # kept from now on, and its actions (not kept: a list equal to it may hold other values, 1 and
            # true; copies not merged now, as they differ, may be alike when the same list comes back)
            if interned and not copied and len(made) < limit[0]:
                decision.shared = True
                made[options] = decision
                if subset >= 0:
                    by_subset[subset] = decision
            st.pending = decision
        begin, offer = (given, offered) if node.shown_as is None else labelled(compiler, node, var, given, offered)
        code.stops.add(compiler.emit(code, choose, node.span))
        compiler.module.inline[choose] = choose_in_place(compiler.module, in_place, made, (begin, offer),
                                                          f"choice at line {span.line}, column {span.column}",
                                                          short, proven_chooser, by_subset if ids_of else None,
                                                          zone, limit=limit, certain=certain)
        if node.otherwise is not None:
            skip = compiler.emit_jump(code, node.span)
            otherwise_box[0] = len(code.ops)
            compiler.block(node.otherwise, code)
            skip[0] = len(code.ops)

    def menu(self, node: ast.Menu, code: Code) -> None:
        """A menu: the player picks one of the labelled options whose condition holds, and
        its block runs."""
        compiler = self.compiler
        chooser = compiler.expr(node.chooser)
        prompt = self.prompt(node.prompt, "choose one")
        span = node.span
        labels = [compiler.cat.label_id(o.label) for o in node.options]
        conds = [compiler.expr(o.condition) if o.condition is not None else None for o in node.options]
        targets: list[int] = []
        exits: list[Box] = []
        names = tuple(o.label for o in node.options)
        goes: list[int] = []   # (the operation each option goes on at, as ``resume`` finds it: its decisions')

        def resume(st: State, fr: Frame, value: Value, player: int) -> None:
            fr.pc = targets[names.index(value)]

        prompt_of = _prompt_of_running(prompt)
        ids = tuple(labels)
        always_open = bool(conds) and all(c is None for c in conds)  # no conditions: the same options each time

        # A menu without conditions offers the same options each time: one decision per
        # player, shared by every state that reaches it (it holds no state of its own), by
        # the index of its seat (a list of every seat: one subscript, no call of a dict's get).
        kept: list[Decision | None] = [None] * len(compiler.cat.players)

        def menu(st: State, fr: Frame) -> None:
            env = fr.env
            if always_open:
                open_menu(st, fr, chooser(st, env))
                return
            open_ = [i for i, c in enumerate(conds) if c is None or c(st, env)]
            if not open_:
                raise RuleError("no option of this choice is available", "E604")
            options, option_ids = tuple(names[i] for i in open_), tuple(labels[i] for i in open_)
            player = _choosing_player(st, chooser(st, env))
            st.pending = made_decision("menu", (player.index,), options, option_ids, resume, (), None, (), prompt_of,
                                       span, "menu", None, 0, tuple(map(goes.__getitem__, open_)))

        def open_menu(st: State, fr: Frame, player: Value) -> None:
            """A menu without conditions once its chooser is computed (in place by the
            resumable function, ``menu_in_place``): the decision kept for that player."""
            if type(player) is not Player or player.index >= st.game.num_players:
                player = _choosing_player(st, player)
            decision = kept[player.index]
            if decision is None:
                decision = kept[player.index] = made_decision("menu", (player.index,), names, ids, resume, (), None,
                                                              (), prompt_of, span, "menu", None, 0, tuple(goes))
                decision.shared = True
            st.pending = decision
        code.stops.add(compiler.emit(code, menu, node.span))
        if always_open:
            chooser_lines = compiler.writer.assigned(node.chooser, compiler.scope, compiler.key, "_p")
            compiler.module.inline[menu] = menu_in_place(compiler.module, chooser_lines, kept, open_menu,
                                                         f"menu at line {span.line}, column {span.column}",
                                                         self.proven_player(node.chooser))
        for option in node.options:
            targets.append(len(code.ops))
            compiler.block(option.body, code)
            exits.append(compiler.emit_jump(code, option.span))
        code.resumed.update(targets)
        end = len(code.ops)
        for box in exits:
            box[0] = end
        goes.extend(targets[names.index(name)] for name in names)

    def simultaneous(self, node: ast.Simultaneous, code: Code) -> None:
        """A choice that every player of a group makes at once: each picks from options of
        their own, and the picks are known together, as a map from player to pick."""
        compiler = self.compiler
        players, pvar, var = compiler.expr(node.players), node.player_var, node.var
        checked = not self.real_players(node.players)
        outer = pvar in compiler.scope
        compiler.scope.add(pvar)
        prompt = self.prompt(node.prompt, f"choose {var} in {source_text(node.source)} (everyone at once)")
        options = self.options_kind(node)
        generated = options_function(compiler, node, f"the simultaneous choice at {_where(node.span)}")
        if not outer:
            compiler.scope.discard(pvar)  # the player variable is only bound in the options' list
        compiler.bind_plain(var)
        compiler.hold(var, map_promise(options))   # (if no other statement binds it: held.py)
        seats = compiler.cat.players
        compiler.counter += 1
        picks_key = f"$picks{compiler.counter}"
        span = node.span

        def picks_class(twice: bool, in_order: bool) -> type[Picks]:
            """The class of this statement's decisions for a group that names a player twice
            (``twice``: a pick is then made once for both) or names each once (no test);
            ``in_order``: every pick so far came in the group's order, from no pick (the map
            is then in the group's order: the last pick takes it as it is, without the test)."""
            own: type[Picks]

            def resume(decision: Picks, st: State, fr: Frame, value: Value, player_index: int) -> None:
                """A pick of a player of ``decision``: the others are left to pick, with the
                same options (a pick changes neither the state nor what the others may pick:
                running the operation again would compute them); the last pick makes the map
                of the picks, as running it again would, and goes on."""
                env = fr.env
                picks: dict[Value, Value] | None = env.get(picks_key)  # type: ignore[assignment]  # (no cast: a call)
                if picks is None:
                    picks_now: dict[Value, Value] = {seats[player_index]: value}
                else:   # (a copy by its C method, then the pick: fewer instructions than {**picks, ...})
                    picks_now = picks.copy()
                    picks_now[seats[player_index]] = value
                to_pick = decision.players
                if to_pick[0] == player_index:   # (the first to pick, as hosts mostly ask: no search)
                    waiting = to_pick[1:]
                else:   # (out of the group's order: never the last; the next decisions test the map's order)
                    at = to_pick.index(player_index)
                    waiting = to_pick[:at] + to_pick[at + 1:]
                    if twice and player_index in waiting:
                        waiting = tuple([i for i in waiting if i != player_index])
                    if waiting:
                        env[picks_key] = picks_now
                        st.pending = following_picks(unordered, decision, waiting)
                        return
                if twice and player_index in waiting:   # (a player the group names twice picks once for both)
                    waiting = tuple([i for i in waiting if i != player_index])
                if not waiting:  # all picked: known together
                    if picks is not None:
                        del env[picks_key]
                    group = decision.group   # (picked in the group's order: the map as it is)
                    env[var] = picks_now if in_order or tuple(picks_now) == group else {p: picks_now[p] for p in group}
                    fr.pc += 1
                    return
                env[picks_key] = picks_now
                following = own()   # (as Picks(...), without a call of Picks.__init__: picks_of)
                following.players, following.per_player = waiting, decision.per_player
                following.group, following.actions = decision.group, None
                st.pending = following

            own = picks_of(resume, prompt_of, span)
            unordered = waiting_for if in_order else own   # (a pick out of order: the class that tests)
            return own

        def prompt_of(st: State, index: int) -> str:  # (made once: the locals are those of the state asked)
            env = st.frames[-1].env
            return _bound(env, pvar, st.game.catalog.players[index], lambda: prompt(st, env, index))

        options_of = generated   # (picks.py)

        def simultaneous(st: State, fr: Frame) -> None:
            env = fr.env
            real = st.game.num_players
            group: tuple[Player, ...] = players(st, env)  # type: ignore[assignment]  # (no cast: a call)
            if type(group) is not tuple or len(group) > FREE_WORK:   # (as_list's own test: a short list as it is)
                group = as_list(st, group)  # type: ignore[assignment]
            for p in group if checked else ():
                if type(p) is not Player or p.index >= real:   # (no call while each is a real player)
                    group = tuple([_choosing_player(st, q, "a simultaneous choice") for q in group])
                    break
            picks: dict[Value, Value] | None = env.get(picks_key)  # type: ignore[assignment]
            waiting = group if picks is None else tuple([p for p in group if p not in picks])
            if not waiting:
                env[var] = {p: picks[p] for p in group} if picks is not None else {}
                env.pop(picks_key, None)
                fr.pc += 1
                return
            per_player = options_of(st, env, waiting)   # (by index, in their order: their indices where none is twice)
            if len(per_player) == len(waiting):   # (each named once: no pick tests for a twice-named player)
                first = (waiting_in_order if picks is None else waiting_for)()   # (Picks(...), no __init__: picks_of)
                first.players = tuple(per_player)
            else:
                first = waiting_twice()
                first.players = tuple([p.index for p in waiting])
            first.per_player = per_player
            first.group, first.actions = group, None
            st.pending = first
        waiting_for, waiting_twice = picks_class(False, False), picks_class(True, False)   # (its decisions)
        waiting_in_order = picks_class(False, True)   # (from no pick, each in the group's order so far)
        code.stops.add(compiler.emit(code, simultaneous, span))

    def proven_player(self, node: ast.Expr) -> bool:
        """Whether ``node`` is certainly a player (a held local or parameter, a loop's variable
        over players...)."""
        compiler = self.compiler
        scope = Scope(set(compiler.scope), compiler.key, {}, "0")
        compiler.writer.held.learn_running(scope)
        return compiler.writer.items_kind(node, scope) == (Player, 0)

    def real_players(self, node: ast.Expr) -> bool:
        """Whether ``node`` is certainly a list of real players: proven a list of players
        (held, or built of players) in a game that has no dummy seat."""
        compiler = self.compiler
        if len(compiler.cat.players) != len(compiler.cat.real_players):
            return False
        scope = Scope(set(compiler.scope), compiler.key, {}, "0")
        compiler.writer.held.learn_running(scope)
        return compiler.writer.items_kind(node, scope) == (Player, 1)

    def options_kind(self, node: ast.Simultaneous) -> tuple[type, int] | None:
        """What the list of options of each player of ``node`` certainly is (its player
        variable bound to a player), or None."""
        compiler = self.compiler
        scope = Scope(set(compiler.scope), compiler.key, {}, "0")
        compiler.writer.held.learn_running(scope)
        scope.held_names[node.player_var] = text = f"env[{compiler.module.constant(compiler.key(node.player_var))}]"
        scope.kinds[text] = (Player, 0)
        if compiler.writer.zone_read(node.source, scope):   # a zone's items are components
            return Component, 1
        return compiler.writer.items_kind(node.source, scope)

    def prompt(self, node: ast.Prompt | None, default: str) -> PromptOf:
        """``f(st, env, player) -> str``: the text of a choice's prompt, its placeholders
        filled in (each value at most PROMPT_VALUE characters), or ``default``."""
        if node is None:
            return lambda st, env, player: default
        pieces = PLACEHOLDER.split(node.text)   # text, placeholder, text, ...
        texts = pieces[0::2]
        parts = [self.compiler.expr(part) for part in node.parts]

        def render(st: State, env: Env, player: int) -> str:
            out = [texts[0]]
            for part, text in zip(parts, texts[1:], strict=True):
                value = part(st, env)
                shown = value if isinstance(value, str) else display_within(value, PROMPT_VALUE)
                if shown is None:   # a value whose text is longer than PROMPT_VALUE
                    shown = "..."
                elif len(shown) > PROMPT_VALUE:
                    shown = shown[:PROMPT_VALUE] + "..."
                out += [shown, text]
            return "".join(out)
        return render


def _where(span: Span) -> str:
    return f"line {span.line}, column {span.column}"


def _prompt_of_running(prompt: PromptOf) -> Callable[[State, int], str]:
    """A decision's ``prompt_of``: ``prompt`` with the locals of the procedure running in
    the state asked (made once per statement, not once per decision)."""
    def prompt_of(st: State, player: int) -> str:
        return prompt(st, st.frames[-1].env, player)
    return prompt_of


def source_text(expr: ast.Expr) -> str:
    """A short rendering of an expression, for a prompt derived from the statement."""
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.Attribute):
        return f"{source_text(expr.target)}.{expr.name}"
    if isinstance(expr, ast.Literal):
        return display(expr.value)
    if isinstance(expr, ast.Call) and not any(isinstance(a, (ast.Generator, ast.KeywordArg)) for a in expr.args):
        return f"{expr.function}({', '.join(source_text(a) for a in expr.args)})"
    if isinstance(expr, ast.Call):
        return f"{expr.function}(...)"
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        return f"{source_text(expr.left)}..{source_text(expr.right)}"
    if isinstance(expr, ast.Index):
        return f"{source_text(expr.target)}[{source_text(expr.index)}]"
    if isinstance(expr, ast.Comprehension) and len(expr.clauses) == 1:
        return source_text(expr.clauses[0].source)
    return "the options"


def _bound(env: Env, var: str, value: Value, compute: Callable[[], _T]) -> _T:
    """``compute()`` with ``var`` bound to ``value`` in ``env``; a variable of the same name
    outside is kept."""
    old = env.get(var, _MISSING)
    env[var] = value
    try:
        return compute()
    finally:
        _restore(env, var, old)


def _restore(env: Env, var: str, old: object) -> None:
    if old is _MISSING:
        env.pop(var, None)
    else:
        env[var] = cast(Value, old)  # not _MISSING: the value the variable had


def choose_in_place(module: Module, computed: list[list[str]], made: dict[tuple[Value, ...], Decision],
                    choice: tuple[Callable[[State, Frame, Value, Value], None], Offered],
                    note: str, short: bool = False, proven_chooser: bool = False,
                    by_subset: list[Decision | None] | None = None, zone: bool = False,
                    limit: list[int] | None = None, certain: bool = False) -> Inline:
    """The body of a 'choose' as the resumable function writes it (resumable.py): the lines
    that compute its list (into ``_o``) and its chooser (``_p``) in place, then the decision
    kept for that list and that player awaited at once; ``given``, the choice's own code, in
    every other case but one: ``short``, the list is certainly a tuple of at most FREE_WORK
    items (not tested), and then a list not kept and not empty goes to ``offered`` (the
    choice's new decision) without its copies (a subset of distinct spaces, ``SUBSET``, has
    none), its chooser computed in place; ``proven_chooser``: the chooser is certainly a player
    (its class not tested before its index is compared with the kept decision's); ``by_subset``:
    the decisions kept by the index of their subset (subsets.py), given to ``offered`` with it;
    ``zone``: the list may be a zone (zone_choices.py), not ``short``; ``limit``: how many
    decisions it keeps for now, raised where one is given again (kept_until_found.py);
    ``certain``: with ``zone``, the list is certainly a zone (its class not tested)."""
    source, chooser = computed
    given, offered = choice
    kept, rest, missing = module.constant(made), module.constant(given), module.constant(_NOT_YET)
    found = ["try:", f"    _d = {kept}.get(_o)", "except TypeError:", "    _d = None"]
    distinct = f"{module.constant(unique)}(_o)"   # (the options without copies)
    subset, taken = "-1", ""
    if short and by_subset is not None:   # (by the index of its subset)
        distinct, subset = "_o", SUBSET   # (a subset of distinct spaces)
        kept_by = module.constant(by_subset, "<the decisions kept, by subset>")
        taken = next(line for line in source if re.fullmatch(rf"_o = _k\d+\[{SUBSET}\]", line))
        source = [line for line in source if line != taken]   # (the options taken only where they are read)
        found = [f"_d = {kept_by}[{SUBSET}]", "if _d is None:", f"    {taken}", f"    _d = {kept}.get(_o)",
                 "    if _d is not None:", f"        {kept_by}[{SUBSET}] = _d"]
    found_line = None if limit is None or limit[0] >= DECISIONS_KEPT else \
        found_again(module.constant(limit, "<how many decisions are kept>"), module.constant(DECISIONS_KEPT))
    again = "" if found_line is None else f"; {found_line}"   # (on the line it follows: tails.py counts lines)
    new = ["elif _o:", *("    " + line for line in chooser),
           f"    {module.constant(offered)}(st, {distinct}, _p, {subset})"] if short else []
    lines = [*(found if short else [f"if type(_o) is tuple and len(_o) <= {FREE_WORK}:",
                                    *("    " + line for line in found), "else:", "    _d = None"]),
             "if _d is not None:", *("    " + line for line in chooser),
             f"    if {'' if proven_chooser else 'type(_p) is _Player and '}_p.index == _d.players[0]:",
             "        st.pending = _d" + again,
             "    else:", *([f"        {taken}"] if taken else []), f"        {rest}(st, fr, _o, _p)",
             *new, "else:", f"    {rest}(st, fr, _o, {missing})"]
    if zone:   # (a short zone offered in place: zone_choices.py)
        lines = zone_offer(chooser, (kept, rest, module.constant(offered), missing), proven_chooser, lines,
                           found_line, certain)
    return Inline((*source, *lines), None, (), note)


def menu_in_place(module: Module, chooser: list[str], kept: list[Decision | None],
                  open_menu: Callable[[State, Frame, Value], None], note: str, proven_chooser: bool = False) -> Inline:
    """The body of a menu without conditions as the resumable function writes it: the lines
    that compute its chooser (into ``_p``) in place, then the decision kept for that player
    awaited at once; ``open_menu``, the menu's own code, in every other case (a dummy seat
    too: no decision is kept for one). ``proven_chooser``: the chooser is certainly a player,
    its kind not tested."""
    decisions, rest = module.constant(kept), module.constant(open_menu)
    kept_one = f"{decisions}[_p.index]"   # (by the seat's index: a list of every seat, ``None`` where none is kept)
    if not proven_chooser:
        kept_one += " if type(_p) is _Player else None"
    return Inline((*chooser,
                   f"_d = {kept_one}",
                   "if _d is None:", f"    {rest}(st, fr, _p)",
                   "else:", "    st.pending = _d"), None, (), note)


def _choosing_player(st: State, player: Value, what: str = "'by'") -> Player:
    """The player who makes a choice: a real player, never a dummy seat."""
    if not isinstance(player, Player):
        raise RuleError(f"{what} needs a player, got {kind_of(player)}")
    if player.index >= st.game.num_players:
        raise RuleError(f"{player} is a dummy seat and cannot choose: say who chooses for it with 'by'")
    return player
