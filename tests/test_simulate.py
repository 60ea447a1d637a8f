"""Simulation at scale: agents per seat, parallel and Dask runs with identical results, the
statistics of the report (against textbook values), its formats and plots, and `compare`."""
from __future__ import annotations

import csv
import io
import json
import math
import os
import pickle
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.diagnostics import REGISTRY
from rulelang.errors import RulelangError
from rulelang.interpreter.agents import AgentSpec, parse_agents
from rulelang.interpreter.sim import statistics as st
from rulelang.interpreter.sim.extras import MissingExtraError
from rulelang.interpreter.sim.parallel import ParallelError, chunks, make_job
from rulelang.interpreter.sim.plots import require_matplotlib
from rulelang.interpreter.sim.simulate import SimulationReport, compare_reports, simulate

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = str(ROOT / "games" / "tic_tac_toe.rules")
KUHN = str(ROOT / "games" / "kuhn_poker.rules")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
THREE_SEATS = 'game "three" { players 3 }\nphase main { choose x in [1, 2] by players[0] }\n'


def run(*args):
    return CliRunner().invoke(main, list(args))


def results(report: SimulationReport) -> dict:
    data = report.to_dict()
    data.pop("timing")
    return data


@pytest.fixture(scope="module")
def kuhn():
    return rulelang.load(KUHN)


@pytest.fixture(scope="module")
def tic_tac_toe():
    return rulelang.load(TIC_TAC_TOE)


# ---------------------------------------------------------------- statistics against known values

def test_wilson_interval_of_8_in_10():
    low, high = st.wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def test_wilson_interval_edges():
    assert st.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = st.wilson_interval(0, 20)
    assert low == 0.0 and round(high, 4) == 0.1611
    low, high = st.wilson_interval(20, 20)
    assert round(low, 4) == 0.8389 and high == 1.0


def _exact_two_sided(k: int, n: int, p: Fraction) -> float:
    """The exact binomial test by rational arithmetic, as its definition says."""
    pmf = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    return float(sum(q for q in pmf if q <= pmf[k]))


@pytest.mark.parametrize(("k", "n", "p"), [(7, 10, "1/2"), (3, 20, "1/2"), (9, 30, "1/4"), (0, 12, "1/3"),
                                           (12, 12, "1/3"), (40, 100, "1/4")])
def test_binomial_test_matches_its_exact_rational_value(k, n, p):
    assert st.binomial_test(k, n, float(Fraction(p))) == pytest.approx(_exact_two_sided(k, n, Fraction(p)), rel=1e-9)


def test_binomial_test_textbook_values():
    assert st.binomial_test(7, 10, 0.5) == pytest.approx(0.34375)      # 2 * 176 / 1024
    assert st.binomial_test(3, 20, 0.5) == pytest.approx(2 * 1351 / 2**20)
    assert st.binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    assert st.binomial_test(0, 0, 0.5) == 1.0


@pytest.mark.parametrize(("x", "df"), [(3.841458820694124, 1), (5.991464547107979, 2),
                                       (7.814727903251178, 3), (11.070497693516351, 5), (18.307038053275146, 10)])
def test_chi_square_critical_values_give_p_0_05(x, df):
    assert st.chi_square_sf(x, df) == pytest.approx(0.05, abs=1e-9)


def test_chi_square_with_two_degrees_is_an_exponential():
    for x in (0.1, 1.0, 4.0, 30.0):
        assert st.chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)


def test_chi_square_goodness_of_fit():
    # A die thrown 60 times: 5, 8, 9, 8, 10, 20 against 10 each: statistic 13.4 with 5 df, p = 0.0199.
    statistic, df, p = st.chi_square_test([5, 8, 9, 8, 10, 20], [10] * 6)
    assert statistic == pytest.approx(13.4) and df == 5 and p == pytest.approx(0.019905, abs=1e-5)
    assert st.chi_square_test([10, 10], [10, 10])[2] == 1.0


def test_t_distribution():
    assert st.t_two_sided(2.228138851986, 10) == pytest.approx(0.05, abs=1e-9)   # the t table
    assert st.t_two_sided(1.0, 1) == pytest.approx(0.5)   # Cauchy: 1 - 2 atan(1) / pi
    assert st.t_two_sided(0.0, 7) == pytest.approx(1.0)
    assert st.t_quantile(0.975, 10) == pytest.approx(2.228138851986, abs=1e-9)
    assert st.t_quantile(0.975, 1) == pytest.approx(12.706204736, abs=1e-6)


def test_welch_t_test():
    # Means 3 and 7, variances 2.5 and 14, n = 5 and 6: t = 2.376, df = 6.97.
    d = st.mean_difference([1, 2, 3, 4, 5], [2, 4, 6, 8, 10, 12])
    assert d.estimate == 4.0 and d.p_value == pytest.approx(0.04928, abs=1e-4)
    assert d.low is not None and d.high is not None and d.low < 4.0 < d.high
    assert d.low == pytest.approx(4.0 - (d.high - 4.0))
    assert st.mean_difference([1.0], [2.0]).p_value is None


def test_two_proportions_newcombe_interval_and_z_test():
    # Newcombe (1998): 56/70 against 48/80, a difference of 0.2 with the interval 0.0524 to 0.3339.
    d = st.proportion_difference(48, 80, 56, 70)
    assert d.estimate == pytest.approx(0.2)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)
    assert d.p_value == pytest.approx(0.00805, abs=1e-4)   # pooled z = 2.650
    assert st.proportion_difference(5, 10, 5, 10).p_value == pytest.approx(1.0)


def test_describe_quantiles_like_numpy():
    summary = st.describe([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert summary["median"] == 5.5 and summary["p25"] == 3.25 and summary["p90"] == 9.1
    assert summary["mean"] == 5.5 and summary["min"] == 1 and summary["max"] == 10
    assert summary["sd"] == pytest.approx(3.0276503540974917)
    assert st.describe([])["mean"] == 0.0


# ---------------------------------------------------------------- the same results however the games are run

def test_a_game_pickles_for_the_workers(kuhn):
    job = make_job(kuhn, parse_agents("random", 2), 5)
    copy = pickle.loads(pickle.dumps(job))
    assert copy.game().num_players == 2 and copy.play((0, 3)) == job.play((0, 3))


def test_chunks_cover_every_game_once():
    for games, workers in ((0, 2), (1, 2), (7, 3), (1000, 2), (100_000, 4)):
        parts = chunks(games, workers)
        assert [i for start, stop in parts for i in range(start, stop)] == list(range(games))


def test_jobs_1_and_2_give_identical_reports(kuhn, tic_tac_toe):
    for game, games in ((kuhn, 60), (tic_tac_toe, 40)):
        one = simulate(game, games, seed=11, jobs=1)
        two = simulate(game, games, seed=11, jobs=2)
        assert results(one) == results(two)
        assert one.lengths == two.lengths and one.scores == two.scores
        assert two.workers == "2 processes" and two.games == games


def test_dask_in_process_gives_the_local_report(kuhn):
    distributed = pytest.importorskip("distributed")
    local = simulate(kuhn, 40, seed=4)
    before = time.perf_counter()
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        workers = {worker.address for worker in cluster.workers.values()}
        remote = simulate(kuhn, 40, seed=4, scheduler=cluster.scheduler_address, started=before)
    assert results(remote) == results(local)
    assert remote.workers.startswith("Dask")
    timing = remote.to_dict()["timing"]
    assert set(timing["games_by_worker"]) <= workers and sum(timing["games_by_worker"].values()) == 40
    assert timing["wall_seconds"] > timing["seconds"] > 0   # the cluster's start counts in the wall time


def test_the_timing_says_which_processes_played_how_many_games(kuhn):
    alone, shared = simulate(kuhn, 30, seed=1), simulate(kuhn, 30, seed=1, jobs=2)
    assert alone.games_by_worker == {f"process {os.getpid()}": 30}
    assert sum(shared.games_by_worker.values()) == 30 and f"process {os.getpid()}" not in shared.games_by_worker
    assert all(re.fullmatch(r"process \d+", worker) for worker in shared.games_by_worker)
    assert alone.wall_seconds == alone.seconds                  # no earlier start given


def test_an_unreachable_scheduler_is_a_clear_error(kuhn, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setenv("RULELANG_DASK_TIMEOUT", "0.5s")
    with pytest.raises(ParallelError, match=r"cannot use the Dask scheduler at tcp://127\.0\.0\.1:9"):
        simulate(kuhn, 3, scheduler="tcp://127.0.0.1:9")


def test_agents_per_seat_are_used_and_named(tic_tac_toe):
    agents = parse_agents("random", 2)
    report = simulate(tic_tac_toe, 10, seed=1, agents=agents)
    assert report.agents == ["random", "random"]
    assert results(report) == results(simulate(tic_tac_toe, 10, seed=1))   # random is the default
    with pytest.raises(ValueError, match="3 agents for 2 seats"):
        simulate(tic_tac_toe, 1, agents=[AgentSpec()] * 3)


def test_progress_is_reported_up_to_the_total(kuhn):
    seen: list[tuple[int, int]] = []
    simulate(kuhn, 30, seed=2, jobs=2, on_progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (30, 30) and [d for d, _ in seen] == sorted(d for d, _ in seen)


# ---------------------------------------------------------------- the report

def test_report_records_per_game_and_seat_statistics(tic_tac_toe):
    report = simulate(tic_tac_toe, 50, seed=3)
    data = report.to_dict()
    assert len(report.lengths) == report.finished == 50 and all(5 <= n <= 9 for n in report.lengths)
    assert data["length"]["count"] == 50 and data["length"]["mean"] == pytest.approx(data["mean_decisions"])
    seats = data["seats"]
    assert [s["wins"] for s in seats] == data["wins"]
    for seat in seats:
        low, high = seat["win_interval"]
        assert low <= seat["win_rate"] <= high
        assert (low, high) == pytest.approx(st.wilson_interval(seat["wins"], 50), abs=1e-6)
        assert seat["score"]["count"] == 50
    # Tic-tac-toe: a drawn game is won by both (every seat tied): a draw, not a shared win.
    assert data["draws"] == 50 - sum(s["sole_wins"] for s in seats) and data["shared_wins"] == 0
    for seat in seats:
        assert seat["sole_wins"] + seat["shared_wins"] + seat["draws"] + seat["losses"] == 50
        assert seat["wins"] == seat["sole_wins"] + seat["draws"]   # winners() holds both seats in a draw
    first = data["first_player"]
    assert first["decided_games"] == 50 - data["draws"] and first["expected_share"] == 0.5
    assert first["p_value"] == pytest.approx(st.binomial_test(first["sole_wins"], first["decided_games"], 0.5),
                                             rel=1e-5)
    assert 0 <= data["seat_balance"]["p_value"] <= 1 and data["seat_balance"]["df"] == 1


# ---------------------------------------------------------------- the command line

def test_cli_json_is_the_same_for_any_number_of_jobs():
    one = run("simulate", KUHN, "-n", "40", "--seed", "9", "--format", "json", "--jobs", "1")
    two = run("simulate", KUHN, "-n", "40", "--seed", "9", "--format", "json", "--jobs", "2")
    assert one.exit_code == 0, one.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a.pop("timing")["workers"] == "1 process" and b.pop("timing")["workers"] == "2 processes"
    assert a == b and a["agents"] == ["random", "random"] and "first_player" in a


def test_cli_without_a_terminal_prints_a_progress_line_per_tenth_of_the_games():
    result = run("simulate", KUHN, "-n", "200", "--format", "json", "--jobs", "2")
    lines = result.stderr.splitlines()
    done = [int(re.fullmatch(r"simulating: (\d+)/200 games \(\d+%\), [\d.]+ s", line)[1]) for line in lines]
    assert done == sorted(done) and done[-1] == 200 and len(done) <= 10
    assert all(b - a < 20 + 13 for a, b in zip([0, *done[:-1]], done, strict=True))   # each 10%; chunks of 13
    timing = json.loads(result.stdout)["timing"]                # stdout stays clean JSON
    assert timing["wall_seconds"] >= timing["seconds"] and sum(timing["games_by_worker"].values()) == 200
    quiet = run("simulate", KUHN, "-n", "99", "--format", "json")
    assert quiet.stderr == ""                                   # short runs stay quiet


def test_cli_csv_has_one_row_per_seat():
    result = run("simulate", TIC_TAC_TOE, "-n", "30", "--seed", "2", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["seat"] for r in rows] == ["1", "2"] and {r["agent"] for r in rows} == {"random"}
    data = json.loads(run("simulate", TIC_TAC_TOE, "-n", "30", "--seed", "2", "--format", "json").stdout)
    for row, seat in zip(rows, data["seats"], strict=True):
        assert int(row["wins"]) == seat["wins"] and float(row["win_low"]) == seat["win_interval"][0]
        assert int(row["sole_wins"]) == seat["sole_wins"]
        assert float(row["sole_win_high"]) == seat["sole_win_interval"][1]
        assert int(row["draws"]) == seat["draws"] and int(row["shared_wins"]) == seat["shared_wins"]
        assert float(row["score_mean"]) == seat["score"]["mean"] and row["games"] == "30"


def test_cli_text_report_shows_intervals_and_the_first_player_test():
    result = run("simulate", TIC_TAC_TOE, "-n", "60", "--seed", "2", "--jobs", "2")
    assert result.exit_code == 0, result.output
    for text in ("95% interval", "first player:", "exact binomial", "seat balance: chi-square", "length: mean",
                 "agents random, random", "(2 processes)"):
        assert text in result.stdout


def test_cli_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "report.png"
    result = run("simulate", TIC_TAC_TOE, "-n", "30", "--plot", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000
    json.loads(result.stdout)   # the plot's message goes to stderr, the JSON stays clean


def test_cli_plot_to_a_missing_folder_is_a_clean_error(tmp_path):
    pytest.importorskip("matplotlib")
    result = run("simulate", TIC_TAC_TOE, "-n", "3", "--plot", str(tmp_path / "nowhere" / "x.png"))
    assert result.exit_code == 1 and "cannot write the plot" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("agents", ["nobody", "random,random,random", "", "random,"])
def test_cli_bad_agents_are_a_usage_error(agents):
    result = run("simulate", TIC_TAC_TOE, "-n", "3", "--agents", agents)
    assert result.exit_code == 2 and "--agents" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("jobs", ["0", "-2", "two", "1.5"])
def test_cli_bad_jobs_are_a_usage_error(jobs):
    result = run("simulate", TIC_TAC_TOE, "-n", "3", "--jobs", jobs)
    assert result.exit_code == 2 and "--jobs" in result.output and "Traceback" not in result.output


def test_cli_without_dask_says_how_to_install_it(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)   # import distributed fails
    result = run("simulate", TIC_TAC_TOE, "-n", "3", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 1 and "pip install 'rulelang[dist]'" in result.output
    assert "Traceback" not in result.output


def test_cli_without_matplotlib_says_how_to_install_it(monkeypatch, tmp_path):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run("simulate", TIC_TAC_TOE, "-n", "3", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 1 and "pip install 'rulelang[plot]'" in result.output
    assert not (tmp_path / "x.png").exists()


def test_the_errors_of_extras_and_workers_are_rulelang_errors_with_their_codes(monkeypatch, kuhn):
    """What a host gets from a missing extra (E609) or from workers that cannot be used (E610)
    is a RulelangError with its diagnostic, and still a RuntimeError."""
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError) as no_plots:
        require_matplotlib()
    with pytest.raises(MissingExtraError) as no_dask:
        simulate(kuhn, 1, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(ParallelError) as unsendable:
        make_job(lambda: None, parse_agents("random", 2), 0)   # a game that cannot be pickled
    cases = [(no_plots.value, "E609", "missing-extra", "plots need matplotlib"),
             (no_dask.value, "E609", "missing-extra", "running on a Dask cluster needs Dask"),
             (unsendable.value, "E610", "worker-failed", "this game cannot be sent to other processes")]
    for error, code, name, message in cases:
        assert isinstance(error, RulelangError) and isinstance(error, RuntimeError)
        assert error.diagnostic.code == code and REGISTRY[code].name == name
        assert error.diagnostic.message.startswith(message) and str(error) == f"{code} {error.diagnostic.message}"
        assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_cli_prints_the_message_of_a_bad_line_up_as_before():
    result = run("simulate", TIC_TAC_TOE, "-n", "1", "--agents", "mcts:fast")
    assert result.exit_code == 2 and "agent 'mcts:fast': 'fast' is not a budget" in result.output
    assert "E608" not in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------- compare

def test_compare_two_rulesets_uses_the_same_seeds_on_both_sides():
    result = run("compare", TIC_TAC_TOE, TIC_TAC_TOE, "-n", "40", "--seed", "5", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a"]["report"] == data["b"]["report"]   # the same ruleset and seeds: the same games
    rows = {row["measure"]: row for row in data["differences"]}
    assert set(rows) == {"seat 1 sole win rate", "seat 2 sole win rate", "seat 1 mean score", "seat 2 mean score",
                         "mean length (decisions)", "draw rate"}
    assert all(row["difference"] == 0 and row["p_value"] == pytest.approx(1.0) for row in rows.values())
    single = json.loads(run("simulate", TIC_TAC_TOE, "-n", "40", "--seed", "5", "--format", "json").stdout)
    single.pop("timing")
    assert data["a"]["report"]["wins"] == single["wins"]


def test_compare_two_variants_reports_differences_with_intervals():
    result = run("compare", TIC_TAC_TOE, KUHN, "-n", "40", "--seed", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    length = next(r for r in data["differences"] if r["measure"] == "mean length (decisions)")
    assert length["b"] < length["a"] and length["difference"] == pytest.approx(length["b"] - length["a"], abs=1e-5)
    assert length["interval"][0] <= length["difference"] <= length["interval"][1] and length["p_value"] < 0.001


def test_compare_two_lineups_on_one_ruleset_as_text(tmp_path):
    result = run("compare", KUHN, "--agents", "random", "--against-agents", "random,random", "-n", "30",
                 "--plot", str(tmp_path / "c.png"))
    assert result.exit_code == 0, result.output
    assert "A: kuhn_poker.rules (random,random); B: kuhn_poker.rules (random,random)" in result.stdout
    assert "seat 1 sole win rate" in result.stdout and "95% interval" in result.stdout
    if (tmp_path / "c.png").exists():   # drawn when matplotlib is installed
        assert (tmp_path / "c.png").read_bytes().startswith(PNG_SIGNATURE)


def test_compare_needs_a_second_side():
    result = run("compare", KUHN)
    assert result.exit_code == 2 and "--against-agents" in result.output


def test_compare_rulesets_of_different_player_counts_is_a_clear_error(tmp_path):
    path = tmp_path / "three.rules"
    path.write_text(THREE_SEATS)
    result = run("compare", KUHN, str(path), "-n", "3")
    assert result.exit_code == 2 and "is for 2 players" in result.output and "Traceback" not in result.output


def test_compare_reports_of_different_seat_counts_are_refused(kuhn, tmp_path):
    three = rulelang.load(THREE_SEATS)
    with pytest.raises(ValueError, match="2 and 3 players"):
        compare_reports(simulate(kuhn, 2), simulate(three, 2))


# ---------------------------------------------------------------- the documentation

SCALING = ROOT / "docs" / "scaling.md"


def _doc_commands() -> list[str]:
    """Every `rulelang simulate|compare` line of README.md and docs/scaling.md."""
    lines = (ROOT / "README.md").read_text().splitlines() + SCALING.read_text().splitlines()
    return [line.split("#")[0].strip() for line in lines
            if line.strip().startswith(("rulelang simulate", "rulelang compare"))]


@pytest.mark.parametrize("line", _doc_commands())
def test_documented_commands_parse(line):
    import shlex
    words = shlex.split(line.split(">")[0])[1:]
    command = main.get_command(None, words[0])   # type: ignore[arg-type]
    command.make_context(words[0], words[1:])    # raises on an unknown option or a bad value


def test_the_python_example_of_scaling_md_runs(monkeypatch, capsys):
    text = SCALING.read_text()
    block = "# runnable" + text.split("```python\n# runnable", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(block, str(SCALING), "exec"), {})
    assert "p_value" in capsys.readouterr().out


# ---------------------------------------------------------------- stopping

def test_an_interrupted_parallel_run_stops_its_workers(kuhn):
    import multiprocessing

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(kuhn, 400, seed=1, jobs=2, on_progress=interrupt)
    assert multiprocessing.active_children() == []


def test_cli_ctrl_c_exits_130_without_a_traceback(monkeypatch):
    import rulelang.interpreter.sim.simulate as module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "simulate", interrupted)
    result = run("simulate", KUHN, "-n", "5")
    assert result.exit_code == 130 and "interrupted" in result.output and "Traceback" not in result.output


def test_no_games_in_parallel(kuhn):
    report = simulate(kuhn, 0, jobs=2)
    assert report.games == 0 and report.to_dict()["first_player"]["p_value"] == 1.0


def test_a_game_that_cannot_be_built_on_a_worker_is_a_clear_error(tmp_path):
    distributed = pytest.importorskip("distributed")
    import shutil
    shutil.copy(ROOT / "games" / "jamaica.rules", tmp_path)
    shutil.copytree(ROOT / "games" / "jamaica", tmp_path / "jamaica")
    game = rulelang.load(tmp_path / "jamaica.rules", players=3)
    shutil.rmtree(tmp_path / "jamaica")   # as on a machine without the board file: a worker reads it again
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            pytest.raises(ParallelError, match="a worker failed: RulesetError"):
        simulate(game, 4, scheduler=cluster.scheduler_address)
    assert simulate(game, 4, jobs=2).games == 4   # forked workers share the game already built


def test_chunks_done_out_of_order_are_recorded_in_the_games_order(kuhn, monkeypatch):
    from rulelang.interpreter.sim import parallel

    def backwards(job, work, processes, game):   # the last chunk first, as a slow first worker would give
        yield from (job.play(chunk) for chunk in reversed(work))

    monkeypatch.setattr(parallel, "_pool_results", backwards)
    seen: list[int] = []
    shuffled = simulate(kuhn, 50, seed=8, jobs=3, on_progress=lambda done, total: seen.append(done))
    assert results(shuffled) == results(simulate(kuhn, 50, seed=8))
    assert shuffled.lengths == simulate(kuhn, 50, seed=8).lengths and seen[-1] == 50


# ---------------------------------------------------------------- sole wins, shared wins and draws apart

# Seat 1 picks the outcome: 1 a sole win of seat 1, 2 a win shared by seats 1 and 2, 3 a draw.
OUTCOMES = """game "outcomes" { players 3 }
var outcome: int = 0
phase main {
  choose x in [1, 2, 3] by players[0]
  outcome = x
  end game
}
score p = if outcome == 3 then 0 else if p == players[0] then 1 else if outcome == 2 and p == players[1] then 1 else 0
"""
PUBLISHED = {"first": 0.585, "second": 0.288, "draw": 0.127}   # random tic-tac-toe, the exact values rounded


def test_random_tic_tac_toe_gives_the_published_sole_wins_and_draws():
    args = ("simulate", TIC_TAC_TOE, "-n", "1000", "--seed", "5", "--jobs", "1")
    data = json.loads(run(*args, "--format", "json").stdout)
    first, second = data["seats"]
    assert (first["sole_wins"], second["sole_wins"], data["draws"]) == (595, 281, 124)
    draw_interval = st.wilson_interval(data["draws"], data["finished"])
    for share, (low, high) in ((PUBLISHED["first"], first["sole_win_interval"]),
                               (PUBLISHED["second"], second["sole_win_interval"]), (PUBLISHED["draw"], draw_interval)):
        assert low <= share <= high
    text = run(*args).stdout
    rows = [line for line in text.splitlines() if line.startswith("│")]
    assert [row.split("│")[3:6] for row in rows] == [
        [" 595 (59.5%) ", " 56.4-62.5%   ", " 0 (0.0%)    "], [" 281 (28.1%) ", " 25.4-31.0%   ", " 0 (0.0%)    "]]
    assert all("124 (12.4%)" in row for row in rows) and "sole wins" in text and "shared wins" in text
    assert "71.9" not in text and "40.5" not in text   # a draw is not a win of both
    assert "p < 0.001 (exact binomial)" in text and "p = <" not in text


def test_sole_wins_shared_wins_draws_and_losses_add_up_per_seat():
    report = simulate(rulelang.load(OUTCOMES), 300, seed=1)
    by_outcome = {1: 0, 2: 0, 3: 0}
    for first, second in zip(report.scores[0], report.scores[1], strict=True):
        by_outcome[3 if first == 0 else 2 if second == 1 else 1] += 1
    assert all(by_outcome.values())   # every kind of result happened
    assert report.draws == by_outcome[3] and report.shared == by_outcome[2]
    assert report.sole_wins == [by_outcome[1], 0, 0] and report.shared_wins == [by_outcome[2], by_outcome[2], 0]
    for row in report.seat_rows():
        assert row["sole_wins"] + row["shared_wins"] + row["draws"] + row["losses"] == 300
        assert row["draw_rate"] == pytest.approx(by_outcome[3] / 300, abs=1e-6)
    assert [row["losses"] for row in report.seat_rows()] == [0, by_outcome[1], by_outcome[1] + by_outcome[2]]


def test_the_first_player_is_tested_only_for_one_agent_at_every_seat(tic_tac_toe):
    mixed = simulate(tic_tac_toe, 60, seed=2, agents=parse_agents("greedy,random", 2))
    assert mixed.first_player() is None and mixed.seat_balance() is None
    result = run("simulate", TIC_TAC_TOE, "-n", "60", "--agents", "greedy,random", "--jobs", "1")
    assert "first player: not tested, as the seats have different agents" in result.stdout
    assert "seat balance: not tested, as no two seats have the same agent" in result.stdout
    data = json.loads(run("simulate", TIC_TAC_TOE, "-n", "60", "--agents", "greedy,random", "--format", "json").stdout)
    assert data["first_player"] is None and data["seat_balance"] is None


def test_the_seat_balance_of_a_mixed_line_up_compares_seats_of_the_same_agent():
    report = SimulationReport(players=4, seed=0, agents=["greedy", "random", "random", "random"],
                              sole_wins=[70, 10, 10, 10])
    balance = report.seat_balance()
    assert balance is not None and balance["groups"] == [[2, 3, 4]]
    assert balance["statistic"] == 0 and balance["df"] == 2 and balance["p_value"] == 1.0   # greedy's edge left out
    # Two groups: their statistics and degrees of freedom add up.
    report = SimulationReport(players=4, seed=0, agents=["greedy", "random", "greedy", "random"],
                              sole_wins=[30, 5, 10, 15])
    balance = report.seat_balance()
    assert balance is not None and balance["groups"] == [[1, 3], [2, 4]] and balance["df"] == 2
    assert balance["statistic"] == pytest.approx(st.chi_square_test([30, 10], [20, 20])[0]
                                                 + st.chi_square_test([5, 15], [10, 10])[0])
    # One agent everywhere: the usual test of every seat against equal shares.
    same = SimulationReport(players=3, seed=0, sole_wins=[20, 10, 0])
    assert same.seat_balance()["statistic"] == pytest.approx(st.chi_square_test([20, 10, 0], [10, 10, 10])[0])


def test_a_mixed_line_up_with_a_group_says_which_seats_it_compares(tmp_path):
    path = tmp_path / "anyone.rules"   # seat 1 picks the sole winner
    path.write_text('game "anyone" { players 3 }\nvar winner: int = 0\n'
                    'phase main {\n  choose x in [0, 1, 2] by players[0]\n  winner = x\n  end game\n}\n'
                    'score p = if p == players[winner] then 1 else 0\n')
    result = run("simulate", str(path), "-n", "90", "--jobs", "1", "--agents", "random,random,greedy")
    assert result.exit_code == 0, result.output
    assert "seat balance among the seats of the same agent (1, 2): chi-square" in result.stdout
    assert "with 1 df" in result.stdout and "first player: not tested" in result.stdout


def test_the_plot_names_each_seats_agent_shows_scores_per_seat_and_counts_in_whole_numbers(tic_tac_toe):
    pytest.importorskip("matplotlib")
    from rulelang.interpreter.sim.plots import draw_runs, require_matplotlib
    plt = require_matplotlib()
    report = simulate(tic_tac_toe, 7, seed=3, agents=parse_agents("greedy,random", 2))
    figure = draw_runs([report], [""], "t")
    try:
        figure.canvas.draw()
        results, scores, lengths = figure.axes
        for axes in (results, scores):
            assert [t.get_text() for t in axes.get_xticklabels()] == ["seat 1\ngreedy", "seat 2\nrandom"]
        assert len(scores.patches) == 2   # one box of scores per seat, not every seat's scores pooled
        assert all(float(t).is_integer() for t in lengths.get_yticks())
        assert {t.get_text() for t in results.get_legend().get_texts()} >= {"sole wins (95% interval)", "shared wins",
                                                                          "draws"}
    finally:
        plt.close(figure)


def test_counts_of_one_are_singular_in_the_text(tmp_path):
    one = run("simulate", TIC_TAC_TOE, "-n", "1", "--jobs", "1")
    one_games = re.compile(r"(?<![\d.])1 games")   # not "4101 games per second"
    assert "Tic-tac-toe: 1 game, 2 players" in one.stdout and not one_games.search(one.stdout)
    stuck = tmp_path / "stuck.rules"
    stuck.write_text('game "stuck" { players 2 }\nphase main {\n  choose x in [] by players[0]\n}\n')
    failed = run("simulate", str(stuck), "-n", "1", "--jobs", "1")
    assert "1 game stopped on an error" in failed.stdout and "(1 game)" in failed.stdout
    assert not one_games.search(failed.stdout)
    both = run("compare", TIC_TAC_TOE, "--against-agents", "greedy", "-n", "1", "--jobs", "1")
    assert "1 game each, 2 players" in both.stdout
