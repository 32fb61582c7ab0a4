"""Casual closes too eagerly: where the expert keeps its last card face down because
closing would get it doubled, casual ends the round and pays the closer's penalty."""

from __future__ import annotations

from collections import Counter

import pytest

from server.bots import Bot, make_bot
from server.bots.match import bot_move, make_bots, seats_to_act, tell_bots
from server.engine import Action, ActionKind, Game, PlayerView, Settings, view_for

from .test_advice import Cards, hand_made_view

#: Eleven cards up scoring 15 and one face down (position 11).
FIFTEEN_AND_ONE_DOWN: Cards = [3, 4, 2, 0, 1, 2, 1, 0, 0, 2, 0, None]
#: The other player shows 8 in low cards with only two face down (positions 5 and 8):
#: they will very likely finish under 15, so whoever closes at 15 is doubled.
LOW_OPPONENT: Cards = [0, 1, 2, 1, 0, None, 2, -1, None, 0, 1, 2]


def last_hidden(view: PlayerView) -> int | None:
    """The mover's only face-down card, when turning it or replacing it would close the round."""
    assert view.seat is not None
    mine = view.tableaux[view.seat]
    hidden = [
        p for p, c in enumerate(mine.cards) if c is None and p // 3 not in mine.removed_columns
    ]
    if len(hidden) != 1 or view.closer is not None or view.phase not in ("choose", "drawn"):
        return None
    return hidden[0]


def closes(view: PlayerView, action: Action) -> bool:
    return action.kind is not ActionKind.DRAW and action.pos == last_hidden(view)


@pytest.mark.parametrize(
    "mine",
    [FIFTEEN_AND_ONE_DOWN, [0, *FIFTEEN_AND_ONE_DOWN[1:]]],  # at 15, or at 12
    ids=["at 15", "at 12"],
)
def test_casual_closes_where_the_closer_penalty_awaits_and_the_expert_does_not(
    mine: Cards,
) -> None:
    # A 0 was drawn: putting it on the last face-down card closes at 15 (or 12);
    # putting it on the 4 keeps the round going with one card to hope for.
    view = hand_made_view(mine, 10, drawn=0, theirs=LOW_OPPONENT)
    assert last_hidden(view) == 11
    seeds = range(8)
    casual = [closes(view, make_bot("casual", 0, seed).choose(view)) for seed in seeds]
    expert = [closes(view, make_bot("expert", 0, seed).choose(view)) for seed in seeds]
    assert casual == [True] * len(seeds)
    assert expert == [False] * len(seeds)


def closer_doubled_after(game: Game, closing: Action) -> bool:
    """Play ``closing`` on a copy of ``game``, the others' last turns by greedy bots;
    whether the closer's score was doubled."""
    copy = Game.from_dict(game.to_dict())
    copy.apply(closing)
    finishers = make_bots(["greedy"] * copy.round.players, "finish", Settings())
    for _ in range(4 * copy.round.players):  # a last turn is at most two moves each
        seats = seats_to_act(copy)
        if not seats:
            break
        copy.apply(bot_move(finishers[seats[0]], copy))
    scored = copy.round
    assert scored.final_scores is not None and scored.raw_scores is not None
    assert scored.closer is not None
    return scored.final_scores[scored.closer] != scored.raw_scores[scored.closer]


def test_over_seeded_rounds_casual_closes_more_often_than_the_expert_and_is_doubled_more() -> None:
    """Twenty two-player rounds played by greedy bots; at every chance one of them has to
    close, casual and the expert, having followed the same table, say what they would do.
    Each close they choose is played out to see whether the closer is doubled."""
    settings = Settings()
    closed: Counter[str] = Counter()
    doubled: Counter[str] = Counter()
    chances = 0
    for seed in range(20):
        game = Game(2, settings, seed)
        movers = make_bots(["greedy", "greedy"], seed, settings)
        advisers: dict[str, list[Bot]] = {
            level: [make_bot(level, seat, f"{seed}/{seat}", settings) for seat in range(2)]
            for level in ("casual", "expert")
        }
        everyone = [*movers, *advisers["casual"], *advisers["expert"]]
        tell_bots(everyone, [game.round.start_event()])
        for _ in range(1000):  # a greedy round is far shorter than that
            seats = seats_to_act(game)
            if not seats:
                break
            view = view_for(game, seats[0])
            if last_hidden(view) is not None:
                chances += 1
                for level, bots in advisers.items():
                    choice = bots[seats[0]].choose(view)
                    if closes(view, choice):
                        closed[level] += 1
                        doubled[level] += closer_doubled_after(game, choice)
            tell_bots(everyone, game.apply(movers[seats[0]].choose(view)))
        assert not seats_to_act(game), f"round {seed} did not end"
    assert chances >= 40
    assert closed["casual"] >= 3 * closed["expert"] > 0
    assert doubled["casual"] > doubled["expert"]
