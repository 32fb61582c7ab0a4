"""Each test that takes ``net`` gets its own switch of network-namespace hosts
(``kit.network``), removed when it ends; ``needs_hosts`` alone only skips.  Skipped,
saying why, where hosts cannot be made (not root, no iproute2, no haproxy)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from .kit import Network, network, unavailable


@functools.cache
def _why_not() -> str | None:
    return unavailable()


@pytest.fixture
def needs_hosts() -> None:
    reason = _why_not()
    if reason is not None:
        pytest.skip(reason)


@pytest.fixture
def net(needs_hosts: None) -> Iterator[Network]:
    with network() as made:
        yield made
