"""A data directory is one server's, and a damaged database is never served.

Through the real ``skyjo-server`` command (a second one on the same
directory, one killed with SIGKILL) and the real SQLite file a server wrote.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from server.database import DamagedDatabase
from server.datadir import LOCK_NAME, DataDirInUse

from .conftest import ServerFactory
from .processes import ServerProcess, client, refused_start
from .support import Client

DATABASE = "skyjo.sqlite3"


async def test_a_second_server_process_on_one_data_directory_refuses_to_start_until_the_first_is_gone(
    tmp_path: Path, processes: list[ServerProcess]
) -> None:
    data = tmp_path / "data"
    processes.append(ServerProcess(data, tmp_path / "first.log"))
    first = processes[0]
    alice = await client(first.port, "Alice")
    table = (await alice.request("create_table", name="Mine", seats=2))["table"]

    second = refused_start(data)
    assert second.returncode == 1
    assert (
        f"cannot start: another Skyjo server (process {first.process.pid}) is using the data "
        f"directory {data}; stop it first, or give this one another --data-dir"
    ) in second.stderr
    assert "listening on" not in second.stderr  # it opened no door
    assert "restored" not in second.stderr  # nor read a table
    # The first one serves on, alone.
    assert [t["table_id"] for t in (await alice.request("list_tables"))["tables"]] == [
        table["table_id"]
    ]

    first.kill()  # SIGKILL: its lock file stays behind, but not its lock
    await alice.until(lambda: alice.lost is not None)
    await alice.close()
    assert (data / LOCK_NAME).exists()
    processes.append(ServerProcess(data, tmp_path / "again.log"))
    alice = await client(processes[1].port, token=alice.welcome.token)
    assert alice.welcome.resumed and alice.welcome.table_id == table["table_id"]
    await alice.close()
    assert refused_start(data).returncode == 1  # the restarted one holds the directory in turn


async def test_a_second_server_in_one_process_refuses_too_and_the_directory_is_free_once_it_stops(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    data = tmp_path / "shared"
    first = await make_server(data)
    with pytest.raises(DataDirInUse, match=r"another Skyjo server .* is using the data directory"):
        await make_server(data)
    alice = await Client.connect(first, "Alice")  # the first is untouched
    await alice.close()
    await first.stop()
    await make_server(data)


async def made_by_a_server(make_server: ServerFactory, data: Path) -> Path:
    """A real database: a server's, with a player and a table in it, stopped cleanly."""
    server = await make_server(data)
    alice = await Client.connect(server, "Alice")
    await alice.request("create_table", name="Kept", seats=2)
    await alice.close()
    await server.stop()
    return data / DATABASE


def page_size(database: Path) -> int:
    return int.from_bytes(database.read_bytes()[16:18], "big")  # in the header, big-endian


def root_page(database: Path, name: str) -> int:
    """The number of the first page of a table or index of the database."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        return int(
            db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
        )


def overwrite_pages(database: Path, pages: range) -> bytes:
    """Scribble over these pages (page 1 holds the header), as a bad disk would: the file now."""
    data, size = bytearray(database.read_bytes()), page_size(database)
    assert len(data) // size >= pages[-1]  # the pages exist
    start, end = (pages[0] - 1) * size, pages[-1] * size
    data[start:end] = bytes([0xAB]) * (end - start)
    database.write_bytes(data)
    return bytes(data)


def names_index(database: Path) -> range:
    """The root page of the index of player names: the tables themselves stay readable."""
    page = root_page(database, "sqlite_autoindex_players_1")
    return range(page, page + 1)


def every_page_but_the_header(database: Path) -> range:
    return range(2, len(database.read_bytes()) // page_size(database) + 1)


@pytest.mark.parametrize(
    ("pages_of", "problem"),
    [
        # Before, every table was restored and served from this one without a word.
        pytest.param(names_index, "error code 11", id="index"),
        # Once the schema outgrows page 1, its own pages go too: "malformed" at the check.
        pytest.param(every_page_but_the_header, "error code 11|malformed", id="all-but-header"),
        pytest.param(lambda database: range(1, 2), "file is not a database", id="header"),
    ],
)
async def test_a_damaged_database_is_refused_with_what_to_do_and_left_as_it_was(
    tmp_path: Path, make_server: ServerFactory, pages_of: Callable[[Path], range], problem: str
) -> None:
    data = tmp_path / "data"
    database = await made_by_a_server(make_server, data)
    damaged = overwrite_pages(database, pages_of(database))

    with pytest.raises(DamagedDatabase, match=problem) as refusal:
        await make_server(data)
    message = str(refusal.value)
    assert f"the database {data / DATABASE} is damaged" in message
    assert f"move {DATABASE}" in message and ".recover" in message  # what to do
    assert (data / DATABASE).read_bytes() == damaged  # nothing written over what is left
    # The refused server let go of the directory: once the file is moved aside, it starts afresh.
    (data / DATABASE).rename(tmp_path / "damaged.sqlite3")
    server = await make_server(data)
    assert server.lobby.tables == {}


async def test_skyjo_server_refuses_a_damaged_database_saying_so(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    data = tmp_path / "data"
    database = await made_by_a_server(make_server, data)
    overwrite_pages(database, names_index(database))
    refused = refused_start(data)
    assert refused.returncode == 1
    assert f"cannot start: the database {data / DATABASE} is damaged (" in refused.stderr
    assert "listening on" not in refused.stderr and "restored" not in refused.stderr
