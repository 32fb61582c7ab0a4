"""The authoritative lobby and tables, built on the engine and the bots.

``Lobby`` (lobby.py) holds the connections and tables and dispatches requests;
``accounts``, ``tables``, ``hosting`` and ``chat`` answer them; ``table`` and
``play`` are a table and its game; ``session`` is one connection; ``places``
is the one record of who is online and where each player sits or watches.
"""

from .lobby import Lobby
from .session import Session

__all__ = ["Lobby", "Session"]
