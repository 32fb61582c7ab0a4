"""Authentication for the SSH front door: keys are identities, guests welcome."""

from __future__ import annotations

import logging
from collections.abc import Callable

import asyncssh

from ..listen import peer_host
from .connection import SSHAppServer
from .identity import DEFAULT_LOBBY_USERNAME, AuthorizedKeys, SSHPlayer, identity_for_key
from .transport import SSHSessions

logger = logging.getLogger(__name__)


class SkyjoSSHServer(SSHAppServer):
    """Authentication for one connection: keys are identities, guests welcome.

    * Any public key is accepted (or, with ``authorized_keys``, only those
      listed); its SHA256 fingerprint becomes the player's identity.
    * Without a usable key, keyboard-interactive with no prompt at all lets
      the player in as a guest (not in ``authorized_keys`` mode).
    * Passwords are never asked for.
    * A key the server's admin banned (``banned(identity)``) is refused, and
      so is the guest way in for the rest of that connection: a banned
      player does not walk in as a guest by just offering their key first.

    Which key is the identity: asyncssh calls ``validate_public_key`` for a
    key query and again, synchronously before checking the signature, for
    the signed request that logs in; ``get_kbdint_challenge`` resets it.
    Both are synchronous, so the last one before ``auth_completed`` is the
    method that succeeded: a client cannot query someone else's public key
    and then log in as a guest, or with another key, under that identity.
    """

    def __init__(
        self,
        manager: SSHSessions,
        *,
        authorized_keys: AuthorizedKeys | None = None,
        lobby_username: str = DEFAULT_LOBBY_USERNAME,
        banned: Callable[[str], bool] = lambda identity: False,
    ) -> None:
        super().__init__(manager)
        self._authorized_keys = authorized_keys
        self._lobby_username = lobby_username
        self._banned = banned
        self._offered_banned_key = False
        self._candidate_key: asyncssh.SSHKey | None = None
        self.player: SSHPlayer | None = None
        """Set once authentication succeeded."""

    def begin_auth(self, username: str) -> bool:
        self._candidate_key = None
        return True  # authentication required: a key, or the guest method

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._banned(identity_for_key(key)):
            if not self._offered_banned_key:
                logger.info(
                    "ssh: banned key %s refused (from %s)",
                    key.get_fingerprint("sha256"),
                    self._client_address(),
                )
            self._offered_banned_key = True
            self._candidate_key = None
            return False
        if self._authorized_keys is not None:
            address = self._client_address()
            if not self._authorized_keys.allows(key, address, address):
                self._candidate_key = None
                return False
        self._candidate_key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        # A private server has no guests; nor has a connection that offered a banned key.
        return self._authorized_keys is None and not self._offered_banned_key

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self._candidate_key = None
        return not self._offered_banned_key  # else in at once, no prompt: a guest

    def auth_completed(self) -> None:
        super().auth_completed()
        assert self.connection is not None
        key, self._candidate_key = self._candidate_key, None
        self.player = SSHPlayer(
            identity=identity_for_key(key) if key is not None else None,
            username=self.connection.get_extra_info("username") or "",
            lobby_username=self._lobby_username,
        )
        logger.info(
            "ssh login from %s: %s as %r",
            self._client_address(),
            self.player.identity or "guest",
            self.player.username[:40],
        )

    def _client_address(self) -> str:
        # An IPv4 client of the dual-stack socket must match from="192.168.1.*".
        peer = self.connection.get_extra_info("peername") if self.connection else None
        return peer_host(peer) if peer else ""
