"""The command ``play``: one person plays a seat in the terminal against agents, choosing by
number, with 'u' to take back their last choice."""

from __future__ import annotations

import contextlib
import random
import secrets
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulelang.commands.common import ROOT_HELP, SEED_LIMIT, fail, load_game
from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, RulelangError, RulesRuntimeError

if TYPE_CHECKING:
    from rich.console import Console

    from rulelang.interpreter import Game, State
    from rulelang.interpreter.agents import Agent

T = TypeVar("T")


@click.command()
@click.argument("path")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Default: the fewest allowed.")
@click.option("--seat", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="Your seat: 1 is the first player.")
@click.option("--seed", "-s", type=click.IntRange(-SEED_LIMIT, SEED_LIMIT), default=None,
              help="Default: a fresh random seed (printed).")
@click.option("--bots", default="random", show_default=True, metavar="SPECS",
              help="The agents of the other seats: one for all, or one per seat (yours is ignored); "
                   "random, greedy, greedy:FUNCTION, mcts:N or mcts:Ns (docs/agents.md).")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def play(path: str, players: int | None, seat: int, seed: int | None, bots: str, root: str | None = None) -> None:
    """Play one seat in the terminal against agents; choose by number, 'u' takes back your last choice."""
    from rich.console import Console

    from rulelang.interpreter.agents import AgentSpecError, derive_seed, parse_agents
    game = load_game(path, players, root)
    if seat > game.num_players:
        raise click.BadParameter(f"this game has {game.num_players} seats", param_hint="--seat")
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    try:
        specs = parse_agents(bots, game.num_players)
        agents = {p: spec.build(game, derive_seed(seed, p)) for p, spec in enumerate(specs) if p != seat - 1}
    except AgentSpecError as error:
        raise click.BadParameter(error.diagnostic.message, param_hint="--bots") from None
    click.echo(f"{game.title}: {game.num_players} players, you are player {seat} (seed {seed})")
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:   # bytes that are not text read as a mistyped answer
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")
    table = _Table(game, seat - 1, agents, random.Random(derive_seed(seed, -1)), Console(highlight=False))
    try:
        table.play(game.new_initial_state(seed=seed, events=True))   # the log is narrated
    except _LeftGame:
        click.echo("\nend of input: leaving the game")
    except RulelangError as error:   # the rules failed while running (or, E900, the engine did)
        fail([error.diagnostic], path)
    except Exception as error:   # a bug in rulelang, reported as such
        fail([Diagnostic("E900", f"rulelang failed while playing: {type(error).__name__}: {error}",
                          hint=BUG_HINT).with_file(path)], path)


class _LeftGame(Exception):
    """The person closed the input."""


class _Undo:
    """The answer that takes back the person's last choice."""


UNDO = _Undo()


class _Table:
    """One person at a game against agents: the seat's view, the question, undo."""

    def __init__(self, game: Game, me: int, agents: Mapping[int, Agent], chance: random.Random,
                 console: Console) -> None:
        from rulelang.interpreter.hosts.terminal_view import SeatView
        self.me, self.agents, self.chance, self.console = me, agents, chance, console
        self.view = SeatView(game)
        # Before each of the person's choices: the state, and the state of every generator
        # that chance and the agents draw from, so that a choice taken back and made again
        # gives the same game.
        self.earlier: list[tuple[State, list[tuple[Any, ...]]]] = []
        agent_generators = (getattr(agent, "rng", None) for agent in agents.values())
        self.generators = [chance, *(g for g in agent_generators if isinstance(g, random.Random))]

    def play(self, state: State) -> None:
        """Play ``state`` to its end, showing the seat's view before each of its choices."""
        from rulelang.interpreter.sim.play import play_step
        while not state.is_terminal():
            if self.me in state.current_players():
                state = self._ask(state)
            else:   # a bot's turn, or chance's
                play_step(state, self.agents, self.chance)
        self.console.print(self.view.render(state, self.me))

    def _ask(self, state: State) -> State:
        """The state after the person's answer: one choice applied, or the state before the last one."""
        self.console.print(self.view.render(state, self.me))
        answer = ask_action(state.legal_actions(self.me), can_undo=bool(self.earlier))
        if isinstance(answer, _Undo):
            click.echo("your last choice is taken back")
            before, drawn = self.earlier.pop()
            for generator, saved in zip(self.generators, drawn, strict=True):
                generator.setstate(saved)
            return before
        self.earlier.append((state.clone(), [g.getstate() for g in self.generators]))
        state.apply_action(answer, player=self.me)
        return state


MAX_ANSWER = 1000   # characters of one answer read by ``play``; the rest of a longer line is ignored


def ask_action(actions: Sequence[T], can_undo: bool = False) -> T | _Undo:
    """Ask for an action by its number in the view (or its exact label) until the answer is
    valid, or ``u`` (undo) when ``can_undo``; any other answer (not a number, out of range,
    empty, unreadable) asks again; end of input raises _LeftGame."""
    if not actions:
        raise RulesRuntimeError(Diagnostic("E604", "this choice offers no option"))
    hint = f"1-{len(actions)}" + (", u: undo" if can_undo else "")
    while True:
        click.echo(f"your choice [{hint}]: ", nl=False)
        line = _read_line(MAX_ANSWER + 1)
        if not line:
            raise _LeftGame()
        answer = line.strip()
        if len(line) > MAX_ANSWER:   # an overlong line: drop the rest, ask again
            answer = ""
            while line and not line.endswith("\n"):
                line = _read_line(MAX_ANSWER)
        if answer.lower() in ("u", "undo"):
            if can_undo:
                return UNDO
            click.echo("nothing to take back yet")
            continue
        number = _whole_number(answer)
        if number is not None and 1 <= number <= len(actions):
            return actions[number - 1]
        by_label = [a for a in actions if str(a) == answer]
        if len(by_label) == 1:
            return by_label[0]
        click.echo(f"type a number from 1 to {len(actions)}" + (", or u to take back your choice" if can_undo else ""))


def _read_line(limit: int) -> str:
    """At most ``limit`` characters of the next line of stdin; "" at its end. Bytes that are
    not text read as an empty answer."""
    try:
        return sys.stdin.readline(limit)
    except UnicodeDecodeError:
        return "\n"
    except (OSError, ValueError):   # a closed or broken stream: the end of input
        return ""


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (at most 18 of them), else None."""
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None
