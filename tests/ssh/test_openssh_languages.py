"""Each player reads the game in the language their own terminal says, over the real OpenSSH
client: ``LANG`` as ``ssh`` sends it (``SendEnv LANG`` in most distributions' ssh_config;
``SetEnv`` here, the user's config being left out), never the server's."""

from __future__ import annotations

from pathlib import Path

import pytest

from skyjo_tui.i18n import LANGUAGE_INFO, Translator

from .realdoor import real_door
from .tmuxkit import SSH, TMUX, openssh_command, tmux_pane

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


async def test_each_player_gets_the_language_of_their_own_locale(tmp_path: Path) -> None:
    """Players one after the other on one server: each is asked to leave in their own
    language, and answers with its own yes (j for Ja, s for Sí...)."""
    async with real_door(tmp_path / "server", lang=None) as door:
        for lang, language in LANGUAGE_INFO.items():
            tr = Translator(lang)
            ask = ("-o", f"SetEnv=LANG={language.locale}")
            command = openssh_command(door.port, "carol", None, *ask)
            async with tmux_pane(command, env={"TERM": "xterm-256color"}) as pane:
                await pane.wait_for(" · carol")  # the lobby
                await pane.keys("q")
                await pane.wait_for(tr("confirm.disconnect"))
                await pane.keys(tr("key.confirm.yes")[0])
                assert (await pane.wait_for_exit())[0] == 0, lang
