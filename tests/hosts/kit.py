"""Hosts for the tests: network namespaces on one switch, each with its own address.

``network()`` makes a switch (a bridge in a namespace of its own) and ``Network.host``
plugs a host into it: a namespace with a veth pair whose one end is the host's ``eth0``
(``10.77.0.N/24``) and whose other end is a port of the bridge.  Nothing is made in
the machine's own namespace, so the addresses (the same in every test) are seen by no
one else, and only namespaces' names must differ: each holds the test process's id,
so pytest-xdist workers never collide.  Processes start inside a host with
``ip netns exec`` (``Host.start``: always killed at the end); ``Network.close`` kills
whatever is left in each namespace and removes them all, even after a failure, and
``sweep`` removes what a killed run (whose process is gone) left behind.

Needs root, iproute2 and a kernel that lets this process make namespaces
(``unavailable`` says why not, for a skip); the balancer is Debian's ``haproxy``
(``balancer_config``).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

IP = shutil.which("ip")
HAPROXY = shutil.which("haproxy")
PREFIX = "skyjo-t"
"""Every namespace's name starts with this, then the test process's id."""
SUBNET = "10.77.0"
"""Each network's /24: private, and only inside the test's own namespaces."""
COMMAND_TIMEOUT = 10.0
WAIT = 30.0
"""Seconds a server in a host has to start (a worker process imports the whole client)."""

_networks = itertools.count()
_LEFTOVER = re.compile(rf"^{re.escape(PREFIX)}(\d+)-")


def ip(*args: str) -> str:
    """``ip ARGS`` (bounded); its output.  Raises ``RuntimeError`` with its error."""
    done = subprocess.run(
        [IP or "ip", *args], capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def unavailable() -> str | None:
    """Why hosts cannot be made here (for a skip), or None when they can."""
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    if IP is None:
        return "needs iproute2's ip"
    if HAPROXY is None:
        return "needs haproxy (apt-get install haproxy)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    try:
        ip("netns", "add", probe)
        ip("netns", "del", probe)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot make a network namespace here: {exc}"
    return None


def namespaces() -> list[str]:
    """Every network namespace's name (``ip netns list`` prints ``NAME (id: N)``)."""
    return [line.split()[0] for line in ip("netns", "list").splitlines() if line.strip()]


def kill_processes(name: str) -> None:
    """kill -9 of every process in namespace ``name``."""
    with contextlib.suppress(RuntimeError):
        for pid in ip("netns", "pids", name).split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)


def remove_namespace(name: str) -> None:
    """Kill every process in namespace ``name`` (so that it goes), then remove it."""
    kill_processes(name)
    with contextlib.suppress(RuntimeError):
        ip("netns", "del", name)


def sweep() -> list[str]:
    """Remove the namespaces of test processes that are gone (a killed run's); the ones
    removed."""
    removed = []
    for name in namespaces():
        found = _LEFTOVER.match(name)
        if found is None or _alive(int(found.group(1))):
            continue
        remove_namespace(name)
        removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Host:
    """One machine: a network namespace with one address on the switch."""

    name: str
    namespace: str
    address: str
    network: Network

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this host."""
        return [IP or "ip", "netns", "exec", self.namespace, *argv]

    def start(
        self, argv: Sequence[str], log: Path, *, append: bool = False
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` inside this host, its output in ``log`` (after what it holds,
        with ``append``); killed at the end."""
        output: IO[bytes] = log.open("ab" if append else "wb")
        process = subprocess.Popen(
            self.command(*argv), stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        output.close()  # the child has its own
        self.network.processes.append(process)
        return process

    def kill_all(self) -> None:
        """kill -9 of every process on this host: the machine dies (its address stays)."""
        kill_processes(self.namespace)

    def run(self, *argv: str, timeout: float = WAIT) -> subprocess.CompletedProcess[str]:
        """``argv`` inside this host, to its end (bounded); its output as text."""
        return subprocess.run(
            self.command(*argv), capture_output=True, text=True, timeout=timeout, check=False
        )

    def wait_listening(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        """Wait (bounded) until something in this host listens on TCP ``port``."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            listening = self.run("ss", "-Htln", f"sport = :{port}", timeout=COMMAND_TIMEOUT)
            if listening.stdout.strip():
                return
            if process.poll() is not None:
                raise RuntimeError(f"ended with {process.returncode}:\n{log.read_text()}")
            time.sleep(0.1)
        raise TimeoutError(f"nothing listens on {self.address}:{port}:\n{log.read_text()}")


@dataclass
class Network:
    """A switch and the hosts on it; ``close`` removes everything."""

    tag: str
    switch: str
    hosts: dict[str, Host] = field(default_factory=dict)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def host(self, name: str, number: int) -> Host:
        """A new host ``name`` at ``10.77.0.<number>`` (2-254) on the switch."""
        namespace = f"{self.tag}-{name}"
        address = f"{SUBNET}.{number}"
        ip("netns", "add", namespace)
        host = Host(name, namespace, address, self)
        self.hosts[name] = host
        port = f"p{len(self.hosts)}"
        # Both ends made where they live: nothing appears in the machine's namespace.
        veth = ["link", "add", "eth0", "type", "veth", "peer", "name", port, "netns", self.switch]
        ip("-n", namespace, *veth)
        ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
        ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
        ip("-n", namespace, "link", "set", "eth0", "up")
        ip("-n", namespace, "link", "set", "lo", "up")
        return host

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(COMMAND_TIMEOUT)
        for host in self.hosts.values():
            remove_namespace(host.namespace)
        remove_namespace(self.switch)


@contextlib.contextmanager
def network() -> Iterator[Network]:
    """A fresh switch (after sweeping a killed run's leftovers); everything on it is
    removed when the block ends, however it ends."""
    sweep()
    tag = f"{PREFIX}{os.getpid()}-{next(_networks)}"
    switch = f"{tag}-switch"
    ip("netns", "add", switch)
    net = Network(tag, switch)
    try:
        ip("-n", switch, "link", "add", "br0", "type", "bridge")
        ip("-n", switch, "link", "set", "br0", "up")
        yield net
    finally:
        net.close()


@dataclass(frozen=True)
class Backend:
    """A server behind the balancer: its name in HAProxy and its address."""

    name: str
    address: str
    port: int


def balancer_config(
    listen: str,
    ssh_port: int,
    backends: Sequence[Backend],
    *,
    web: tuple[int, Sequence[Backend]] | None = None,
    balance: str = "leastconn",
) -> str:
    """HAProxy's configuration (docs/scaling.md has the same, commented): SSH door hosts
    in TCP mode with the PROXY protocol v2 to each, a health check a second (two
    failures: down), a connection that finds its server gone tried on another; with
    ``web`` (a port and its backends), the browser doors in HTTP mode with
    ``X-Forwarded-For``, ``-Proto`` and ``-Host``."""
    servers = "\n".join(
        f"    server {b.name} {b.address}:{b.port} send-proxy-v2 check inter 1s fall 2 rise 1"
        for b in backends
    )
    config = f"""\
global
    maxconn 1000

defaults
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 2
    option redispatch

frontend ssh
    mode tcp
    bind {listen}:{ssh_port}
    default_backend ssh_doors

backend ssh_doors
    mode tcp
    balance {balance}
{servers}
"""
    if web is None:
        return config
    web_port, web_backends = web
    web_servers = "\n".join(
        f"    server {b.name} {b.address}:{b.port} check inter 1s fall 2 rise 1"
        for b in web_backends
    )
    return f"""{config}
frontend web
    mode http
    bind {listen}:{web_port}
    option forwardfor
    http-request set-header X-Forwarded-Proto http
    http-request set-header X-Forwarded-Host %[req.hdr(host)]
    default_backend web_doors

backend web_doors
    mode http
    balance {balance}
    option httpchk GET /
{web_servers}
"""


def run_on(host: Host, program: str, folder: Path) -> Path:
    """A script that runs ``program`` (with its arguments) on ``host``: for a tool that
    starts a program itself (Playwright starts Chromium)."""
    script = folder / f"{Path(program).name}-on-{host.name}"
    command = " ".join(host.command(program))
    script.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
    script.chmod(0o755)
    return script


__all__ = [
    "HAPROXY",
    "IP",
    "SUBNET",
    "WAIT",
    "Backend",
    "Host",
    "Network",
    "balancer_config",
    "network",
    "run_on",
    "sweep",
    "unavailable",
]
