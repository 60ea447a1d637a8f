"""Playing a simulation's games in several local processes, or on a Dask cluster.

The games are cut into chunks of consecutive numbers. A worker plays a chunk with
``play.play_game``, which depends only on the run's seed and the game's number, and the
results are handed on in the games' order: the report made of them is the one a single
process would make.

What a worker needs travels once as a ``Job``: the pickled game (a ``Game`` pickles as its
checked declarations and is built again where it is unpickled, reading its board files
there), the agents' specs, the seed and the bound on decisions. Each worker process (or, on
Dask, each worker thread) builds the game once and keeps it for the chunks that follow;
local workers forked on Linux start with the game already built, as copies of the parent.
Ctrl-C in the parent stops the local workers (they ignore it themselves) or cancels the
cluster's tasks.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulelangError

from ..agents import AgentSpec
from .extras import MissingExtraError
from .play import GameResult, OnProgress, bound_of, play_game

if TYPE_CHECKING:
    from ..game import Game

CHUNKS_PER_WORKER = 8   # chunks per worker: enough to balance the load and show progress
MAX_CHUNK = 100         # games in one chunk at most
DIST_HINT = "pip install 'rulelang[dist]'"
Chunk = tuple[int, int]   # games start..stop-1
ChunkResult = tuple[int, list[GameResult], str]   # (start, the results of its games in order, who played it)
OnResult = Callable[[GameResult], None]   # takes each game's result, in the games' order


class ParallelError(RulelangError, RuntimeError):
    """The workers could not be used or failed (a scheduler that cannot be reached, a game
    that cannot be built on a worker...): E610 worker-failed; the diagnostic's message says why."""

    def __init__(self, message: str):
        super().__init__([Diagnostic("E610", message)])



@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play any game of a run, as plain data."""

    game_data: bytes   # the pickled Game
    token: str         # names the game in the workers' caches
    agents: tuple[AgentSpec, ...]
    seed: int
    max_decisions: int

    def game(self) -> Game:
        """This job's game, built once per process and thread and kept."""
        key = (self.token, threading.get_ident())
        game = _GAMES.get(key)
        if game is None:
            game = pickle.loads(self.game_data)
            with _GAMES_LOCK:   # worker threads of one process share the cache
                for old in [k for k in _GAMES if k[1] == key[1]]:   # one game per thread at a time
                    del _GAMES[old]
                _GAMES[key] = game
        return game

    def play(self, chunk: Chunk) -> ChunkResult:
        """The results of the games of ``chunk``, in order, and the worker that played them."""
        start, stop = chunk
        game = self.game()
        played = [play_game(game, self.agents, self.seed, i, self.max_decisions) for i in range(start, stop)]
        return start, played, worker_name()


def worker_name() -> str:
    """Who plays here: a Dask worker's address, or ``process PID`` for a local process."""
    if "distributed" in sys.modules:   # only a Dask run imports it
        from distributed import get_worker
        with contextlib.suppress(ValueError):   # not in a Dask worker
            return str(get_worker().address)
    return f"process {os.getpid()}"


@dataclass
class Played:
    """How the games of a run were played: ``workers`` says on what ("2 processes", "Dask, 4
    worker threads"), ``games_by_worker`` which workers played how many games (each named by
    ``worker_name``)."""

    workers: str
    games_by_worker: dict[str, int] = field(default_factory=dict)


_GAMES: dict[tuple[str, int], Game] = {}   # (job token, thread id) -> the game built for it
_GAMES_LOCK = threading.Lock()


def make_job(game: Game, agents: Sequence[AgentSpec], seed: int) -> Job:
    """The job of a run of ``game``: it must pickle (``Game`` does, as its declarations)."""
    try:
        data = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError) as error:
        raise ParallelError(f"this game cannot be sent to other processes ({error}): play it with one job") from None
    return Job(data, hashlib.sha256(data).hexdigest(), tuple(agents), seed, bound_of(game))


def chunks(games: int, workers: int) -> list[Chunk]:
    """Consecutive ranges covering games 0..games-1, about CHUNKS_PER_WORKER per worker."""
    size = max(1, min(MAX_CHUNK, -(-games // (max(1, workers) * CHUNKS_PER_WORKER))))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def play_in_parallel(game: Game, agents: Sequence[AgentSpec], seed: int, games: int, jobs: int,
                     scheduler: str | None, on_result: OnResult, on_progress: OnProgress | None) -> Played:
    """Play the games of the run seeded with ``seed`` on ``jobs`` local processes (or the Dask
    cluster at ``scheduler``), handing each result to ``on_result`` in the games' order; how
    the games were played, and by which workers."""
    job = make_job(game, agents, seed)
    if scheduler is not None:
        results, workers = _dask_results(job, games, scheduler)
    else:
        work = chunks(games, jobs)
        processes = max(1, min(jobs, len(work)))
        results = _pool_results(job, work, processes, game)
        workers = f"{processes} processes" if processes > 1 else "1 process"
    played = Played(workers)
    _hand_on_in_order(_worker_errors(results), games, on_result, on_progress, played.games_by_worker)
    return played


def _hand_on_in_order(results: Generator[ChunkResult, None, None], games: int, on_result: OnResult,
                      on_progress: OnProgress | None, by_worker: dict[str, int]) -> None:
    """Each game's result of ``results`` (chunks in any order) to ``on_result``, in the games'
    order, as soon as the chunks before it are done, counting in ``by_worker`` the games of
    each worker; the generator is closed at the end."""
    pending: dict[int, list[GameResult]] = {}   # chunks done before an earlier one, by their first game
    done = handed = 0
    try:
        for start, chunk_results, worker in results:
            pending[start] = chunk_results
            by_worker[worker] = by_worker.get(worker, 0) + len(chunk_results)
            done += len(chunk_results)
            while handed in pending:
                for result in pending.pop(handed):
                    on_result(result)
                    handed += 1
            if on_progress is not None:
                on_progress(done, games)
    finally:   # stops the workers at once on an error or Ctrl-C
        results.close()


def _worker_errors(results: Generator[ChunkResult, None, None]) -> Generator[ChunkResult, None, None]:
    """``results``, with an error raised in a worker (a game that cannot be built there: a
    board file missing on a remote machine...) turned into a ParallelError that names it."""
    try:
        yield from results
    except (MissingExtraError, ParallelError):
        raise
    except Exception as error:
        raise ParallelError(f"a worker failed: {type(error).__name__}: {error}") from None


# ---------------------------------------------------------------- local processes

_JOB: Job | None = None   # the job of this worker process


def _start_worker(job: Job) -> None:
    """In a new worker process: leave Ctrl-C to the parent (which stops the workers), and build
    the game once."""
    global _JOB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _JOB = job
    with contextlib.suppress(Exception):   # if it fails, the first chunk fails again and says why
        job.game()


def _play_chunk(chunk: Chunk) -> ChunkResult:
    if _JOB is None:   # pragma: no cover - the initializer always runs first
        raise RuntimeError("a worker process without its job")
    return _JOB.play(chunk)


FORK = sys.platform == "linux"   # fork where it is safe and cheap; spawn elsewhere


def _pool_results(job: Job, work: list[Chunk], processes: int, game: Game) -> Generator[ChunkResult, None, None]:
    """Each chunk's results as it is done, from a pool of ``processes``; the pool is stopped
    when the iteration ends, early too (Ctrl-C in the parent). Forked workers find ``game``
    already built (they start as copies of this process); spawned ones build it from the job."""
    if not work:
        return
    key = (job.token, threading.get_ident())   # the forked workers' main thread keeps this thread's id
    if FORK:
        _GAMES[key] = game
        gc.freeze()   # the collector of a worker leaves the inherited objects alone: no copies of their pages
    try:
        context = multiprocessing.get_context("fork" if FORK else "spawn")
        pool = context.Pool(processes, initializer=_start_worker, initargs=(job,))
    finally:
        if FORK:
            _GAMES.pop(key, None)
            gc.unfreeze()
    with pool:
        yield from pool.imap_unordered(_play_chunk, work)


# ---------------------------------------------------------------- Dask

def _play_chunk_on_worker(job: Job, start: int, stop: int) -> ChunkResult:
    """A chunk played by a Dask worker (module-level, so that workers import it by name)."""
    return job.play((start, stop))


def _client(scheduler: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise MissingExtraError(f"running on a Dask cluster needs Dask: {DIST_HINT}") from None
    try:
        timeout = os.environ.get("RULELANG_DASK_TIMEOUT", "10s")
        return Client(scheduler, timeout=timeout)  # type: ignore[no-untyped-call]  # distributed is untyped here
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ParallelError(f"cannot use the Dask scheduler at {scheduler}: {error}") from None


def _dask_results(job: Job, games: int, scheduler: str) -> tuple[Generator[ChunkResult, None, None], str]:
    """(each chunk's results as it is done, a description of the workers) on the cluster at
    ``scheduler``."""
    client = _client(scheduler)
    threads = sum(client.nthreads().values()) or 1
    return _dask_iterate(client, job, chunks(games, threads)), f"Dask, {threads} worker threads"


def _dask_iterate(client: Any, job: Job, work: list[Chunk]) -> Generator[ChunkResult, None, None]:
    from distributed import as_completed
    with client:
        shared = client.scatter(job, broadcast=True)   # sent once to every worker
        futures = [client.submit(_play_chunk_on_worker, shared, start, stop, pure=False) for start, stop in work]
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
        finally:
            client.cancel(futures)

