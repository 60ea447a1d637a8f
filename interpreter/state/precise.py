"""A run that passed the step budget, run again with each operation counted one by one.

The resumable functions test the step budget only where they go back, and the run loop where
it stops (compiler/optimistic.py): their count is exact, so a run passes the budget if and
only if the run counted one operation at a time does, but it finds out later, past the
operation where that one fails. Whatever fails in such a run (the budget or any other error
after it passed the budget unseen) is run again from the state before it, here, by the run
loop's one operation at a time (``run_one``): the first failure comes where, and as, the
tested code makes it (the same error, span and frames' counters). If that run does not fail,
the two runs disagree, which only a bug of rulelang can make: the state is put back and the
compiled run's failure is raised as InternalError (E900), so that no such action is ever
applied (nor replayed when a later failure puts a state back).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.program import Decision, Frame, run_one
from ..model.values import CHANCE, Value
from .events import action_event
from .failures import cause_of, runs_disagree

if TYPE_CHECKING:
    from .state import State

__all__ = ["applied_precisely", "run_precisely"]


def run_precisely(st: State, steps: int, work: int, compiled: Exception, rounds: int = 0) -> None:
    """``State.run`` (its first ``steps``, ``work`` and ``rounds`` done) one operation at a
    time, after the compiled run failed with ``compiled``: an error of the rules becomes
    RulesRuntimeError, located as ``run`` locates it; no error at all, InternalError."""
    limit = st.game.max_steps
    st.work, st.rounds = work, rounds
    try:
        _ran_on(st, steps, limit)
    except Exception as error:
        raise st._as_rulelang_error(error) from cause_of(error)
    raise runs_disagree(compiled, st._as_rulelang_error(compiled).diagnostic.span) from compiled


def applied_precisely(st: State, player: int, action_id: int, compiled: Exception) -> None:
    """``State.apply_action(action_id, player)`` (the state as it was before it), with each
    operation counted one by one, after the compiled run failed with ``compiled``; an error
    puts the state back as it was and is raised located; no error at all puts it back too,
    and raises InternalError (the runs disagree)."""
    decision = st.pending
    player, chosen, action_id = st._checked(action_id, player)
    assert decision is not None, "an action was checked against no decision"
    before = st.clone()   # (put back from this copy if it fails again: no second replay)
    st.pending = None
    if player == CHANCE:
        st.chance_taken += 1
    elif st.event_log is not None:
        st.event_log.append(action_event(st, player, action_id, chosen, decision.kind == "simultaneous"))
    st.action_history.append((player, action_id))
    st.work = st.rounds = 0
    try:
        fr = st.frames[-1]
        if _went_on(st, fr, decision, chosen, player):
            _ran_on(st, 0, st.max_steps)
    except Exception as error:
        failure = st._as_rulelang_error(error)  # located before the state is put back
        st._taken_from(before)
        raise failure from cause_of(error)
    disagreement = runs_disagree(compiled, st._as_rulelang_error(compiled).diagnostic.span)
    st._taken_from(before)
    raise disagreement from compiled


def _went_on(st: State, fr: Frame, decision: Decision, chosen: Value, player: int) -> bool:
    """Go on from ``decision`` with the value ``chosen`` as ``apply_action`` does; whether
    the run goes on from there (not a pick of a simultaneous choice that others still make)."""
    if decision.binds is not None:
        fr.env[decision.binds] = chosen
        fr.pc = decision.then
    elif decision.goes is not None:
        fr.pc = decision.goes[decision.options.index(chosen)]
    else:
        decision.resume(st, fr, chosen, player)
        return st.pending is None
    return True


def _ran_on(st: State, steps: int, limit: int) -> None:
    """The run loop, one operation at a time, to the next decision or the end."""
    while st.pending is None and not st.terminal:
        steps = run_one(st, st.frames[-1], steps, limit)
