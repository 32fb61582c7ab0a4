"""The admin socket: ``skyjo-server admin ...`` talks to the running server through it.

A Unix socket in the data directory (``socketfile``), as a ``FrontDoor``:
started with the server, stopped before the lobby. One JSON object a line
each way: a request ``{"command": "kick", "name": "alice"}``, its answer
``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": "..."}``.
A connection may send several requests, one at a time. Every read has a
timeout and a size cap; a bad request gets an error naming the problem and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .commands import COMMANDS, AdminError
from .socketfile import admin_socket_path, prepare_socket_path

if TYPE_CHECKING:
    from ..app import SkyjoServer

logger = logging.getLogger(__name__)

READ_TIMEOUT: Final = 30.0  # seconds an admin connection may stay silent
WRITE_TIMEOUT: Final = 10.0  # seconds an answer may take to be read
MAX_REQUEST: Final = 64 * 1024  # bytes in one request line


class AdminDoor:
    """``server.add_front_door(AdminDoor())``; ``socket_path`` None: in the data directory."""

    def __init__(self, socket_path: Path | None = None) -> None:
        self.socket_path = socket_path
        self._server: SkyjoServer | None = None
        self._listener: asyncio.base_events.Server | None = None
        self._connections: set[asyncio.Task[Any]] = set()

    async def bind(self, server: SkyjoServer) -> None:
        """Check the socket's directory and bind it (nobody can connect yet);
        raises ``UnsafeAdminSocket`` or ``OSError`` when it cannot be used."""
        if self._listener is not None:
            return
        path = self.socket_path or admin_socket_path(server.config.data_path)
        prepare_socket_path(path)
        self._server = server
        self._listener = await asyncio.start_unix_server(
            self._serve, path=path, limit=MAX_REQUEST, start_serving=False
        )
        os.chmod(path, 0o600)  # its directory is 0700 already: this is belt and braces
        self.socket_path = path

    async def start(self, server: SkyjoServer) -> None:
        await self.bind(server)
        assert self._listener is not None
        await self._listener.start_serving()
        logger.info("admin socket at %s (skyjo-server admin --help)", self.socket_path)

    async def stop(self) -> None:
        listener, self._listener = self._listener, None
        if listener is None:
            return
        listener.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        with contextlib.suppress(OSError):
            assert self.socket_path is not None
            self.socket_path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            if self._listener is None:  # accepted as the server stopped: nothing to serve it
                return
            if not _same_user(writer):
                await _answer(writer, _refusal("only the server's own user may use this socket"))
                return
            while True:
                try:
                    line = await asyncio.wait_for(reader.readline(), READ_TIMEOUT)
                except TimeoutError:
                    await _answer(writer, _refusal(f"no request for {READ_TIMEOUT:.0f} s: closing"))
                    return
                except ValueError:  # over the limit: the rest of the stream is out of step
                    await _answer(writer, _refusal(f"a request is at most {MAX_REQUEST} bytes"))
                    return
                if not line:
                    return
                await _answer(writer, await self._handle(line))
        except (ConnectionError, TimeoutError):
            pass  # the admin command went away
        finally:
            self._connections.discard(task)
            writer.close()

    async def _handle(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return _refusal(f"a request is one JSON object on a line: {exc}")
        if not isinstance(request, dict):
            return _refusal("a request is a JSON object")
        command = COMMANDS.get(request.get("command"))  # type: ignore[arg-type]
        if command is None:
            known = ", ".join(COMMANDS)
            return _refusal(f"unknown command {request.get('command')!r} (one of: {known})")
        assert self._server is not None
        try:
            result = await command(self._server, request)
        except AdminError as exc:
            return _refusal(str(exc))
        except Exception:
            logger.exception("admin command %r failed", request.get("command"))
            return _refusal("the server failed on this command (see its log)")
        details = {key: value for key, value in request.items() if key != "command"}
        logger.info("admin: %s %s", request["command"], json.dumps(details, ensure_ascii=True))
        return {"ok": True, "result": result}


def _refusal(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


async def _answer(writer: asyncio.StreamWriter, reply: dict[str, Any]) -> None:
    writer.write(json.dumps(reply, ensure_ascii=True).encode() + b"\n")
    await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT)


def _same_user(writer: asyncio.StreamWriter) -> bool:
    """The peer runs as the server's user (or root), by the kernel's word (SO_PEERCRED)."""
    sock = writer.get_extra_info("socket")
    peercred = getattr(socket, "SO_PEERCRED", None)
    if sock is None or peercred is None:
        return True  # not Linux: the socket's 0700 directory is the only guard
    _pid, uid, _gid = struct.unpack(
        "3i", sock.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    )
    return uid in (os.geteuid(), 0)
