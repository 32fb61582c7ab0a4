"""The door-agnostic Textual host: one app per player's terminal, whichever way
they came in (SSH, a browser), run in recycled worker processes or in this one.

Layers, each a module:

* ``hosted``: ``SessionHost`` (every app of a server) and ``HostedSession`` (one
  player's terminal from ``open`` to ``end``); what a door provides
  (``TerminalTransport``, ``SessionStart``, ``DoorPlayer``);
* ``driver``: the Textual driver over a door's transport (``TerminalDriver``,
  ``ChannelTerminal``);
* ``hardening``, ``sharing``, ``gcpolicy``: many apps in one process, safely and
  cheaply;
* ``workers``, ``worker``, ``relay``, ``control``: the worker processes and what
  connects a session to the one running its app;
* ``keyturns``: the keys of one read given to an app in turn (``InputInTurnApp``);
* ``private``: the private Textual attributes all of this relies on, in one
  place, checked by a contract test.

Nothing here knows Skyjo or asyncssh: ``server.doors`` builds the game's app
for a player, ``server.ssh`` and ``server.web`` are the doors.
"""

import importlib
from typing import Any

#: Exported names, by the module that has them; imported on first use, so that
#: ``server.termhost.options`` (plain data) loads without Textual.
_EXPORTS = {
    "options": ("HostLimits", "HostMessages", "WorkerOptions"),
    "hosted": (
        "EXIT_FAILURE",
        "EXIT_OK",
        "AppFactory",
        "DoorPlayer",
        "HostedSession",
        "SessionHost",
        "SessionInfo",
        "SessionStart",
        "TerminalTransport",
    ),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)  # noqa: PLE0605 - one list of names, kept in _EXPORTS


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
