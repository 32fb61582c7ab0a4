"""The garbage-collector policy as the real ``skyjo-server`` applies it, process by process.

A probe (a ``sitecustomize`` module on the server's ``PYTHONPATH``, which the
server hands on to its workers) writes a process's collector state when it
gets SIGUSR1: its thresholds, how many objects are frozen, and who listens to
its collections.  With worker processes the server process keeps small young
generations and frozen imports, but no scheduler freezing survivors and
thawing: its thaw walked the whole heap and paused every player at once
(issue 11).  The workers, and a server running the screens itself, keep it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from server.termhost.gcpolicy import DEFAULT_GC_POLICY

SERVER = Path(sys.executable).with_name("skyjo-server")
WAIT = 60.0
PROBE = """
import gc, json, os, signal

def _dump(signum, frame):
    state = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(),
             "callbacks": [getattr(c, "__qualname__", repr(c)) for c in gc.callbacks]}
    path = os.path.join(os.environ["SKYJO_TEST_GC_PROBE"], f"{os.getpid()}.json")
    with open(path + ".tmp", "w") as file:
        json.dump(state, file)
    os.replace(path + ".tmp", path)

if os.environ.get("SKYJO_TEST_GC_PROBE"):
    signal.signal(signal.SIGUSR1, _dump)
"""
SCHEDULER = "GCScheduler._after_collection"


def wait_for(predicate: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if found := predicate():
            return found
        time.sleep(0.05)
    raise TimeoutError(what)


class ProbedServer:
    """``skyjo-server`` (TCP and SSH on 127.0.0.1, free ports) with the probe in every process."""

    def __init__(self, tmp_path: Path, workers: int) -> None:
        probe = tmp_path / "probe"
        probe.mkdir()
        (probe / "sitecustomize.py").write_text(PROBE)
        self.states = tmp_path / "states"
        self.states.mkdir()
        self.log = tmp_path / "server.log"
        env = {
            **os.environ,
            "SKYJO_TEST_GC_PROBE": str(self.states),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(probe), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        self.process = subprocess.Popen(
            [
                str(SERVER),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--ssh-port",
                "0",
                "--no-web",  # the browser door's default port is 8080: not a free one
                "--data-dir",
                str(tmp_path / "data"),
                "--workers",
                str(workers),
                "--log-level",
                "INFO",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("w"),
        )
        wait_for(self._ssh_listening, "the SSH door did not start")

    def _ssh_listening(self) -> bool:
        assert self.process.poll() is None, self.log.read_text()
        return re.search(r"SSH front door on 127\.0\.0\.1:\d+", self.log.read_text()) is not None

    def workers(self) -> list[int]:
        pid = self.process.pid
        return [
            int(child)
            for task in os.listdir(f"/proc/{pid}/task")
            for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        ]

    def state(self, pid: int) -> dict[str, Any]:
        path = self.states / f"{pid}.json"
        path.unlink(missing_ok=True)
        os.kill(pid, signal.SIGUSR1)
        wait_for(path.exists, f"process {pid} did not answer the probe")
        return json.loads(path.read_text())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)


@pytest.fixture
def probed(tmp_path: Path) -> Any:
    started: list[ProbedServer] = []

    def start(workers: int) -> ProbedServer:
        started.append(ProbedServer(tmp_path, workers))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def test_with_workers_the_server_process_has_the_policy_but_never_thaws(probed: Any) -> None:
    server = probed(workers=1)
    own = server.state(server.process.pid)
    assert tuple(own["threshold"]) == DEFAULT_GC_POLICY.thresholds
    assert own["frozen"] > 10_000  # the imports
    assert SCHEDULER not in own["callbacks"]  # no survivor freezing, hence no thaw

    [worker] = server.workers()
    theirs = server.state(worker)
    assert tuple(theirs["threshold"]) == DEFAULT_GC_POLICY.thresholds
    assert theirs["frozen"] > 10_000
    assert SCHEDULER in theirs["callbacks"]  # the screens' heap is frozen as it grows


def test_without_workers_the_server_process_freezes_and_thaws_its_screens(probed: Any) -> None:
    server = probed(workers=0)
    assert server.workers() == []
    own = server.state(server.process.pid)
    assert tuple(own["threshold"]) == DEFAULT_GC_POLICY.thresholds
    assert own["frozen"] > 10_000
    assert SCHEDULER in own["callbacks"]
