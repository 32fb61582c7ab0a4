"""The door secret, and the proof of it a door host gives for each claim.

The proof is HMAC-SHA256, keyed with the secret, over the lobby's nonce
(fresh for each connection, used once) and the claim itself: whoever
overhears a claim can neither replay it (the next connection has another
nonce) nor change whom it claims.  The secret never crosses the wire.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Final

import msgpack

MIN_SECRET_BYTES: Final = 16
"""A secret shorter than this is refused: it could be guessed."""
NONCE_BYTES: Final = 32


def read_door_secret(path: Path) -> bytes:
    """The secret in ``path`` (its surrounding blanks and newline dropped).

    Raises ``ValueError`` saying what is wrong and what to do: the server
    refuses to start without a usable one.
    """
    try:
        secret = path.read_bytes().strip()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the door secret: {exc.strerror or exc}") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(
            f"{path}: the door secret must be at least {MIN_SECRET_BYTES} bytes "
            "(make one with: openssl rand -hex 32 > FILE)"
        )
    return secret


def claim_bytes(
    *, version: int, host: str, door: str, identity: str | None, address: str, link: bool
) -> bytes:
    """What the proof covers besides the nonce: every field of the claim, unambiguously."""
    return msgpack.packb([version, host, door, identity, address, link], use_bin_type=True)


def door_proof(secret: bytes, nonce: bytes, claim: bytes) -> str:
    """The hex HMAC-SHA256 a door host sends (``door_claim``'s ``proof``)."""
    return hmac.new(secret, nonce + claim, hashlib.sha256).hexdigest()


def proof_holds(secret: bytes, nonce: bytes, claim: bytes, proof: str) -> bool:
    """Compared in constant time: the time taken says nothing of the secret."""
    expected = door_proof(secret, nonce, claim)
    return hmac.compare_digest(expected.encode("ascii"), proof.encode("utf-8", "replace"))
