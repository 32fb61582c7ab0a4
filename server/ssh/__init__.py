"""Serve Textual apps over SSH: one app per SSH session, run in this process or
in recycled worker processes (``workers``: ``AppSessionManager.pool``).

The Skyjo front door (``server.ssh.frontdoor``: ``SSHFrontDoor``,
``start_ssh_front_door``, ``SSH_FRONT_DOOR_PLUGIN``) is built on this
generic layer; see ``server/ssh/README.md`` for hosting.

Generic API::

    from server.ssh import AppSessionManager, SSHAppServer, SessionInfo, create_app_server

    def app_factory(info: SessionInfo) -> App: ...      # may also be async

    manager = AppSessionManager(app_factory)
    acceptor = await create_app_server(manager, None, 2222,     # None: every interface
                                       server_factory=lambda: MyAuthServer(manager),
                                       server_host_keys=["host_key"])
    ...
    acceptor.close()
    await manager.close()          # apps exit, then every connection is closed
    await acceptor.wait_closed()
"""

from .connection import SECURE_DEFAULTS, SSHAppServer, create_app_server
from .driver import ChannelTerminal, SessionXTermParser, SSHDriver, clamp_size
from .gcpolicy import GCPolicy, GCScheduler
from .hardening import detect_color_system
from .limits import ConnectionRegistry, InputBudget
from .session import (
    AppFactory,
    AppSession,
    AppSessionManager,
    SessionInfo,
    SessionLimits,
    SessionMessages,
)

__all__ = [
    "AppFactory",
    "AppSession",
    "AppSessionManager",
    "ChannelTerminal",
    "ConnectionRegistry",
    "GCPolicy",
    "GCScheduler",
    "InputBudget",
    "SECURE_DEFAULTS",
    "SSHAppServer",
    "SSHDriver",
    "SessionInfo",
    "SessionLimits",
    "SessionMessages",
    "SessionXTermParser",
    "clamp_size",
    "create_app_server",
    "detect_color_system",
]
