"""Journeys are deterministic: every game the server deals here comes from one seed."""

from __future__ import annotations

import random

import pytest

from server.lobby import play

JOURNEY_SEED = 2026


class SeededSecrets:
    """What the server uses of ``secrets``, from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbits(self, bits: int) -> int:
        return self._random.getrandbits(bits)


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server draws each new game's seed from ``secrets``; here from a seeded generator,
    so the same journey deals the same cards every time."""
    monkeypatch.setattr(play, "secrets", SeededSecrets(JOURNEY_SEED))
