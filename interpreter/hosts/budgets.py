"""The budgets of a server's requests (docs/protocol.md, "Limits"): what a ruleset a client
loads may cost (the size of a text sent, its steps between two decisions, its load time),
and a time limit for the work of one thread, which stops it with ``P012`` when it runs out.

A time limit stops the work of its thread from a watchdog thread (CPython's
``PyThreadState_SetAsyncExc``: an exception raised in the thread at its next bytecode), so it
stops work that no step counter sees, parsing, checking and compiling a ruleset, and costs
nothing while the work runs.
"""
from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from rulelang.files import MAX_RULESET_BYTES
from rulelang.limits import IDLE_SECONDS, MAX_AGENT_ITERATIONS, MAX_AGENT_SECONDS, READ_SECONDS, WRITE_SECONDS

from ..agents import Agent, AgentSpec, AgentSpecError, Budget, MctsAgent
from ..game import Game
from .protocol import ProtocolError

MAX_SERVED_STEPS = 1_000_000   # steps between two decisions of a game a client loads (the engine allows 10,000,000)
MAX_LOAD_SECONDS = 10.0        # to read, check and compile a ruleset a client loads (or lints)
# the agent's budget and the timeouts: rulelang/limits.py (the command line shows them)
AGENT_GRACE = 2.0              # an agent still at work this many times its seconds later is stopped (P012)

Result = TypeVar("Result")


@dataclass(frozen=True)
class RulesetBudget:
    """What a ruleset that a client loads may cost (the server's own bounds, below the engine's)."""

    max_bytes: int = MAX_RULESET_BYTES
    max_steps: int = MAX_SERVED_STEPS
    max_load_seconds: float = MAX_LOAD_SECONDS

    def check_size(self, text: str) -> None:
        """P003 for a text larger than a ruleset file may be."""
        if len(text) > self.max_bytes // 4 and len(text.encode("utf-8")) > self.max_bytes:
            raise ProtocolError("P003", f"request.text is larger than a ruleset may be ({self.max_bytes} bytes)")

    def capped(self, game: Game) -> Game:
        """``game`` held to the server's bound on steps between two decisions."""
        game.max_steps = min(game.max_steps, self.max_steps)
        return game

    def within_load_time(self, what: str, work: Callable[[], Result]) -> Result:
        """The result of ``work``; P012 when it runs longer than the load-time budget."""
        return within(self.max_load_seconds, what, work)


@dataclass(frozen=True)
class AgentBudget:
    """How long an agent may think for a client ('agent_action'), by server: a search stops
    at ``max_iterations`` or ``max_seconds``, whichever comes first."""

    max_iterations: int = MAX_AGENT_ITERATIONS
    max_seconds: float = MAX_AGENT_SECONDS

    def check(self, spec: AgentSpec) -> None:
        """AgentSpecError for a spec that asks more than the budget."""
        if (spec.iterations or 0) > self.max_iterations or (spec.seconds or 0) > self.max_seconds:
            raise AgentSpecError(f"a budget of at most {self.max_iterations} iterations or "
                                 f"{self.max_seconds:g} seconds per decision, here")

    def capped(self, agent: Agent, spec: AgentSpec) -> Agent:
        """``agent``, its search held to both bounds of the budget."""
        if isinstance(agent, MctsAgent):
            agent.budget = CappedBudget(spec.iterations or self.max_iterations,
                                        min(spec.seconds or self.max_seconds, self.max_seconds))
        return agent

    def choice(self, work: Callable[[], Result]) -> Result:
        """The agent's choice; P012 if it runs far past its seconds (an iteration that never ends)."""
        return within(self.max_seconds * AGENT_GRACE + 1, "the agent's choice", work)


@dataclass(frozen=True)
class CappedBudget(Budget):
    """A search budget of iterations and seconds both: it ends at the first one reached."""

    def allows(self, done: int, started: float) -> bool:
        """Whether another iteration may start after ``done`` of them (always a first)."""
        if done == 0:
            return True
        return done < (self.iterations or 0) and time.perf_counter() - started < (self.seconds or 0)


@dataclass(frozen=True)
class ConnectionTimeouts:
    """How long a connection may wait (TCP and HTTP): idle between requests, reading one
    request from its first byte, writing one reply."""

    idle_seconds: float = IDLE_SECONDS
    read_seconds: float = READ_SECONDS
    write_seconds: float = WRITE_SECONDS


class OutOfTime(BaseException):
    """Raised inside the work of a thread whose time limit passed (not an ``Exception``, so
    that no handler of the work takes it for an error of its own)."""


def within(seconds: float, what: str, work: Callable[[], Result]) -> Result:
    """The result of ``work``; ProtocolError P012 when it runs longer than ``seconds``."""
    try:
        with time_limit(seconds):
            return work()
    except OutOfTime:
        raise ProtocolError("P012", f"{what} took longer than {seconds:g} s, this server's limit") from None


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop the work of this thread with OutOfTime once ``seconds`` have passed (at its next
    bytecode: a long call into C, such as ``compile``, ends first). Sent again every
    RESEND_SECONDS until the work stops (an exception raised inside a finalizer is lost);
    never raised after the block: an exception still on its way is taken back."""
    watchdog = Watchdog(threading.get_ident())
    timer = threading.Thread(target=watchdog.watch, args=(seconds,), daemon=True)
    timer.start()
    try:
        yield
    finally:
        late = not watchdog.finished_in_time()
        timer.join()
        if late:
            raise OutOfTime


RESEND_SECONDS = 0.05


@dataclass
class Watchdog:
    """Sends OutOfTime to a thread past its time, until the thread says it finished."""

    thread: int
    fired: bool = False
    finished: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)

    def watch(self, seconds: float) -> None:
        """Wait ``seconds``, then send OutOfTime every RESEND_SECONDS until the work is over."""
        wait = seconds
        while not self.done.wait(wait):
            with self.lock:
                if self.finished:
                    return
                self.fired = True
                send_exception(self.thread, OutOfTime)
            wait = RESEND_SECONDS

    def finished_in_time(self) -> bool:
        """The work is over: whether it ended before its time (an exception still on its
        way is taken back; one that arrives meanwhile is taken as the answer)."""
        answer = None
        while answer is None:
            answer = self.try_to_finish()
        return answer

    def try_to_finish(self) -> bool | None:
        """Whether the work ended in time, or None when an OutOfTime came meanwhile."""
        try:
            with self.lock:
                self.finished = True
                self.done.set()
                if self.fired:
                    send_exception(self.thread, None)
                return not self.fired
        except OutOfTime:
            return None


def send_exception(thread: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` at its next bytecode (None: take back one not raised yet)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread),
                                               ctypes.py_object(exception) if exception is not None else None)
