"""Who created each open table, and how many open tables one person or address may have.

Without these caps one address could connect, create a table, disconnect and
do it again until the server's table cap is reached, locking everyone else
out. The counts are derived from the creators of the tables open now (one
record per table, dropped when it closes), never kept in step by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config import Limits
from ..protocol import ErrorCode, ProtocolError
from .session import IN_PROCESS

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True, slots=True)
class Creator:
    player_id: int
    address: str | None  # None: an in-process connection with no address of its own


class TableQuotas:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._creators: dict[str, Creator] = {}  # open table id -> who created it

    @staticmethod
    def _creator(session: Session) -> Creator:
        assert session.player_id is not None
        address = None if session.address in ("", IN_PROCESS) else session.address
        return Creator(session.player_id, address)

    def check(self, session: Session, open_tables: int) -> None:
        """Refuse (``ProtocolError``) a new table ``session`` may not create now."""
        limits, creator = self.limits, self._creator(session)
        if open_tables >= limits.max_tables:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES, "the server has no room for another table"
            )
        creators = self._creators.values()
        caps = [
            (
                ErrorCode.TABLES_PER_PLAYER,
                limits.tables_per_player,
                "you created",
                sum(c.player_id == creator.player_id for c in creators),
            )
        ]
        if creator.address is not None:
            caps.append(
                (
                    ErrorCode.TABLES_PER_ADDRESS,
                    limits.tables_per_address,
                    "your address created",
                    sum(c.address == creator.address for c in creators),
                )
            )
        for code, cap, who, count in caps:
            if count >= cap:
                raise ProtocolError(
                    code,
                    f"{who} {count} tables that are still open (at most {cap}): "
                    "join a table, or wait until one of them closes",
                )

    def created(self, table_id: str, session: Session) -> None:
        self._creators[table_id] = self._creator(session)

    def closed(self, table_id: str) -> None:
        self._creators.pop(table_id, None)
