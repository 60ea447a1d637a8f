"""The labels a choice gives its options: ``choose m in LIST by p shown as "text {m.a}"``.

Each option's label is the text with its placeholders filled in from that option alone (the
checker lets them name only the choice's variable), read in the state that offers it (an
attribute may be a variable: ``{s.mark}``), so the decisions of a labelled choice are never
kept for other states (``NothingKept``). The labels are made once per decision, when it is
offered, and set as the decision's actions (``Decision.actions``, which ``legal_actions`` gives back):
the action ids stay those of the values, so saved states and replays do not change. Two
options with one label are the runtime error E602, at the choice. A choice without
``shown as`` never comes here.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from rulelang import ast
from rulelang.syntax.placeholders import PLACEHOLDER

from ..model.program import Decision, Frame
from ..model.values import RuleError, Value, display
from ..state.actions import Action

if TYPE_CHECKING:
    from ..state.state import State
    from .lower import Compiler

Given: TypeAlias = Callable[["State", Frame, Value, Value], None]
Offered: TypeAlias = Callable[["State", tuple[Value, ...], Value, int], None]
LabelOf: TypeAlias = Callable[["State", Value], str]


class NothingKept(dict[tuple[Value, ...], Decision]):
    """The decisions a labelled choice keeps for other states: none (its labels may read the
    state that offers them)."""

    def __setitem__(self, key: tuple[Value, ...], value: Decision) -> None:
        pass


def label_of(compiler: Compiler, var: str, node: ast.Prompt) -> LabelOf:
    """``f(st, option) -> str``: the label of one option, ``node``'s placeholders read from
    it (bound to ``var``)."""
    pieces = PLACEHOLDER.split(node.text)   # text, placeholder, text, ...
    texts = pieces[0::2]
    parts = [compiler.expr(part) for part in node.parts]

    def label(st: State, option: Value) -> str:
        env = {var: option}
        out = [texts[0]]
        for part, text in zip(parts, texts[1:], strict=True):
            value = part(st, env)
            out += [value if isinstance(value, str) else display(value), text]
        return "".join(out)
    return label


def labelled(compiler: Compiler, node: ast.Choose, var: str, given: Given,
             offered: Offered) -> tuple[Given, Offered]:
    """``given`` and ``offered`` of a choice (choices.py), each followed by the labelling of
    the decision it leaves awaited, when that is a new one of this choice."""
    assert node.shown_as is not None
    label = label_of(compiler, var, node.shown_as)
    span = node.span

    def label_pending(st: State) -> None:
        decision = st.pending
        if decision is not None and decision.actions is None and decision.span is span:
            decision.actions = labelled_actions(st, decision, label)

    def given_labelled(st: State, fr: Frame, options: Value, chosen_by: Value) -> None:
        given(st, fr, options, chosen_by)
        label_pending(st)

    def offered_labelled(st: State, options: tuple[Value, ...], player: Value, subset: int) -> None:
        offered(st, options, player, subset)
        label_pending(st)
    return given_labelled, offered_labelled


def labelled_actions(st: State, decision: Decision, label: LabelOf) -> tuple[Action, ...]:
    """The actions of ``decision`` (of one player), each with its option's label; E602 when
    two options have one label."""
    player = decision.players[0]
    seen: dict[str, Value] = {}
    actions = []
    for action_id, option in zip(decision.ids, decision.options, strict=True):
        text = label(st, option)
        if text in seen:
            raise RuleError(f"two options of this choice have the label {text!r} ({display(seen[text])} and "
                            f"{display(option)}): a label must tell each option apart")
        seen[text] = option
        actions.append(Action(action_id, text, player, option))
    return tuple(actions)
