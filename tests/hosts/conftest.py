"""Each test that takes ``net`` gets its own switch of network-namespace hosts
(``kit.network``), removed when it ends; skipped, saying why, where hosts cannot be made
(not root, no iproute2, no haproxy)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from .kit import Network, network, unavailable


@functools.cache
def _why_not() -> str | None:
    return unavailable()


@pytest.fixture
def net() -> Iterator[Network]:
    reason = _why_not()
    if reason is not None:
        pytest.skip(reason)
    with network() as made:
        yield made
