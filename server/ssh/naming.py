"""The SSH door's fixed names, which its options, its identities and the admin share
(no imports: ``options`` loads no asyncssh, ``identity`` does)."""

from __future__ import annotations

from typing import Final

DEFAULT_LOBBY_USERNAME: Final = "skyjo"
IDENTITY_PREFIX: Final = "ssh-key:"
"""A key's identity in the lobby is this and its SHA256 fingerprint (``identity.identity_for_key``)."""
