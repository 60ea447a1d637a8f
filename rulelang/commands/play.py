"""The command ``play``: one person plays a seat in the terminal against agents, choosing by
number, with 'u' to take back their last choice. A choice with one option only is applied for
the person and said so (unless ``--ask-always``); 'u' takes it back with the choice before it."""

from __future__ import annotations

import contextlib
import random
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulelang.commands.common import ROOT_HELP, SEED_LIMIT, fail, load_game
from rulelang.diagnostics import Diagnostic
from rulelang.errors import BUG_HINT, RulelangError, RulesRuntimeError
from rulelang.report import counted

if TYPE_CHECKING:
    from rich.console import Console

    from rulelang.interpreter import Action, Game, State
    from rulelang.interpreter.agents import Agent

T = TypeVar("T")


def _screen_size(context: click.Context, parameter: click.Parameter, value: str | None) -> tuple[int, int] | None:
    """``WIDTHxHEIGHT`` as two whole numbers (at least 40 by 10)."""
    if value is None:
        return None
    width, _, height = value.lower().partition("x")
    sizes = (_whole_number(width.strip()), _whole_number(height.strip()))
    if sizes[0] is None or sizes[1] is None or sizes[0] < 40 or sizes[1] < 10:
        raise click.BadParameter(f"{value!r} is not WIDTHxHEIGHT, at least 40x10 (say 120x40)")
    return sizes[0], sizes[1]


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
@click.option("--ask-always", is_flag=True,
              help="Ask every choice, even one with a single option (by default it is applied for you and shown).")
@click.option("--screen", "screen_size", default=None, metavar="WIDTHxHEIGHT", callback=_screen_size,
              help="Fit each screen to this size (default: the terminal's; output that is not a terminal "
                   "gets the whole view).")
@click.option("--root", type=click.Path(file_okay=False), default=None, help=ROOT_HELP)
def play(path: str, players: int | None, seat: int, seed: int | None, bots: str, ask_always: bool = False,
         root: str | None = None, screen_size: tuple[int, int] | None = None) -> None:
    """Play one seat in the terminal against agents; choose by number, 'u' takes back your last choice.
    A choice with one option is applied for you (--ask-always: asked too). The screen fits the
    terminal: 'l' shows the whole log, 'z' the whole view, 'n'/'p' turn a page of options."""
    from rich.console import Console

    from rulelang.interpreter.agents import AgentSpecError, derive_seed, parse_agents
    game = load_game(path, players, root)
    if seat > game.num_players:
        raise click.BadParameter(f"this game has {counted(game.num_players, 'seat')}", param_hint="--seat")
    seed = secrets.randbelow(1 << 31) if seed is None else seed
    try:
        specs = parse_agents(bots, game.num_players)
        agents = {p: spec.build(game, derive_seed(seed, p)) for p, spec in enumerate(specs) if p != seat - 1}
    except AgentSpecError as error:
        raise click.BadParameter(error.diagnostic.message, param_hint="--bots") from None
    click.echo(f"{game.title}: {counted(game.num_players, 'player')}, you are player {seat} (seed {seed})")
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:   # bytes that are not text read as a mistyped answer
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")
    console = Console(highlight=False) if screen_size is None else Console(
        highlight=False, width=screen_size[0], height=screen_size[1])
    table = _Table(game, seat - 1, agents, random.Random(derive_seed(seed, -1)), console,
                   ask_always=ask_always, fit=screen_size is not None or console.is_terminal)
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


@dataclass(frozen=True)
class ScreenKey:
    """An answer that asks for more of the screen instead of choosing (a page of options,
    the whole log, the whole view)."""

    key: str


@dataclass
class _Before:
    """The state before one of the seat's choices, the state of every generator then, and
    whether the choice was applied for the person (its only option)."""

    state: State
    drawn: list[tuple[Any, ...]]
    applied_for_you: bool


class _Table:
    """One person at a game against agents: the seat's view, the question, undo; a choice
    with one option is applied for the person unless ``ask_always``."""

    def __init__(self, game: Game, me: int, agents: Mapping[int, Agent], chance: random.Random,
                 console: Console, *, ask_always: bool = False, fit: bool = False) -> None:
        from rulelang.interpreter.hosts.terminal_view import SeatView
        self.me, self.agents, self.chance, self.console = me, agents, chance, console
        self.ask_always, self.fit = ask_always, fit   # fit: each screen to the console's size (read anew)
        self.view = SeatView(game)
        # Before each of the person's choices: the state, and the state of every generator
        # that chance and the agents draw from, so that a choice taken back and made again
        # gives the same game.
        self.earlier: list[_Before] = []
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
        """The state after the person's answer: one choice applied, or the state before the last
        one; a choice with one option applied at once (unless ``ask_always``)."""
        actions = state.legal_actions(self.me)
        if len(actions) == 1 and not self.ask_always:
            return self._apply_only_option(state, actions[0])
        answer = self._answer(state, actions)
        if isinstance(answer, _Undo):
            return self._take_back()
        self._remember(state, applied_for_you=False)
        state.apply_action(answer, player=self.me)
        return state

    def _answer(self, state: State, actions: Sequence[Action]) -> Action | _Undo:
        """The person's answer to the question of ``state``; the keys of the screen (a page of
        options, the whole log or view) followed until it comes."""
        from rulelang.interpreter.hosts.terminal_screen import (
            LOG_KEY,
            NEXT_PAGE_KEY,
            PREVIOUS_PAGE_KEY,
            SCREEN_KEY,
            whole_log,
        )
        page, keys = self._show(state, 0)
        while True:
            answer = ask_action(actions, can_undo=self._can_undo(), keys=keys)
            if not isinstance(answer, ScreenKey):
                return answer
            if answer.key in (NEXT_PAGE_KEY, PREVIOUS_PAGE_KEY, SCREEN_KEY):
                page, keys = self._show(state, page + {NEXT_PAGE_KEY: 1, PREVIOUS_PAGE_KEY: -1}.get(answer.key, 0))
            else:   # printed below the screen, which is drawn again by its key
                self.console.print(whole_log(self.view, state, self.me) if answer.key == LOG_KEY
                                   else self.view.render(state, self.me, log_lines=0))
                keys = {k: what for k, what in keys.items() if k not in (NEXT_PAGE_KEY, PREVIOUS_PAGE_KEY)}

    def _show(self, state: State, page: int) -> tuple[int, dict[str, str]]:
        """Print the seat's view: the whole of it, or (fitting) page ``page`` of its
        screen; the page shown and the keys the screen offers."""
        from rulelang.interpreter.hosts.terminal_screen import fit_screen, screen_keys
        if not self.fit:
            self.console.print(self.view.render(state, self.me))
            return 0, {}
        width, height = self.console.size   # a terminal's as it is now, resized or not
        screen = fit_screen(self.view, state, self.me, width, height - 1, page=page)   # a line for the answer
        self.console.print(screen.renderable)
        return (screen.options.page if screen.options else 0), screen_keys(screen.options)

    def _apply_only_option(self, state: State, action: Action) -> State:
        """Apply the only option of a choice for the person, and say so."""
        decision = state.decision(self.me)
        prompt = decision.prompt if decision is not None and decision.prompt else "choose"
        click.echo(f"{prompt}: {action} (the only option, applied for you"
                   + ("; u at your next choice takes it back)" if self._can_undo() else ")"))
        self._remember(state, applied_for_you=True)
        state.apply_action(action, player=self.me)
        return state

    def _remember(self, state: State, *, applied_for_you: bool) -> None:
        self.earlier.append(_Before(state.clone(), [g.getstate() for g in self.generators], applied_for_you))

    def _can_undo(self) -> bool:
        """Whether a choice of the person's own lies behind (what was applied for them goes
        back with it; alone it would only be applied again)."""
        return any(not before.applied_for_you for before in self.earlier)

    def _take_back(self) -> State:
        """The state before the person's last own choice, the choices applied for them since
        taken back with it."""
        applied = 0
        before = self.earlier.pop()
        while before.applied_for_you:
            applied += 1
            before = self.earlier.pop()
        click.echo("your last choice is taken back"
                   + (f", with the {counted(applied, 'choice')} applied for you after it" if applied else ""))
        for generator, saved in zip(self.generators, before.drawn, strict=True):
            generator.setstate(saved)
        return before.state


MAX_ANSWER = 1000   # characters of one answer read by ``play``; the rest of a longer line is ignored


def ask_action(actions: Sequence[T], can_undo: bool = False,
               keys: Mapping[str, str] | None = None) -> T | _Undo | ScreenKey:
    """Ask for an action by its number in the view (or its exact label) until the answer is
    valid, or ``u`` (undo) when ``can_undo``, or one of the screen's ``keys`` (key: what it
    shows); any other answer (not a number, out of range, empty, unreadable) asks again; end
    of input raises _LeftGame."""
    if not actions:
        raise RulesRuntimeError(Diagnostic("E604", "this choice offers no option"))
    keys = keys or {}
    hint = f"1-{len(actions)}" + (", u: undo" if can_undo else "")
    hint += "".join(f", {key}: {what}" for key, what in keys.items())
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
        if answer.lower() in keys:
            return ScreenKey(answer.lower())
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
