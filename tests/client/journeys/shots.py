"""Each journey's last screen, as a real terminal shows it: ``python -m tests.client.journeys.shots DIR``.

Every journey runs again, the same steps as its test, but in a real terminal:
a tmux pane of 80x24 runs this module with ``--run NAME``, which starts the
app with Textual's ``auto_pilot`` (the steps drive the real terminal app);
when the steps are done the pane is captured to ``DIR/NAME.txt`` (text) and
``DIR/NAME.ansi`` (with colours), then closed. Servers run on 127.0.0.1, any
free port, in a thread of the journey's process, and deals are seeded as in
the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.lobby import play
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp, build_app

from ..conftest import ZERO_PACE, ThreadedServer
from . import (
    test_chats,
    test_keys_say_why,
    test_settings_then_play,
    test_stats_and_replay,
    test_tables,
)
from .conftest import JOURNEY_SEED, SeededSecrets

Walk = Callable[..., Awaitable[None]]
#: name -> (the steps, the player's name or None, whether it needs a server)
JOURNEYS: dict[str, tuple[Walk, str | None, bool]] = {
    "settings-then-play": (test_settings_then_play.walk_settings_then_play, None, False),
    "settings-in-french": (
        test_settings_then_play.walk_settings_in_french_keep_the_keyboard,
        None,
        False,
    ),
    "keys-say-why": (test_keys_say_why.walk_choosing_a_face_up_card_says_why, None, False),
    "chats-by-esc": (test_chats.walk_open_and_leave_every_chat_by_esc, "Alice", True),
    "host-a-table": (test_tables.walk_host_wait_chat_start_play_a_round_and_leave, "Alice", True),
    "watch-to-the-end": (test_tables.walk_watch_a_table_to_its_end, "Carol", True),
    "stats-and-replay": (
        test_stats_and_replay.walk_statistics_and_a_replay_from_them,
        "Zoé",
        False,
    ),
}
DONE = "done"  # written into the signal file once the steps are over


def run_one(name: str, signal: Path) -> None:
    """In the tmux pane: the app in this terminal, driven by the journey's steps."""
    walk, player, online = JOURNEYS[name]
    play.secrets = SeededSecrets(JOURNEY_SEED)  # type: ignore[assignment]  # a stand-in for the secrets module, as the tests' fixture does
    with tempfile.TemporaryDirectory(prefix="skyjo-shot-") as folder:
        server = ThreadedServer(Path(folder) / "server") if online else None
        options: dict[str, Any] = {
            "lang": "en",
            "environ": {},
            "pace": "off",
            "local_pace": ZERO_PACE,
            "data_dir": Path(folder) / "client",
        }
        if player is not None:
            options["name"] = player
        connect = tcp_connector("127.0.0.1", server.port) if server else None
        app: SkyjoApp = build_app(connect, **options)

        async def steps(pilot: Pilot[Any]) -> None:
            try:
                await (walk(pilot, server.port) if server else walk(pilot))
                signal.write_text(DONE)
            except BaseException as exc:
                signal.write_text(f"failed: {exc!r}"[:2000])
                raise
            await asyncio.sleep(120)  # the screen stays for its capture; the pane is then closed

        try:
            app.run(auto_pilot=steps)
        finally:
            if server is not None:
                server.stop()


async def capture_all(out: Path, names: list[str]) -> None:
    from ...ssh.tmuxkit import tmux_pane

    out.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parents[3]
    for name in names:
        with tempfile.TemporaryDirectory(prefix="skyjo-shot-signal-") as folder:
            signal = Path(folder) / "signal"
            command = [
                sys.executable,
                "-m",
                "tests.client.journeys.shots",
                "--run",
                name,
                "--signal",
                str(signal),
            ]
            env = {"PYTHONPATH": str(root), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
            async with tmux_pane(
                ["env", "-C", str(root), *[f"{k}={v}" for k, v in env.items()], *command]
            ) as pane:
                for _ in range(1800):  # at most three minutes
                    if signal.exists() and signal.read_text():
                        break
                    await asyncio.sleep(0.1)
                result = signal.read_text() if signal.exists() else "no result in time"
                await asyncio.sleep(0.5)  # the last frame drawn
                text = await pane.screen()
                ansi = await pane.tmux("capture-pane", "-p", "-e", "-t", "play")
            (out / f"{name}.txt").write_text(text)
            (out / f"{name}.ansi").write_text(ansi)
            print(f"{name}: {result} -> {out / (name + '.txt')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("journey-shots"))
    parser.add_argument("--only", action="append", choices=list(JOURNEYS))
    parser.add_argument("--run", choices=list(JOURNEYS), help=argparse.SUPPRESS)
    parser.add_argument("--signal", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_one(args.run, args.signal)
    else:
        asyncio.run(capture_all(args.out, args.only or list(JOURNEYS)))


if __name__ == "__main__":
    main()
