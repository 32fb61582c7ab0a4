"""How fast the `skyjo` client feels, measured as a person would see it: in a terminal.

Runs the real `skyjo` command in a pseudo-terminal of 80x24 (in a fresh data
directory, so nothing is cached) and reports:

- first frame: from starting the process to the home screen being drawn;
- key to frame: from a key press (moving the table's cursor) to the end of
  the frame that shows it (Textual wraps each frame in the terminal's
  "synchronized update" markers, so the frame's end is visible in the bytes).
  Keys come 40 to 120 ms apart, as a person's do: Textual draws at most 60
  frames a second, so a key waits for the next 1/60 s slot, 8 ms on average;
  keys sent the instant the last frame ends would all wait a whole slot.

Usage: python benchmarks/client.py [--runs 5] [--keys 60]
Targets: first frame under 1 s; key to frame under 16 ms at the median.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

SKYJO = Path(sys.executable).with_name("skyjo")
FRAME_END = b"\x1b[?2026l"  # end of a synchronized update: the frame is complete
SYNC_QUERY = b"\x1b[?2026$p"  # "do you support synchronized updates?"
SYNC_SUPPORTED = b"\x1b[?2026;2$y"  # "yes, currently off"
HOME_TEXT = b"Play against bots"
TABLE_TEXT = b"Turn up a card"
SIZE = (24, 80)


class Terminal:
    """`skyjo` in a pseudo-terminal: write keys, read what it draws."""

    def __init__(self, data_dir: str) -> None:
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: become skyjo
            env = {
                **os.environ,
                "TERM": "xterm-256color",
                "LANG": "en_US.UTF-8",
                "COLUMNS": "80",
                "LINES": "24",
            }
            os.execve(str(SKYJO), [str(SKYJO), "--data-dir", data_dir, "--lang", "en"], env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", *SIZE, 0, 0))
        self.output = bytearray()
        self._answered = False

    def read_until(self, marker: bytes, timeout: float = 10.0, start: int = 0) -> float:
        """Read until ``marker`` appears after offset ``start``; the time it did."""
        deadline = time.perf_counter() + timeout
        while marker not in self.output[start:]:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no {marker!r} within {timeout} s")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                self.output += os.read(self.fd, 65536)
                self._answer_queries()
        return time.perf_counter()

    def _answer_queries(self) -> None:
        """Say, like most modern terminals, that synchronized updates are supported:
        Textual then wraps every frame in them, which shows where a frame ends."""
        if not self._answered and SYNC_QUERY in self.output:
            self._answered = True
            os.write(self.fd, SYNC_SUPPORTED)

    def drain(self, quiet: float = 0.3) -> None:
        """Read until nothing comes for ``quiet`` seconds (or the program has ended)."""
        try:
            while select.select([self.fd], [], [], quiet)[0]:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    return
                self.output += chunk
        except OSError:  # EIO: the other side of the terminal is closed
            return

    def key(self, data: bytes) -> float:
        """Press a key; the time from the press to the end of the next frame."""
        mark = len(self.output)
        pressed = time.perf_counter()
        os.write(self.fd, data)
        return self.read_until(FRAME_END, start=mark) - pressed

    def close(self) -> None:
        os.write(self.fd, b"\x11")  # ctrl+q
        deadline = time.time() + 5
        while time.time() < deadline:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
            self.drain(0.1)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def first_frame(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as data_dir:
            terminal = Terminal(data_dir)
            try:
                times.append(terminal.read_until(HOME_TEXT) - terminal.started)
            finally:
                terminal.close()
    return times


def key_to_frame(keys: int) -> list[float]:
    """Cursor moves at a local table, while the round waits for our two cards."""
    with tempfile.TemporaryDirectory() as data_dir:
        terminal = Terminal(data_dir)
        try:
            terminal.read_until(HOME_TEXT)
            terminal.drain()
            os.write(terminal.fd, b"\r")  # Play against bots
            terminal.drain(0.5)
            os.write(terminal.fd, b"\r")  # Start
            terminal.read_until(TABLE_TEXT, timeout=20)
            terminal.drain(1.5)  # the bots turn their cards up; then the table waits for us
            moves = [b"\x1b[C", b"j", b"\x1b[D", b"k"]  # right, down, left, up
            pauses = random.Random(7)
            times = []
            for i in range(keys):
                time.sleep(pauses.uniform(0.04, 0.12))
                times.append(terminal.key(moves[i % len(moves)]))
            return times
        finally:
            terminal.close()


def report(name: str, seconds: list[float], unit: float, label: str) -> None:
    values = sorted(s * unit for s in seconds)
    print(
        f"{name}: median {statistics.median(values):.1f} {label}, "
        f"min {values[0]:.1f}, max {values[-1]:.1f} ({len(values)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="starts of skyjo to time")
    parser.add_argument("--keys", type=int, default=60, help="key presses to time")
    args = parser.parse_args()
    print(f"skyjo client, 80x24 pseudo-terminal, Python {sys.version.split()[0]}")
    report("first frame", first_frame(args.runs), 1000, "ms")
    report("key to frame", key_to_frame(args.keys), 1000, "ms")


if __name__ == "__main__":
    main()
