"""Every exception type of the project survives pickling, as a process pool (the load
benchmark's clients) or a worker process sends it: the same type, words and fields."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path

import pytest

import server
import skyjo_tui
from server.admin.commands import AdminError
from server.admin.socketfile import UnsafeAdminSocket
from server.configfile import ConfigError
from server.database import DamagedDatabase, StoreClosed
from server.datadir import CannotStart, DataDirInUse
from server.engine.errors import EngineError, IllegalAction, InvalidSetup, ReplayDivergence
from server.link.client import LinkRefused
from server.lobby.text import TextError, TextTooLong
from server.netclient import ConnectionLost, ServerError
from server.protocol import ErrorCode, NameReason, ProtocolError
from server.proxyheader import ProxyHeaderError
from server.termhost.workers import WorkerUnavailable
from skyjo_tui.link import NameNeeded
from skyjo_tui.replay import ReplayError

#: One instance of each, made as the code makes them (with every field set).
EXAMPLES: list[BaseException] = [
    ProtocolError(ErrorCode.BAD_NAME, "too long", reason="too_long", name_max_length=20),
    ProtocolError(ErrorCode.TABLES_PER_ADDRESS, "your address created 10 tables"),
    ServerError("tables_per_address", "your address created 10 tables", {"cap": 10}),
    ServerError("bad_token", "this token is unknown"),
    ConnectionLost("the server is shutting down", "shutting_down"),
    ConnectionLost("connection reset"),
    TextError("a name needs at least one visible character", NameReason.EMPTY),
    TextTooLong("a name has at most 20 characters", 20),
    NameNeeded("that name is taken", "name_taken", {"reason": "x"}),
    NameNeeded("", "name_required"),
    AdminError("no player is called 'Zoë'"),
    LinkRefused("this lobby refused the door host: wrong door secret"),
    ProxyHeaderError("no PROXY header (starts b'SSH-2.0-')"),
    ConfigError("server.toml, line 3: unknown key 'prot'"),
    StoreClosed("the store is closed"),
    CannotStart("the data directory is not a directory"),
    DataDirInUse("the data directory is in use by process 12"),
    DamagedDatabase(Path("/srv/skyjo/skyjo.sqlite3"), "row 3 missing from index"),
    UnsafeAdminSocket("the admin directory is not private"),
    WorkerUnavailable("no worker process could start"),
    EngineError("broken"),
    IllegalAction("not your turn"),
    InvalidSetup("a deck of 151 cards"),
    ReplayDivergence("move 3 differs"),
    ReplayError("not a game record"),
]


def project_exception_types() -> set[type[BaseException]]:
    """Every exception class defined in the project's packages (each module imported)."""
    found: set[type[BaseException]] = set()
    for package in (server, skyjo_tui):
        prefix = package.__name__ + "."
        for info in pkgutil.walk_packages(package.__path__, prefix):
            module = importlib.import_module(info.name)
            for _, value in inspect.getmembers(module, inspect.isclass):
                if issubclass(value, BaseException) and value.__module__ == module.__name__:
                    found.add(value)
    return found


def test_every_exception_type_of_the_project_has_an_example() -> None:
    missing = project_exception_types() - {type(example) for example in EXAMPLES}
    assert not missing, f"add an example of each to EXAMPLES: {sorted(map(str, missing))}"


@pytest.mark.parametrize("error", EXAMPLES, ids=lambda e: type(e).__name__)
def test_an_exception_survives_pickling(error: BaseException) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert copy.args == error.args
    assert vars(copy) == vars(error)
