"""Players' apps in one process share their parsed CSS, also through the reparse every
client makes as it starts (it sets its theme, and Textual then parses into a fresh
stylesheet): that second parse of the whole CSS was about a tenth of a session start's
CPU time, for every session."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css import stylesheet

from server.termhost import sharing

from .conftest import HostedClients


async def test_a_second_players_app_parses_no_css(
    hosted: HostedClients, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    parse = stylesheet.parse

    def counted(*args: Any, **kwargs: Any) -> Any:  # Textual's parser, run and counted
        parsed.append(str(kwargs.get("read_from", args[2] if len(args) > 2 else "")))
        return parse(*args, **kwargs)

    monkeypatch.setattr(stylesheet, "parse", counted)
    sharing._PARSED_RULES.clear()  # noqa: SLF001 - as in a fresh worker (other tests ran here)
    first, _ = await hosted.lobby("ann")
    assert parsed, "the first app parsed its CSS"
    parsed.clear()
    second, _ = await hosted.lobby("bob")
    assert parsed == [], f"the second app parsed again: {parsed}"
    assert first.app is not None and second.app is not None
    one, two = first.app.stylesheet, second.app.stylesheet
    assert one is not two and one.rules
    assert all(a is b for a, b in zip(one.rules, two.rules, strict=True))
