"""A guest with nothing kept (no key, no token) comes back to their seat with the return
code their table showed them: over real TCP, as a player who lost their token would."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from server.app import SkyjoServer
from server.lobby.guests import RETURN_TRIES_BURST, normal_return_code
from server.netclient import ServerConnection, ServerError

from .support import Client, table_with

Connect = Callable[..., Awaitable[Client]]


async def refused(connect: Connect, **hello: object) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await connect(**hello)
    return caught.value


async def seated_then_gone(connect: Connect, name: str) -> tuple[str, str]:
    """``name`` sits at a game with a bot and drops: their table's id and return code."""
    guest = await connect(name)
    code = guest.welcome.return_code
    assert code is not None and normal_return_code(code) == code, code
    table = await table_with(guest, seats=2, bots=("greedy",))
    await guest.request("start_game")
    await guest.close()
    return table["table_id"], code


async def test_the_code_takes_the_seat_back_and_the_name_alone_does_not(
    server: SkyjoServer, connect: Connect
) -> None:
    table_id, code = await seated_then_gone(connect, "Dora")

    # A stranger with the name: refused, with or without a made-up code.
    assert (await refused(connect, name="Dora")).code == "name_taken"
    wrong = "2222-2222" if code != "2222-2222" else "3333-3333"
    assert (await refused(connect, name="Dora", return_code=wrong)).code == "bad_return_code"
    # A code for a name nobody has says no more than a wrong one.
    nobody = await refused(connect, name="Nobody", return_code=code)
    assert nobody.code == "bad_return_code"

    # Dora, typed as she likes it (another case, no dash, spaces): her seat, her game.
    back = await connect(name="dora", return_code=" " + code.lower().replace("-", " ") + " ")
    assert back.welcome.resumed and back.welcome.table_id == table_id
    assert back.welcome.name == "Dora"
    assert back.welcome.return_code == code  # as she noted it: it still works
    game = await back.push("game")
    assert game["view"]["seat"] is not None


async def test_tries_are_counted_per_address(server: SkyjoServer, connect: Connect) -> None:
    _, code = await seated_then_gone(connect, "Dora")
    for _ in range(RETURN_TRIES_BURST):
        refusal = await refused(connect, name="Dora", return_code="2222-2222")
        assert refusal.code == "bad_return_code"
    # The right code too, now: the address has tried enough for a while.
    refusal = await refused(connect, name="Dora", return_code=code)
    assert refusal.code == "return_code_tries"
    assert "minute" in refusal.message


async def test_a_player_whose_key_owns_the_name_is_given_no_code(server: SkyjoServer) -> None:
    reader, writer = await server.open_in_process("ssh-key:SHA256:" + "k" * 43, "ssh", "10.0.0.1")
    conn = ServerConnection.from_streams(reader, writer)
    try:
        welcome = await conn.hello(name="Keyholder")
        assert welcome.return_code is None  # their key brings them back
    finally:
        await conn.close()


async def test_an_ipv6_address_counts_as_its_64(server: SkyjoServer, connect: Connect) -> None:
    """Through a door (which passes its client's address): the tries of one /64 are counted
    together, as one machine may pick any address of it; another /64 is someone else."""
    await seated_then_gone(connect, "Dora")

    async def try_from(address: str) -> str:
        reader, writer = await server.open_in_process(None, "ssh", address)
        conn = ServerConnection.from_streams(reader, writer)
        try:
            with pytest.raises(ServerError) as caught:
                await conn.hello(name="Dora", return_code="2222-2222")
        finally:
            await conn.close()
        return caught.value.code

    tries = [await try_from(f"2001:db8::{n}") for n in range(1, RETURN_TRIES_BURST + 2)]
    assert tries == ["bad_return_code"] * RETURN_TRIES_BURST + ["return_code_tries"]
    assert await try_from("2001:db8:0:1::1") == "bad_return_code"
