"""The hosts kit cleans up after itself: on failure, and after a run that was killed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .kit import PREFIX, ip, namespaces, network


def test_everything_is_removed_when_a_test_fails(needs_hosts: None, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="the test failed"), network() as other:
        host = other.host("alone", 2)
        sleeper = host.start(["sleep", "600"], tmp_path / "sleep.log")
        assert host.namespace in namespaces()
        raise RuntimeError("the test failed")
    assert sleeper.wait(10) != 0  # killed, not left running
    assert not [name for name in namespaces() if name.startswith(other.tag)]


def test_a_killed_runs_namespaces_are_removed_by_the_next(needs_hosts: None) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait(10)  # its process id now belongs to nobody: a run that was killed
    leftover = f"{PREFIX}{gone.pid}-0-door1"
    ip("netns", "add", leftover)
    try:
        with network():
            assert leftover not in namespaces()
    finally:
        if leftover in namespaces():
            ip("netns", "del", leftover)
