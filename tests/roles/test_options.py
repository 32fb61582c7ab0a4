"""``skyjo-server``'s roles on the command line: what does not go together is a usage
error before anything starts, and a door secret too short to be safe is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cli import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--role", "doors"], "--role doors needs --lobby HOST:PORT and --door-secret FILE"),
        (["--role", "lobby"], "--role lobby needs --door-secret FILE"),
        (["--lobby", "lobby.lan:7777"], "--lobby, --lobby-tls and --lobby-ca are for --role doors"),
        (["--role", "doors", "--lobby", "lobby.lan:99999"], "is not HOST:PORT"),
        (["--role", "lobby", "--door-secret", "SHORT"], "at least 16 bytes"),
        (["--role", "lobby", "--door-secret", "MISSING"], "cannot read the door secret"),
        (["--door-tls-cert", "lobby.crt"], "--door-tls-cert and --door-tls-key go together"),
    ],
)
def test_options_that_do_not_go_together_are_refused_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    (tmp_path / "SHORT").write_text("too short\n")
    argv = [str(tmp_path / a) if a in ("SHORT", "MISSING") else a for a in argv]
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--data-dir", str(tmp_path / "data")])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing started
