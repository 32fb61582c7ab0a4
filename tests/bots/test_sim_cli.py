"""``skyjo-sim`` as a user runs it: a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.sim", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_json_summary_has_one_entry_per_player() -> None:
    done = sim("--players", "expert,greedy,random", "--games", "6", "--seed", "4",
               "--set", "end-score=40", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert set(summary) == {"games", "seats"}
    assert summary["games"] == 6
    assert [s["bot"] for s in summary["seats"]] == ["expert", "greedy", "random"]
    for seat in summary["seats"]:
        assert set(seat) == {"bot", "wins", "win_rate", "mean_round_score"}
        assert seat["win_rate"] == pytest.approx(seat["wins"] / 6, abs=1e-4)
    assert sum(s["wins"] for s in summary["seats"]) >= 6  # shared wins count for each winner
    assert summary["seats"][2]["mean_round_score"] > summary["seats"][0]["mean_round_score"]


def test_same_seed_same_summary_and_a_readable_table() -> None:
    args = ("--players", "greedy,greedy", "--games", "4", "--seed", "9", "--set", "end-score=30")
    assert sim(*args, "--json").stdout == sim(*args, "--json").stdout
    table = sim(*args)
    assert table.returncode == 0
    assert "win rate" in table.stdout and table.stdout.count("greedy") == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "expert,wizard"], "unknown bot 'wizard'"),
        (["--players", "expert"], "2 to 8 players"),
        (["--players", ",".join(["greedy"] * 9)], "2 to 8 players"),
        (["--games", "0"], "at least 1"),
        (["--games", "many"], "not a whole number"),
        (["--set", "end-score=5"], "end-score"),
        (["--set", "colour=blue"], "unknown setting 'colour'"),
        (["--set", "starter"], "NAME=VALUE"),
        (["--seed", "x"], "--seed"),
    ],
)
def test_a_bad_option_exits_2_with_a_message(args: list[str], message: str) -> None:
    done = sim(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_help_names_every_option() -> None:
    done = sim("--help")
    assert done.returncode == 0
    for option in ("--players", "--games", "--seed", "--set", "--record", "--json"):
        assert option in done.stdout
