"""Where the admin socket lives, and the checks that keep it the server user's alone.

``<data dir>/admin/admin.sock``: the directory is made mode 0700 and the
socket 0600, so only the user the server runs as (and root) can connect. A
directory or socket path that is a symbolic link, or that belongs to another
user, is refused: someone else could otherwise point the server at a place
they read, or answer ``skyjo-server admin`` in its stead.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Final

from ..datadir import CannotStart

ADMIN_DIRECTORY: Final = "admin"
SOCKET_NAME: Final = "admin.sock"


class UnsafeAdminSocket(CannotStart):
    """The admin socket's directory or path is not safely the server user's."""


def admin_socket_path(data_dir: Path) -> Path:
    return data_dir / ADMIN_DIRECTORY / SOCKET_NAME


def prepare_socket_path(path: Path) -> None:
    """Make ``path``'s directory private (0700) and clear a stale socket from a
    previous run; raise ``UnsafeAdminSocket`` when either is not ours."""
    directory = path.parent
    with contextlib.suppress(FileExistsError):
        directory.mkdir(mode=0o700)
    info = os.lstat(directory)
    _check_ours(directory, info, "directory")
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeAdminSocket(f"{directory} is not a directory: the admin socket cannot go there")
    if stat.S_IMODE(info.st_mode) != 0o700:
        os.chmod(directory, 0o700)  # ours: nobody else may even list it
    try:
        existing = os.lstat(path)
    except FileNotFoundError:
        return
    _check_ours(path, existing, "socket")
    if not stat.S_ISSOCK(existing.st_mode):
        raise UnsafeAdminSocket(f"{path} exists and is not a socket: move it away")
    # A socket left by a server that was killed: the data directory's lock says
    # no other server runs here, so nobody is listening on it.
    path.unlink()


def check_socket_path(path: Path) -> None:
    """For the admin command: refuse to talk to a socket that is not the user's own."""
    for where, what in ((path.parent, "directory"), (path, "socket")):
        try:
            info = os.lstat(where)
        except FileNotFoundError:
            return  # connecting says "no server"
        _check_ours(where, info, what)


def _check_ours(path: Path, info: os.stat_result, what: str) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeAdminSocket(f"the admin {what} {path} is a symbolic link: refusing to use it")
    if info.st_uid != os.geteuid():
        raise UnsafeAdminSocket(
            f"the admin {what} {path} belongs to user id {info.st_uid}, not to this user "
            f"({os.geteuid()}): refusing to use it"
        )
