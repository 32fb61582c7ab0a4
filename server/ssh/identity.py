"""Who is at the other end of an SSH connection, for the Skyjo server.

A player's identity is the SHA256 fingerprint of the public key they logged
in with; the lobby server reserves names per identity.  Players without a
key are guests (no identity).  The SSH user name says what they asked for:
the lobby user (``ssh skyjo@host``: "use my remembered name, or ask me") or
a name to play as (``ssh alice@host``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from ..termhost import DoorPlayer
from .naming import DEFAULT_LOBBY_USERNAME, IDENTITY_PREFIX

logger = logging.getLogger(__name__)


def identity_for_key(key: asyncssh.SSHKey) -> str:
    """The identity the lobby server knows a key by: ``ssh-key:SHA256:...``."""
    return IDENTITY_PREFIX + key.get_fingerprint("sha256")


@dataclass(frozen=True)
class SSHPlayer:
    """What authentication established about one connection."""

    identity: str | None
    """``ssh-key:SHA256:...`` for a key; None for a guest."""
    username: str
    """The SSH user name exactly as typed (``skyjo`` or a name to play as)."""
    lobby_username: str = DEFAULT_LOBBY_USERNAME

    @property
    def is_guest(self) -> bool:
        return self.identity is None

    @property
    def requested_name(self) -> str | None:
        """The name asked for with ``ssh NAME@host``; None for the lobby user.

        The lobby server validates it (length, characters, reservations);
        nothing here decides whether it is acceptable.
        """
        if self.username.casefold() == self.lobby_username.casefold():
            return None
        return self.username or None

    def door_player(self, peer: str) -> DoorPlayer:
        """This player as the host sees any door's player."""
        return DoorPlayer("ssh", self.identity, self.requested_name, peer, self.username)


class AuthorizedKeys:
    """An OpenSSH ``authorized_keys`` file, re-read when it changes.

    Options such as ``from="10.0.0.*"`` are honoured; the operator can add or
    remove a friend's key while the server runs.  If the file becomes
    unreadable or empty, nobody is let in (and it is logged) until it is fixed.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        problem = self._load()
        if problem is not None:
            raise ValueError(f"{path}: {problem}")

    def allows(self, key: asyncssh.SSHKey, client_host: str, client_addr: str) -> bool:
        """True if ``key`` may log in from this client."""
        self._reload_if_changed()
        if self._keys is None:
            return False
        return self._keys.validate(key, client_host, client_addr) is not None

    def _reload_if_changed(self) -> None:
        try:
            info = os.stat(self.path)
        except OSError:
            stamp = None
        else:
            stamp = (info.st_mtime_ns, info.st_size)
        if stamp != self._stamp:
            self._load()

    def _load(self) -> str | None:
        """(Re)read the file; return what is wrong with it (None: loaded)."""
        try:
            info = os.stat(self.path)
            self._stamp = (info.st_mtime_ns, info.st_size)
            self._keys = asyncssh.read_authorized_keys(self.path)
        except OSError as exc:
            problem = f"cannot read it ({exc.strerror or exc})"
            self._stamp = None
        except ValueError:  # asyncssh found no valid entry (empty or garbled file)
            problem = "no usable public key in it (OpenSSH authorized_keys format expected)"
        else:
            logger.info("authorized keys loaded from %s", self.path)
            return None
        logger.error("authorized keys %s: %s; refusing every key", self.path, problem)
        self._keys = None
        return problem
