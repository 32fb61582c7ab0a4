"""The expert's model of a round: what a tableau is likely to score in the end.

Everything here works from what a seat may see: face-up cards, the counts of
unseen cards (``counting``), and how many turns the round probably has left.

A card's *cost* is what it is expected to add to the final score. A face-up
card ``c`` costs ``c`` less what later turns will probably save on it
(a bad card is a target for replacement while turns remain); a face-down card
costs the mean of that over the unseen cards. A pair in a column is worth
less than its face value when the third card may still match it (drawn later,
or revealed), because a column of three equal cards scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .counting import LOWEST, VALUES, Counts

Column = tuple[int | None, int | None, int | None]


@dataclass(frozen=True, slots=True)
class Params:
    """The knobs of the model (tuned by self-play against greedy)."""

    # How much of a card's excess over ``target`` later turns are expected to save, at most
    # (over 1: a bad card early in the round is a cheap target, since turning up cards
    # first and replacing the bad ones later beats replacing them now; measured by self-play).
    replace_share: float = 1.3
    replace_turns: float = 3.0  # turns left at which half that share is reached
    target: float = 3.0  # what a bad card is typically replaced with
    fd_per_turn: float = 0.85  # face-down cards a player gets rid of per turn
    offers_per_turn: float = 1.5  # draws and useful discards a turn offers, in draws
    feed_weight: float = 0.8  # how much a gift to the next player costs us (2 players)
    close_weight: float = 0.5  # how much closing early denies the others (2 players)


@dataclass(frozen=True, slots=True)
class Outlook:
    """Per-decision constants of the model."""

    cost: tuple[float, ...]  # per value index: the expected final cost of a face-up card
    face_down: float  # the expected final cost of a face-down card
    mean: float  # the mean unseen card
    p_face_down: tuple[float, ...]  # per value index: chance a face-down card is that value
    p_complete: tuple[float, ...]  # per value index: chance to draw it before the round ends
    clear_columns: bool


def outlook(
    unseen: Counts, draws: Counts, turns_left: float, clear_columns: bool, params: Params
) -> Outlook:
    total = sum(unseen) or 1
    p_face_down = tuple(c / total for c in unseen)
    mean = sum(p * v for p, v in zip(p_face_down, VALUES, strict=True))
    share = params.replace_share * turns_left / (turns_left + params.replace_turns)
    cost = tuple(v - share * max(0.0, v - params.target) for v in VALUES)
    # A face-down card is replaced only as a whole unknown, never as the bad card it may be:
    # turning it up is worth the difference (a bad card shows itself as a target).
    face_down = mean - share * max(0.0, mean - params.target)
    draw_total = sum(draws) or 1
    p_complete = tuple(
        1.0 - (1.0 - min(0.9, params.offers_per_turn * d / draw_total)) ** turns_left for d in draws
    )
    return Outlook(cost, face_down, mean, p_face_down, p_complete, clear_columns)


def column_cost(column: Column, o: Outlook) -> float:
    """The expected final cost of one live column."""
    # Written out case by case: this is the bots' innermost loop.
    a, b, c = column
    cost, hidden, base = o.cost, 0, 0.0
    for v in column:
        if v is None:
            hidden += 1
        else:
            base += cost[v - LOWEST]
    base += hidden * o.face_down
    if not o.clear_columns or hidden >= 2:
        return base
    if hidden == 0:
        if a == b == c:
            return 0.0
        pair = _pair_value(a, b, c)  # type: ignore[arg-type]
        if pair is None or base <= 0:
            return base
        return base * (1.0 - o.p_complete[pair - LOWEST])
    x, y = (b, c) if a is None else (a, c) if b is None else (a, b)
    if x != y or x is None:
        return base
    revealed = o.p_face_down[x - LOWEST]  # the hidden card matches: the column goes for sure
    if base <= 0:
        return base * (1.0 - revealed)
    drawn = (1.0 - revealed) * o.p_complete[x - LOWEST]
    return base * (1.0 - revealed - drawn)


def _pair_value(a: int, b: int, c: int) -> int | None:
    if a in (b, c):
        return a
    return b if b == c else None


def raw_score(columns: list[Column], clear_columns: bool) -> int:
    """The exact score of a tableau with every card face up."""
    total = 0
    for a, b, c in columns:
        if not (clear_columns and a == b == c):
            total += a + b + c  # type: ignore[operator]
    return total


def turn_gains(columns: list[Column], mean: float, clear_columns: bool) -> list[float]:
    """Per value index: what a player with these columns saves by putting that card
    in the best place, as they see it (face-down cards at the mean)."""
    worst = max((mean if v is None else v for column in columns for v in column), default=mean)
    gains = [worst - v for v in VALUES]
    if clear_columns:
        for column in columns:
            for pos in range(3):
                rest = [column[i] for i in range(3) if i != pos]
                if rest[0] is not None and rest[0] == rest[1] and column[pos] != rest[0]:
                    v = rest[0]
                    own = column[pos]
                    third = mean if own is None else own
                    gains[v - LOWEST] = max(gains[v - LOWEST], 2 * v + third)
    return gains


def expected_gain(gains: list[float], draws: Counts) -> float:
    """A turn's expected saving from a draw (a bad draw is discarded: no saving)."""
    total = sum(draws) or 1
    return sum(d * max(0.0, g) for d, g in zip(draws, gains, strict=True)) / total
