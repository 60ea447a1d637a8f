"""``State.apply_action`` other than its usual call.

The usual call, an Action of ``legal_actions`` or an int action id, for a player to act at a
choice or a menu, runs in place in ``State.apply_action``: its option's local or block, then
the run on to the next decision, without the tests that only the other decisions need. Here
is every other call: a player not given or not proved one of those to act, an action of
another type (``applied_checked``: checked by ``Decisions._checked``, IllegalActionError and
the state unchanged), and the decisions that go on by their ``resume``, a pick of a
simultaneous choice or a chance outcome (``went_on``, once ``apply_action`` found the option
of the id). An error of the
rules puts the state back as it was (``State._restore``) and the action is applied again one
operation at a time (precise.py), which raises it located.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.program import Decision
from ..model.values import CHANCE, Value
from .events import action_event
from .precise import applied_precisely

if TYPE_CHECKING:
    from .actions import Action
    from .state import State

__all__ = ["applied_checked", "replayed", "went_on"]


def applied_checked(st: State, action: Action | int, player: int | None) -> None:
    """``apply_action(action, player)`` as a host may call it (an Action or an int id; the
    player given, or the only one to act): checked (IllegalActionError if not legal now, the
    state unchanged), then applied."""
    player, chosen, action_id = st._checked(action, player)
    decision = st.pending
    assert decision is not None, "an action was checked against no decision"
    went_on(st, decision, player, chosen, action_id)


def went_on(st: State, decision: Decision, player: int, chosen: Value, action_id: int) -> None:
    """The legal action ``action_id`` (the option ``chosen``) of ``player`` applied at
    ``decision``, the state's, and the run on to the next decision or the end."""
    per_player = decision.per_player
    st.pending = None
    if player == CHANCE:
        st.chance_taken += 1
    elif st.event_log is not None:
        st.event_log.append(action_event(st, player, action_id, chosen, decision.kind == "simultaneous"))
    st.action_history.append((player, action_id))  # (``decisions`` and ``since_origin`` count it)
    st.work = st.rounds = 0
    try:
        fr = st.frames[-1]
        if per_player is not None:   # (a pick: it goes on by its resume, which binds and goes never say)
            decision.resume(st, fr, chosen, player)
            if st.pending is not None:  # (the others are still to pick)
                return
        elif (binds := decision.binds) is not None:  # (a choice's local takes the value chosen, and the run
            fr.env[binds] = chosen                    # goes on after it: no call)
            fr.pc = decision.then
        elif decision.goes is not None:  # (a menu's option: the run goes on at its block, no call)
            fr.pc = decision.goes[decision.ids.index(action_id)]
        else:
            decision.resume(st, fr, chosen, player)
            if st.pending is not None:
                return
        run = fr.code.run   # then on to the next decision: this frame's (its function read, then called:
        steps = run(st, fr, 0, st.max_steps)   # no method call, as in State.apply_action), then the run's
        st._run_until_decision(steps, st.work, rounds=st.rounds)   # loop (its steps, work and rounds so far)
    except Exception as error:   # the state put back, the action applied again one operation at a time
        st._restore()
        applied_precisely(st, player, action_id, error)


def replayed(st: State, count: int) -> State:
    """The origin of ``st`` with its first ``count`` actions since then applied again (a new
    game from the start where it has no origin)."""
    if st.origin is None:
        fresh = type(st).initial(st.game, st.seed, st.explicit_chance, st.event_log is not None)
    else:
        fresh = st.origin.clone()
        fresh.origin, fresh.since_origin = st.origin, 0
    first = len(st.action_history) - st.since_origin
    for player, action_id in st.action_history[first:first + count]:
        fresh.apply_action(action_id, player=player)
    return fresh
