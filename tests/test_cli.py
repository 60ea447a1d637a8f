"""The command line (`rulelang lint | graph | simulate | play`) through click's CliRunner,
and the linter's driver on hostile input."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.check import linter
from rulelang.check.graph import END, START, phase_graph, to_dot, to_mermaid
from rulelang.cli import main
from rulelang.diagnostics import REGISTRY
from rulelang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = str(ROOT / "games" / "tic_tac_toe.rules")
CLEAN = str(ROOT / "tests" / "lint" / "base_ok.rules")
LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[EWI]\d{3}) ", re.M)

BROKEN = """game "broken" { players 2 }
player var points: int = 0

phase main {
  for p in players {
    p.points += bonus
  }
}
"""


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text(BROKEN)
    return str(path)


# ---------------------------------------------------------------- lint

def test_lint_clean_files_exit_0():
    result = run("lint", TIC_TAC_TOE, CLEAN)
    assert result.exit_code == 0, result.output
    assert "no problems in 2 files" in result.output


def test_lint_broken_file_exits_1_with_location_source_and_caret(broken):
    result = run("lint", broken)
    assert result.exit_code == 1
    match = LOCATION.search(result.stdout)
    assert match and match["file"] == broken and match["code"] == "E101"
    assert (match["line"], match["col"]) == ("6", "17")
    lines = result.stdout.splitlines()
    at = lines.index(match.group(0).rstrip() + " unknown name 'bonus'")
    assert "p.points += bonus" in lines[at + 1]
    caret = lines[at + 2]
    assert caret.strip() == "^~~~~" and caret.index("^") == lines[at + 1].index("bonus")
    assert "1 error in 1 file" in result.stdout


def test_lint_json_parses(broken):
    result = run("lint", "--format", "json", broken, TIC_TAC_TOE)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [d["code"] for d in data] == ["E101"]
    keys = {"code", "severity", "message", "hint", "file", "line", "column", "end_line", "end_column"}
    assert set(data[0]) == keys
    assert data[0]["severity"] == "error" and data[0]["line"] == 6


def test_lint_sarif_lists_rules_and_results(broken):
    result = run("lint", "--format", "sarif", broken)
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    assert len(run_["tool"]["driver"]["rules"]) == len(REGISTRY)
    (found,) = run_["results"]
    assert found["ruleId"] == "E101" and found["level"] == "error"
    assert found["locations"][0]["physicalLocation"]["region"]["startLine"] == 6


def test_lint_github_annotations(broken):
    result = run("lint", "--format", "github", broken)
    assert result.stdout.startswith(f"::error file={broken},line=6,col=17,")
    assert result.stdout.rstrip().endswith("::E101 unknown name 'bonus'")


def test_lint_select_ignore_and_exit_zero(broken):
    assert run("lint", "--ignore", "E1", broken).exit_code == 0
    assert run("lint", "--select", "W3,E2", broken).exit_code == 0
    assert run("lint", "--select", "E101", broken).exit_code == 1
    assert run("lint", "--exit-zero", broken).exit_code == 0


def _unknown_names(folder: Path, count: int, also: tuple[str, ...] = ()) -> str:
    path = folder / "many.rules"
    lines = ['game "T" { players 2 }', "phase main {", *(f"  log u{i}" for i in range(count)),
             *(f"  log {text}" for text in also), "}"]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_lint_shows_the_first_problems_of_a_file_and_counts_the_rest_by_code(tmp_path):
    path = _unknown_names(tmp_path, 150, also=("size(3)",))
    result = run("lint", path)
    shown = [m["code"] for m in LOCATION.finditer(result.stdout)]
    assert shown == ["E101"] * 100 and result.exit_code == 1
    assert f"{path}: and 50 more E101\n" in result.stdout
    assert "151 errors in 1 file" in result.stdout   # the summary counts every problem
    everything = run("lint", "--max-shown", "0", path)
    assert len(LOCATION.findall(everything.stdout)) == 151 and "more E" not in everything.stdout
    few = run("lint", "--max-shown", "3", path).stdout
    assert len(LOCATION.findall(few)) == 3 and few.index("and 147 more E101") < few.index("and 1 more E206")
    as_json = json.loads(run("lint", "--format", "json", path).stdout)
    assert len(as_json) == 151


def test_lint_warnings_count_as_problems():
    result = run("lint", str(ROOT / "tests" / "lint" / "graph_w301.rules"))
    assert result.exit_code == 1 and "1 warning in 1 file" in result.stdout


@pytest.mark.parametrize("args", [[], ["--format", "xml", "x.rules"], ["--select", "Z9", "x.rules"]])
def test_lint_usage_errors_exit_2(args):
    assert run("lint", *args).exit_code == 2


def test_lint_missing_path_and_empty_directory(tmp_path):
    result = run("lint", str(tmp_path / "nope.rules"), str(tmp_path))
    assert result.exit_code == 1
    assert [m["code"] for m in LOCATION.finditer(result.stdout)] == ["E001", "E001"]


def test_lint_directory_recursively(tmp_path, broken):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ok.rules").write_text(Path(TIC_TAC_TOE).read_text())
    result = run("lint", str(tmp_path))
    assert result.exit_code == 1 and "1 error in 2 files" in result.stdout


@pytest.mark.parametrize("content", [b"", b"\x00\x01\xff\xfe" * 50, "phase main { let x = \u00e9".encode("latin-1"),
                                     b"phase main {" * 10_000, b"game \"t\" { players 2 }\nphase main { next"])
def test_lint_hostile_files_never_crash(tmp_path, content):
    path = tmp_path / "hostile.rules"
    path.write_bytes(content)
    result = run("lint", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert LOCATION.search(result.stdout)


def test_lint_text_turns_internal_failures_into_e900(monkeypatch):
    def explode(ctx):
        raise ValueError("boom")
    monkeypatch.setattr(linter, "STAGES", [linter.STAGES[0], explode])
    (found,) = linter.lint_text(Path(TIC_TAC_TOE).read_text(), "t.rules")
    assert found.code == "E900" and "boom" in found.message and found.span.file == "t.rules"
    assert "bug in rulelang" in found.hint


def test_lint_text_lets_keyboard_interrupt_through(monkeypatch):
    def interrupt(ctx):
        raise KeyboardInterrupt
    monkeypatch.setattr(linter, "STAGES", [interrupt])
    with pytest.raises(KeyboardInterrupt):
        linter.lint_text("phase main { }", "t.rules")


def test_lint_paths_sorted_by_file_line_column(tmp_path):
    (tmp_path / "b.rules").write_text(BROKEN)
    (tmp_path / "a.rules").write_text("phase main {\n  next x\n  call y()\n}\n")
    found = linter.lint_paths([tmp_path])
    keys = [(d.span.file, d.span.line, d.span.column) for d in found]
    assert keys == sorted(keys) and len(found) >= 2


def test_python_dash_m_rulelang():
    done = subprocess.run([sys.executable, "-m", "rulelang", "lint", TIC_TAC_TOE], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "no problems in 1 file" in done.stdout


# ---------------------------------------------------------------- graph

def test_graph_dot_and_mermaid_show_the_phases():
    dot = run("graph", CLEAN)
    assert dot.exit_code == 0 and dot.stdout.startswith("digraph")
    for name in ("main", "finish", "tally", "setup"):
        assert name in dot.stdout
    mermaid = run("graph", CLEAN, "--format", "mermaid")
    assert mermaid.exit_code == 0 and mermaid.stdout.startswith("flowchart LR")
    assert "finish" in mermaid.stdout


def test_phase_graph_nodes_and_edges():
    g = phase_graph(parse(Path(CLEAN).read_text(), CLEAN).declarations)
    assert g.nodes["main"]["decision"] and g.nodes["@setup"]["chance"]
    assert g.edges["main", "finish"]["kind"] == "next"
    assert g.edges["finish", "tally"]["kind"] == "call"
    assert g.has_edge("finish", END) and g.has_edge(START, "@setup")
    assert not g.has_edge("main", END)   # its loop only leaves by 'next finish'
    assert "main" in to_dot(g) and "tally" in to_mermaid(g)


def test_graph_of_broken_syntax_exits_1(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text("phase main {")
    result = run("graph", str(path))
    assert result.exit_code == 1 and "E003" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------- simulate

def _deterministic(result):
    data = json.loads(result.stdout)
    data.pop("timing")
    return data


def test_simulate_json_is_deterministic_for_a_seed():
    first = run("simulate", TIC_TAC_TOE, "--games", "50", "--seed", "7", "--format", "json")
    second = run("simulate", TIC_TAC_TOE, "--games", "50", "--seed", "7", "--format", "json")
    assert first.exit_code == 0, first.output
    a, b = _deterministic(first), _deterministic(second)
    assert a == b
    assert a["games"] == 50 and a["finished"] + a["unfinished"] == 50
    assert len(a["wins"]) == len(a["mean_score"]) == 2
    assert 5 <= a["mean_decisions"] <= 9
    other = _deterministic(run("simulate", TIC_TAC_TOE, "--games", "50", "--seed", "8", "--format", "json"))
    assert other != a


def test_simulate_text_table():
    result = run("simulate", TIC_TAC_TOE, "--games", "20", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "seat" in result.stdout and "mean score" in result.stdout and "20 games" in result.stdout
    assert re.search(r"length: mean \d\.\d\d decisions \(sd", result.stdout)


def test_simulate_counts_unfinished_games(tmp_path):
    path = tmp_path / "long.rules"
    path.write_text('game "long" { players 2  max_decisions 5 }\n'
                    'phase main { repeat { for p in players { choose x in [1, 2] by p } } }\n')
    data = _deterministic(run("simulate", str(path), "--games", "3", "--format", "json"))
    assert data["unfinished"] == 3 and data["errors"] == {"max_decisions": 3}
    text = run("simulate", str(path), "--games", "3").stdout
    assert "length: no game finished;" in text and "mean 0.00" not in text


def test_simulate_wrong_player_count_is_a_diagnostic():
    result = run("simulate", TIC_TAC_TOE, "--players", "5")
    assert result.exit_code == 1 and "E601" in result.output and "Traceback" not in result.output


def test_simulate_broken_file_prints_lint_diagnostics(broken):
    result = run("simulate", broken, "--games", "3")
    assert result.exit_code == 1
    assert f"{broken}:6:17: E101" in result.output and "^~~~~" in result.output


# ---------------------------------------------------------------- play

def test_play_to_the_end_with_scripted_input():
    result = run("play", TIC_TAC_TOE, "--seed", "3", input="1\n" * 9)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "you are player 1" in result.output
    assert "│ 1 │" in result.output and "│ 3 │" in result.output   # the board is drawn
    assert "choose cell in spaces(grid)" in result.output   # what is asked, derived from the rule
    assert "1.  a1" in result.output   # the options, numbered in the view
    # The log is narrated: a phase heading, each choice and what it changed.
    assert "== phase play ==" in result.output and "player 1 chooses a1" in result.output
    assert "mark of a1 is now player 1" in result.output


def test_play_takes_back_the_last_choice():
    result = run("play", TIC_TAC_TOE, "--seed", "3", input="u\n1\nu\n5\n" + "1\n" * 9)
    assert result.exit_code == 0, result.output
    assert "nothing to take back yet" in result.output   # before any choice
    assert result.output.count("your last choice is taken back") == 1
    views = result.output.split("Tic-tac-toe - you are player 1")
    # After the undo the view is the first one again: an empty board and nine options.
    assert "9 options" in views[1] and "9 options" in views[3] and "7 options" in views[2]
    assert "│ 1 │ P1" not in views[3]


def test_a_choice_taken_back_and_made_again_gives_the_same_game():
    # The bots draw from generators that are put back with the state: the same answer
    # after an undo meets the same replies, to the end.
    again = run("play", TIC_TAC_TOE, "--seed", "3", input="1\nu\n" + "1\n" * 9)
    straight = run("play", TIC_TAC_TOE, "--seed", "3", input="1\n" * 9)
    assert again.exit_code == 0 == straight.exit_code
    after_undo = again.output.split("your last choice is taken back\n", 1)[1]
    assert after_undo == straight.output.split("\n", 1)[1]


def test_play_with_other_bots_and_a_bad_line_up():
    result = run("play", TIC_TAC_TOE, "--seed", "3", "--bots", "greedy", input="1\n" * 9)
    assert result.exit_code == 0 and "game over" in result.output, result.output
    bad = run("play", TIC_TAC_TOE, "--bots", "nobody", input="")
    assert bad.exit_code == 2 and "--bots" in bad.output and "Traceback" not in bad.output


def test_play_second_seat_and_bad_answers():
    result = run("play", TIC_TAC_TOE, "--seed", "3", "--seat", "2", input="zero\n99\n" + "1\n" * 9)
    assert result.exit_code == 0, result.output
    assert "type a number from 1 to" in result.output and "game over" in result.output


def test_play_stops_cleanly_at_end_of_input():
    result = run("play", TIC_TAC_TOE, "--seed", "3", input="")
    assert result.exit_code == 0
    assert "end of input" in result.output and "Traceback" not in result.output


def test_play_seat_out_of_range_is_a_usage_error():
    assert run("play", TIC_TAC_TOE, "--seat", "3", input="").exit_code == 2


EMPTY_CHOICE = 'game "stuck" { players 2 }\nphase main {\n  choose x in [] by players[0]\n}\n'


def test_runtime_errors_are_diagnostics_in_play_and_counted_in_simulate(tmp_path):
    path = tmp_path / "stuck.rules"
    path.write_text(EMPTY_CHOICE)
    played = run("play", str(path), "--seed", "1", input="1\n")
    assert played.exit_code == 1 and "E604" in played.output and "Traceback" not in played.output
    data = _deterministic(run("simulate", str(path), "--games", "4", "--format", "json"))
    assert data["unfinished"] == 4 and data["errors"] == {"E604": 4}


# ---------------------------------------------------------------- errors in simulate, mistakes in play

TWO_ERRORS = '''game "two errors" { players 2 }
var n: int = 0

phase main {
  choose x in [1, 2] by players[0]
  if x == 1 {
    choose y in [] by players[1]
  }
  n = 1 / (x - 2)
}
'''


def test_simulate_prints_each_distinct_error_once_with_location_and_exits_1(tmp_path):
    path = tmp_path / "errors.rules"
    path.write_text(TWO_ERRORS)
    result = run("simulate", str(path), "--games", "30", "--seed", "2")
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = [line.strip() for line in result.stdout.splitlines() if LOCATION.match(line.strip())]
    assert len(lines) == 2, result.stdout          # two distinct errors, each listed once
    found = {LOCATION.match(line)["code"]: line for line in lines}
    assert found["E604"].startswith(f"{path}:7:5: E604 this choice offers no option")
    assert found["E602"].startswith(f"{path}:9:3: E602 division by zero")
    counts = [int(re.search(r"\((\d+) games\)$", line)[1]) for line in lines]
    assert sum(counts) == 30 and "30 games stopped on an error" in result.stdout
    data = _deterministic(run("simulate", str(path), "--games", "30", "--seed", "2", "--format", "json"))
    assert data["failed"] == 30 and data["unfinished"] == 30
    details = {d["location"]: d for d in data["error_details"]}
    assert details[f"{path}:7:5"]["code"] == "E604" and details[f"{path}:7:5"]["message"]
    assert sum(d["games"] for d in data["error_details"]) == 30


def test_simulate_exits_0_when_games_are_only_cut_by_max_decisions(tmp_path):
    path = tmp_path / "long.rules"
    path.write_text('game "long" { players 2  max_decisions 5 }\n'
                    'phase main { repeat { for p in players { choose x in [1, 2] by p } } }\n')
    result = run("simulate", str(path), "--games", "3", "--format", "json")
    assert result.exit_code == 0
    data = _deterministic(result)
    assert data["unfinished"] == 3 and data["failed"] == 0 and data["error_details"] == []


def test_simulate_title_with_markup_characters_is_printed_as_text(tmp_path):
    path = tmp_path / "markup.rules"
    path.write_text('game "a [/] [bold]b" { players 2 }\nphase main { choose x in [1, 2] by players[0] }\n')
    result = run("simulate", str(path), "--games", "2")
    assert result.exit_code == 0, result.output
    assert "a [/] [bold]b: 2 games" in result.stdout


def test_simulate_seed_out_of_range_is_a_usage_error():
    result = run("simulate", TIC_TAC_TOE, "--games", "1", "--seed", "9" * 5000)
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("answer", ["", "abc", "0", "10", "-1", "1.5", "\u00b2", "\u0661", "9" * 5000, " ", "x" * 3000])
def test_play_asks_again_after_a_mistyped_answer(answer):
    result = run("play", TIC_TAC_TOE, "--seed", "3", input=answer + "\n" + "1\n" * 9)
    assert result.exit_code == 0, result.output
    assert "type a number from 1 to 9" in result.output and "game over" in result.output
    assert "Traceback" not in result.output and "bug in rulelang" not in result.output


def test_play_reads_bytes_that_are_not_text_as_a_mistyped_answer():
    result = run("play", TIC_TAC_TOE, "--seed", "3", input=b"\xff\xfe\n" + b"1\n" * 9)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "Traceback" not in result.output


def test_play_end_of_input_mid_game_and_mid_line_leaves_cleanly():
    result = run("play", TIC_TAC_TOE, "--seed", "3", input="1\n1\n12")
    assert result.exit_code == 0 and "end of input" in result.output
    assert "Traceback" not in result.output and "bug in rulelang" not in result.output


# ---------------------------------------------------------------- serve

def test_serve_answers_requests_on_stdin_and_a_taken_port_is_a_clean_error():
    import socket
    import subprocess
    import sys
    requests = '{"id": 1, "op": "hello"}\n{"id": 2, "op": "nonsense"}\nnot json\n'
    done = subprocess.run([sys.executable, "-m", "rulelang", "serve"], input=requests, capture_output=True,
                          text=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [r["ok"] for r in replies] == [True, False, False]
    assert replies[0]["result"]["protocol"] >= 1 and replies[1]["error"]["code"].startswith("P")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = run("serve", "--port", str(taken.getsockname()[1]))
    assert busy.exit_code == 1 and "Traceback" not in busy.output


@pytest.mark.parametrize("command", [["simulate", TIC_TAC_TOE, "-n", "2", "--agents", "mcts:5,greedy:nope"],
                                     ["compare", TIC_TAC_TOE, "-n", "2", "--against-agents", "greedy:nope"],
                                     ["play", TIC_TAC_TOE, "--bots", "greedy:nope"]])
def test_an_agent_that_does_not_fit_the_game_is_a_usage_error(command):
    result = run(*command, input="")
    assert result.exit_code == 2 and "nope" in result.output and "Traceback" not in result.output


LIMIT_FLAGS = ["--agent-iterations", "--agent-seconds", "--memory-mib", "--idle-timeout", "--read-timeout",
               "--write-timeout"]


@pytest.mark.parametrize("command", ["serve", "web"])
def test_serve_and_web_pass_their_limits_to_the_server(command, monkeypatch, tmp_path):
    from rulelang.interpreter.hosts import server as tcp_server
    from rulelang.interpreter.hosts import web as web_server
    from rulelang.interpreter.hosts.budgets import AgentBudget, ConnectionTimeouts
    from rulelang.interpreter.hosts.memory import MemoryBudget
    received = {}
    target = tcp_server if command == "serve" else web_server
    monkeypatch.setattr(target, "serve", lambda *args, **kwargs: received.update(kwargs))
    where = [] if command == "serve" else [str(tmp_path), "--no-browser"]
    given = run(command, *where, "--agent-iterations", "50", "--agent-seconds", "1.5", "--memory-mib", "64",
                "--idle-timeout", "7", "--read-timeout", "3", "--write-timeout", "4")
    assert given.exit_code == 0, given.output
    assert received["agent_budget"] == AgentBudget(max_iterations=50, max_seconds=1.5)
    assert received["timeouts"] == ConnectionTimeouts(idle_seconds=7, read_seconds=3, write_seconds=4)
    assert received["memory"].limit == 64 * 2**20
    received.clear()
    assert run(command, *where).exit_code == 0   # no flags: the servers' own defaults
    assert received["agent_budget"] == AgentBudget() and received["timeouts"] == ConnectionTimeouts()
    assert received["memory"].limit == MemoryBudget().limit


@pytest.mark.parametrize("command", ["serve", "web"])
@pytest.mark.parametrize(("flag", "value"), [("--agent-iterations", "0"), ("--agent-seconds", "-1"),
                                             ("--memory-mib", "0"), ("--idle-timeout", "0"),
                                             ("--read-timeout", "nan"), ("--write-timeout", "inf"),
                                             ("--agent-seconds", "soon")])
def test_a_limit_out_of_range_is_a_usage_error(command, flag, value, monkeypatch, tmp_path):
    from rulelang.interpreter.hosts import server as tcp_server
    from rulelang.interpreter.hosts import web as web_server
    started = []
    monkeypatch.setattr(tcp_server if command == "serve" else web_server, "serve", lambda *a, **k: started.append(1))
    where = [] if command == "serve" else [str(tmp_path), "--no-browser"]
    refused = run(command, *where, flag, value)
    assert refused.exit_code == 2 and flag in refused.output and "Traceback" not in refused.output
    assert not started


@pytest.mark.parametrize("command", ["serve", "web"])
def test_the_help_of_serve_and_web_lists_the_limits_with_their_defaults(command):
    shown = run(command, "--help")
    assert shown.exit_code == 0
    for flag in LIMIT_FLAGS:
        assert flag in shown.output
    assert "20000" in shown.output and "1024" in shown.output and "300.0" in shown.output


def test_the_command_line_imports_no_runtime_module():
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import rulelang.cli"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "rulelang.cli" in done.stderr
    assert "rulelang.interpreter" not in done.stderr


def test_the_servers_own_main_takes_the_same_limits(monkeypatch):
    from rulelang.interpreter.hosts import server as tcp_server
    received = {}
    monkeypatch.setattr(tcp_server, "serve", lambda *args, **kwargs: received.update(kwargs))
    assert tcp_server.main(["--memory-mib", "32", "--write-timeout", "2", "--agent-iterations", "9"]) == 0
    assert received["memory"].limit == 32 * 2**20 and received["timeouts"].write_seconds == 2
    assert received["agent_budget"].max_iterations == 9
    for refused in (["--memory-mib", "0"], ["--idle-timeout", "-3"], ["--agent-seconds", "nan"]):
        with pytest.raises(SystemExit) as stopped:
            tcp_server.main(refused)
        assert stopped.value.code == 2


# ---------------------------------------------------------------- the root of a command

def said(*args: str) -> str:
    """What a command prints, its errors included."""
    result = run(*args)
    return result.output + (result.stderr if result.stderr_bytes is not None else "")


BASE = 'game "Base" { players 2 }\nphase p { end game }\n'


def test_a_command_roots_a_file_in_the_current_folder_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant in a subfolder of the current folder may extend a ruleset beside that
    subfolder (as examples/variants/ extend games/); from elsewhere, or with a narrower
    --root, the file's folder is its root as before (E501)."""
    (tmp_path / "games").mkdir()
    (tmp_path / "variants").mkdir()
    (tmp_path / "games" / "base.rules").write_text(BASE)
    variant = tmp_path / "variants" / "fast.rules"
    variant.write_text('extends "../games/base.rules"\n')
    (tmp_path / "variants" / "fast.tests").write_text(
        'ruleset "fast.rules"\n\nscenario "it ends" {\n  expect over\n}\n')
    monkeypatch.chdir(tmp_path)
    assert said("lint", "variants/fast.rules") == "no problems in 1 file\n"
    assert "1 passed" in said("test", "variants/fast.tests")
    assert "E501" in said("lint", "--root", "variants", "variants/fast.rules")
    assert "E501" in said("test", "--root", "variants", "variants/fast.tests")
    monkeypatch.chdir(tmp_path / "variants")   # the file's folder: no wider root to take
    assert "E501" in said("lint", "fast.rules")
    assert "E501" in said("test", "fast.tests")
    assert "E501" in said("graph", "fast.rules")
    monkeypatch.chdir(tmp_path / "games")
    assert "E501" in said("lint", str(variant))   # a file outside the current folder
