"""``--version`` from the installed metadata, and ``--log-format json``: one JSON
object a line (the real commands in subprocesses)."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from server.logformat import JsonLineFormatter

from .processes import WAIT, server_command

BIN = Path(sys.executable).parent


def test_both_commands_say_their_installed_version() -> None:
    installed = version("skyjo-tui")
    for command in ("skyjo", "skyjo-server"):
        done = subprocess.run(
            [str(BIN / command), "--version"],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert done.returncode == 0 and done.stdout.strip() == f"{command} {installed}"


def test_json_logs_are_one_object_a_line_from_start_to_stop(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [*server_command(tmp_path / "data"), "--log-format", "json"],
            stderr=stderr,
            stdout=subprocess.DEVNULL,
        )
    try:
        records = _records_until(log, process, "data in ")
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(WAIT) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[-1]["message"] == "stopped; everything is saved"
    for record in records:
        assert set(record) == {"time", "level", "logger", "message"}, record
        assert record["time"].endswith("+00:00") and record["level"] == "INFO"
    assert any(
        r["logger"] == "server.app" and r["message"].startswith("listening on 127.0.0.1:")
        for r in records
    )


def _records_until(log: Path, process: subprocess.Popen[bytes], start: str) -> list[dict[str, str]]:
    """The log's records once one starts with ``start`` (bounded: the server must get there)."""
    import time

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        lines = log.read_text().splitlines()
        complete = [json.loads(line) for line in lines if line.endswith("}")]
        if any(r["message"].startswith(start) for r in complete):
            return complete
        assert process.poll() is None, log.read_text()
        time.sleep(0.05)
    raise TimeoutError(log.read_text())


def test_a_json_record_carries_the_exception_and_stays_on_one_line() -> None:
    logger = logging.getLogger("test.json")
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        record = logger.makeRecord(
            "test.json",
            logging.ERROR,
            __file__,
            1,
            "table %r failed",
            ("Évian\n\x1b[2J",),
            sys.exc_info(),
        )
    line = JsonLineFormatter().format(record)
    assert "\n" not in line and "\x1b" not in line
    entry = json.loads(line)
    assert entry["message"] == "table 'Évian\\n\\x1b[2J' failed"
    assert entry["level"] == "ERROR" and entry["logger"] == "test.json"
    assert (
        entry["exception"].startswith("Traceback")
        and "ValueError: bad\nthing" in entry["exception"]
    )
