"""Records marked by hand: moves a stand-in bot chose for a person, as the server marks them."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any


def with_standins(
    record: dict[str, Any], steps: Iterable[int], bot: str, reason: str
) -> dict[str, Any]:
    """A copy of ``record`` whose moves at record ``steps`` (each round's deal is a step,
    as ``replay_steps`` counts) say a ``bot`` chose them for the person, for ``reason``."""
    marked = copy.deepcopy(record)
    for step in steps:
        round_data, move = _at_step(marked, step)
        round_data["moves"][move]["standin"] = {"bot": bot, "reason": reason}
    return marked


def _at_step(record: dict[str, Any], step: int) -> tuple[dict[str, Any], int]:
    for round_data in record["rounds"]:
        if 0 < step <= len(round_data["moves"]):
            return round_data, step - 1
        step -= len(round_data["moves"]) + 1
    raise ValueError("no move at that step")
