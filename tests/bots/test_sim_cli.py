"""``skyjo-sim`` as a user runs it: a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.bots import BOT_LEVELS
from server.engine.records import read_records, replay


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.sim", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_json_summary_has_one_entry_per_player() -> None:
    done = sim(
        "--players", "expert,greedy,random", "--games", "6", "--seed", "4",
        "--set", "end-score=40", "--json",
    )  # fmt: skip
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


def test_records_replay_through_the_engine(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    done = sim(
        "--players", "expert,greedy", "--games", "3", "--set", "end-score=30",
        "--set", "clear-columns=off", "--record", str(path), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = list(read_records(path.read_text().splitlines()))
    assert len(records) == 3
    summary = json.loads(done.stdout)
    for record in records:
        game = replay(record)  # raises at the first move or score that does not replay
        assert game.is_over and list(game.winners) == record["winners"]
        assert {seat["bot"] for seat in record["seats"]} == {"expert", "greedy"}
        assert record["settings"]["clear-columns"] == "off"
    expert_seats = [[s["bot"] for s in r["seats"]].index("expert") for r in records]
    expert_wins = sum(seat in r["winners"] for seat, r in zip(expert_seats, records, strict=True))
    assert expert_wins == summary["seats"][0]["wins"]


def test_an_unwritable_record_file_exits_2(tmp_path: Path) -> None:
    done = sim("--games", "1", "--record", str(tmp_path / "missing" / "games.jsonl"))
    assert done.returncode == 2
    assert "cannot write" in done.stderr


def test_help_reads_as_sentences() -> None:
    done = sim("--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # argparse wraps lines
    assert "Bot levels: random:" in text and ".;" not in text
    strongest = list(BOT_LEVELS.values())[-1]
    assert text.endswith(f"{strongest.level}: {strongest.description}")
