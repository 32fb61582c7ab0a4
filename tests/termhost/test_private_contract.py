"""The private Textual, rich and asyncssh attributes the host relies on still exist.

An upgrade that moves one fails here by name (``server/termhost/private.py``
says what each is for), not by a player seeing another's colours or the
server's memory growing."""

from __future__ import annotations

import asyncssh

from server.termhost import private


async def test_every_private_attribute_the_host_relies_on_is_there() -> None:
    assert private.missing() == []


async def test_the_contract_notices_an_attribute_that_went_away(monkeypatch) -> None:
    monkeypatch.delattr(asyncssh.SSHServerChannel, "_process_env_request")
    (gone,) = private.missing()
    assert "asyncssh.SSHServerChannel._process_env_request" in gone
    assert "server.ssh.channels" in gone  # says who needs it


def test_every_module_that_reaches_in_is_listed() -> None:
    """Each use names where it is used; the listed places exist in the code."""
    import server.ssh.channels as channels
    import server.ssh.flow as flow
    import server.termhost.hardening as hardening
    import server.termhost.keyturns as keyturns
    import server.termhost.painting as painting
    import server.termhost.sharing as sharing

    sources = {
        "keyturns": keyturns,
        "hardening": hardening,
        "sharing": sharing,
        "painting": painting,
        "server.ssh.channels": channels,
        "server.ssh.flow": flow,
    }
    for use in private.PRIVATE_USES:
        for place in use.where.split(", "):
            module_name, _, attribute = place.rpartition(".")
            module = sources.get(module_name)
            if module is not None:
                assert hasattr(module, attribute.split(".")[0]), place
