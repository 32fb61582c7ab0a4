"""The pure limit policies: the input budget and the connection registry."""

from __future__ import annotations

import pytest

from server.limits import ConnectionRegistry, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_typing_within_the_budget_never_pauses() -> None:
    clock = Clock()
    budget = TokenBucket(rate=100, burst=50, clock=clock)
    for _ in range(1000):  # 10 characters every 0.1 s: exactly the rate
        assert budget.spend(10) == 0.0
        clock.now += 0.1


def test_a_flood_pauses_exactly_until_the_budget_refills() -> None:
    clock = Clock()
    budget = TokenBucket(rate=100, burst=50, clock=clock)
    assert budget.spend(50) == 0.0  # the whole burst
    assert budget.spend(30) == pytest.approx(0.3)  # 30 over: 0.3 s at 100/s
    clock.now += 0.31
    assert budget.spend(0) == 0.0
    clock.now += 60  # a long quiet time refills only up to the burst
    assert budget.spend(50) == 0.0
    assert budget.spend(1) > 0


def test_budget_needs_positive_numbers() -> None:
    with pytest.raises(ValueError):
        TokenBucket(rate=0, burst=10)


def test_registry_caps_per_address_and_in_total() -> None:
    registry: ConnectionRegistry[str] = ConnectionRegistry(max_total=3, max_per_address=2)
    assert registry.admit("10.0.0.1", "a") is None
    assert registry.admit("10.0.0.1", "b") is None
    assert registry.admit("10.0.0.1", "c") == "Too many connections from your address."
    assert registry.admit("10.0.0.2", "d") is None
    assert (
        registry.admit("10.0.0.3", "e") == "The server is full right now, please try again later."
    )
    assert sorted(registry) == ["a", "b", "d"]
    registry.release("10.0.0.1", "a")
    registry.release("10.0.0.1", "a")  # twice: ignored
    registry.release("10.0.0.9", "z")  # never admitted: ignored
    assert (registry.total, registry.count("10.0.0.1")) == (2, 1)
    assert registry.admit("10.0.0.3", "e") is None


def test_delay_says_when_the_next_token_comes() -> None:
    """Window sizes wait for it: a few at once, then one at the rate."""
    clock = Clock()
    budget = TokenBucket(rate=2, burst=2, clock=clock)
    assert budget.delay() == 0.0
    assert budget.take() and budget.take()
    assert budget.delay() == pytest.approx(0.5)
    clock.now += 0.5
    assert budget.delay() == 0.0
    assert budget.take()
