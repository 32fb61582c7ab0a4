"""Serve Textual apps over SSH, in-process: one app per SSH session.

Public API::

    from server.ssh import AppSessionManager, SSHAppServer, SessionInfo, create_app_server

    def app_factory(info: SessionInfo) -> App: ...      # may also be async

    manager = AppSessionManager(app_factory)
    acceptor = await create_app_server(manager, "0.0.0.0", 2222,
                                       server_factory=lambda: MyAuthServer(manager),
                                       server_host_keys=["host_key"])
    ...
    acceptor.close()
    await manager.close()
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
