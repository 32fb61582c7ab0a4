"""The server's SSH host key: generated once in the data directory, then reused.

Players' ``known_hosts`` remember this key; a new key on every start would
greet them with OpenSSH's "REMOTE HOST IDENTIFICATION HAS CHANGED" warning.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Final

import asyncssh


logger = logging.getLogger(__name__)

PRIVATE_MODE: Final = 0o600


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """Read the ed25519 host key at ``path``, creating it (mode 0600) if missing.

    Raises ``OSError`` when the file cannot be read, written or parsed.

    Safe against two servers starting at once on one data directory: the key
    is written to a private temporary file and linked into place, so exactly
    one key wins and both use it.  A ``.pub`` file is written next to it for
    the operator (its fingerprint is what players see on first connect).
    """
    if not path.exists():
        _create_host_key(path)
    _tighten_permissions(path)
    try:
        key = asyncssh.read_private_key(path)
    except asyncssh.KeyImportError as exc:
        # An OSError, so that skyjo-server reports it like a busy port.
        raise OSError(f"the SSH host key {path} is not a usable private key: {exc}") from exc
    _write_public_key(key, path.with_name(path.name + ".pub"))
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's ``SHA256:...`` fingerprint, as OpenSSH prints it."""
    return key.get_fingerprint("sha256")


def _create_host_key(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="skyjo-server host key")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)
            logger.info("created SSH host key %s (%s)", path, fingerprint(key))
        except FileExistsError:
            pass  # another server process created it first: use theirs
    finally:
        temporary.unlink(missing_ok=True)


def _tighten_permissions(path: Path) -> None:
    """A private key readable by others is no secret: make it 0600 again."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        logger.warning("SSH host key %s had mode %o; setting 0600", path, mode)
        path.chmod(PRIVATE_MODE)


def _write_public_key(key: asyncssh.SSHKey, path: Path) -> None:
    data = key.export_public_key()
    try:
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    except OSError as exc:  # only a convenience for the operator
        logger.warning("could not write %s: %s", path, exc)
