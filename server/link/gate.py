"""The lobby's side of the door-host link: who may say who a player is.

A TCP connection may, before its ``hello``, ask for a nonce
(``door_challenge``) and claim a player's identity, door, address and door
host (``door_claim``) with the proof of the door secret over that nonce
(``proof``).  A claim that holds makes the connection exactly what
``SkyjoServer.open_in_process`` makes for an in-process door: the identity
trusted, the address the player's, no idle timeout (its life is the app's),
not counted against the TCP caps (the door host caps its own players).  One
that does not is refused with ``door_refused`` and the connection closed,
said at most once a minute in the log (``ratelog``): a stranger trying
secrets writes no line each.  A claim with ``link`` is the door host's own
connection: no player, no hello, the banned keys pushed to it
(``door_bans``) for the SSH door's authentication.
"""

from __future__ import annotations

import logging
import secrets
import ssl
from typing import TYPE_CHECKING, Any, Final

from ..lobby.bans import Bans
from ..lobby.session import Session
from ..protocol import DOOR_LINK_VERSION, ErrorCode, error, ok
from ..ratelog import RefusalLog
from .options import GateOptions
from .proof import NONCE_BYTES, claim_bytes, proof_holds

if TYPE_CHECKING:
    from ..app import Deadlines

logger = logging.getLogger(__name__)

LINK_TIMEOUT: Final = 10.0
"""Seconds a door host's TLS handshake may take."""
WRONG_SECRET: Final = "this lobby refused the door host: wrong door secret"
TLS_ONLY: Final = "this lobby takes door hosts over TLS only (--lobby-tls on the door host)"


def server_tls_context(options: GateOptions) -> ssl.SSLContext | None:
    """The lobby's TLS context for door hosts; raises ``OSError``/``ssl.SSLError`` on a bad
    certificate or key (the server does not start)."""
    if options.tls_cert is None or options.tls_key is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(options.tls_cert, options.tls_key)
    return context


class DoorGate:
    """Checks door hosts' claims for a ``SkyjoServer`` (``server.gate``)."""

    def __init__(self, options: GateOptions, bans: Bans) -> None:
        self.options = options
        self._bans = bans
        self._tls = server_tls_context(options)  # a bad certificate fails here, at start
        self.links: set[Session] = set()
        """The door hosts' own connections (``link`` claims), for the ban pushes."""
        self.refusals = RefusalLog(logger, "door claims refused")
        bans.observers.append(self._bans_changed)

    def linked_from(self, address: str) -> bool:
        """A door host linked from ``address`` now (its players' connections are not
        held against the lobby's caps per address)."""
        return any(link.tcp_address == address for link in self.links)

    async def handle(self, session: Session, message: dict[str, Any], clock: Deadlines) -> None:
        """One of ``protocol.DOOR_REQUESTS`` from ``session``."""
        kind, re = message["type"], message.get("id")
        if kind == "door_bans":
            if session not in self.links:
                session.send(error(re, ErrorCode.DOOR_REFUSED, "a door host's link only"))
                return
            session.send(ok(re, identities=self._bans.banned_identities()))
            return
        if session.welcomed or session.door_claimed:
            session.send(error(re, ErrorCode.ALREADY_WELCOMED, "claims come before hello, once"))
            return
        if kind == "door_tls":
            if self._tls is None:
                session.send(error(re, ErrorCode.DOOR_REFUSED, "this lobby has no TLS for doors"))
                return
            if session.tls:
                session.send(error(re, ErrorCode.DOOR_REFUSED, "already TLS"))
                return
            session.send(ok(re))
            await session.start_tls(self._tls, LINK_TIMEOUT)
        elif kind == "door_challenge":
            session.door_nonce = secrets.token_bytes(NONCE_BYTES)
            session.send(ok(re, nonce=session.door_nonce.hex(), version=DOOR_LINK_VERSION))
        else:
            self._claim(session, message, clock)

    def _claim(self, session: Session, message: dict[str, Any], clock: Deadlines) -> None:
        nonce, session.door_nonce = session.door_nonce, None  # one claim per nonce
        link = bool(message.get("link", False))
        if message["version"] != DOOR_LINK_VERSION:
            self._refuse(
                session, f"door link version {message['version']}, not {DOOR_LINK_VERSION}"
            )
            return
        if self._tls is not None and not session.tls:
            self._refuse(session, TLS_ONLY)
            return
        claim = claim_bytes(
            version=message["version"],
            host=message["host"],
            door=message["door"],
            identity=message["identity"],
            address=message["address"],
            link=link,
        )
        if nonce is None or not proof_holds(self.options.secret, nonce, claim, message["proof"]):
            self._refuse(session, WRONG_SECRET)
            return
        session.claim_door(
            identity=message["identity"],
            door=message["door"],
            address=message["address"],
            door_host=message["host"],
        )
        clock.trust(link=link)
        if link:
            self.links.add(session)
            logger.info("door host %r linked from %s", message["host"], session.tcp_address)
        session.send(ok(message.get("id")))

    def _refuse(self, session: Session, why: str) -> None:
        self.refusals.refused(f"{session.address}: {why}")
        session.close(ErrorCode.DOOR_REFUSED, why, quiet=True)

    def disconnected(self, session: Session) -> None:
        if session in self.links:
            self.links.discard(session)
            logger.warning("door host %r unlinked", session.door_host)

    def _bans_changed(self) -> None:
        push = {"type": "door_bans", "identities": self._bans.banned_identities()}
        for session in list(self.links):
            session.send(push)
