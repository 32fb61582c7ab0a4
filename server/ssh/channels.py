"""asyncssh channel hardening that asyncssh has no option for."""

from __future__ import annotations

from typing import Any, Final

import asyncssh
from asyncssh.packet import SSHPacket

MAX_ENV_NAME: Final = 64
MAX_ENV_VALUE: Final = 1024


class _CappedEnvChannel(asyncssh.SSHServerChannel):
    """A server channel that keeps a bounded environment.

    asyncssh stores every ``env`` request a client sends, without limit, for
    the life of the channel: a client could grow the server's memory with
    nothing but env requests.  Past the cap, or for oversized names and
    values, the request is refused (clients treat that as harmless).
    """

    _max_env_vars = 32

    def _process_env_request(self, packet: SSHPacket) -> bool:
        name = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        env: dict[Any, Any] = self._env
        if len(name) > MAX_ENV_NAME or len(value) > MAX_ENV_VALUE:
            return False
        if name not in env and len(env) >= self._max_env_vars:
            return False
        env[name] = value
        return True


def cap_environment(chan: asyncssh.SSHServerChannel, max_vars: int) -> None:
    """Make ``chan`` keep at most ``max_vars`` small environment variables."""
    if type(chan) is not asyncssh.SSHServerChannel:
        raise TypeError(f"expected a plain SSHServerChannel, got {type(chan).__name__}")
    # Same object layout, one method overridden: asyncssh dispatches channel
    # requests with getattr(self, "_process_<name>_request").
    chan.__class__ = _CappedEnvChannel
    chan._max_env_vars = max_vars  # type: ignore[attr-defined]  # noqa: SLF001 - our subclass's own, on the channel it now is
