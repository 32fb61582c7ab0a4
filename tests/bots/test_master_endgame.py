"""Near a two-player round's end, master's rollout judge plays the round out and sees
the closer's doubling that the one-turn judge (the expert's model) misprices."""

from __future__ import annotations

from collections import Counter

from server.bots.master import MasterBot
from server.engine import DECK, Action, Game, Round, Settings, view_for
from server.engine.position import Phase, Position

# Both tableaux, as the players see them (None: face down). Seat 0 shows 12 points with
# one card face down; seat 1, to move, shows 11 with one face down, in a column of two 6s.
SHOWN: tuple[tuple[int | None, ...], ...] = (
    (1, 1, 0, 6, 6, -1, 0, 0, None, 0, 0, -1),
    (1, -2, 1, 6, 6, None, 1, 2, -1, -1, 0, -2),
)
DISCARD = 2
SEAT = 1


def _table(
    shown_cards: tuple[tuple[int | None, ...], ...] = SHOWN,
) -> Game:
    """Seat 1 to begin its turn at ``shown_cards`` with a 2 on the discard; the face-down
    cards and the pile are the rest of the deck (the bot sees only what is shown)."""
    rest = Counter(DECK)
    rest.subtract([DISCARD, *(v for shown in shown_cards for v in shown if v is not None)])
    pile = sorted(rest.elements())
    tableaux = tuple(tuple(pile.pop(0) if v is None else v for v in shown) for shown in shown_cards)
    position = Position(
        tableaux=tableaux,
        face_up=tuple(tuple(v is not None for v in shown) for shown in shown_cards),
        removed_columns=((), ()),
        discard=(DISCARD,),
        pile=tuple(pile),
        phase=Phase.CHOOSE,
        current=SEAT,
    )
    game = Game(2, Settings(), seed=0)
    game.round = Round.from_position(position, game.settings)
    return game


def _master(endgame_rollouts: bool) -> MasterBot:
    master = MasterBot(SEAT, seed=1)
    master.endgame_rollouts = endgame_rollouts
    return master


def test_near_the_end_master_plays_the_round_out_and_avoids_the_doubled_close() -> None:
    """The model prices taking the 2 onto the 2 at position 7 (a turn that changes
    nothing) 1.7 points cheaper than drawing, and the one-turn judge agrees. Played out
    as both players' model would play it (1,000 deals), that stall leaves us the closer,
    doubled, in a third of the rounds and 1.0 point over the other, where drawing is
    doubled in 12% and ends 2.3 points under it: the rollout judge draws."""
    game = _table()
    view = view_for(game, SEAT)
    assert _master(endgame_rollouts=False).choose(view) == Action.take_discard(SEAT, 7)
    assert _master(endgame_rollouts=True).choose(view) == Action.draw(SEAT)


def test_far_from_the_end_the_rollout_judge_is_not_used() -> None:
    """With three or more face-down cards in every tableau the search is as before."""
    master = _master(endgame_rollouts=True)
    assert master._near_the_end(view_for(_table(), SEAT))  # noqa: SLF001 - the search's part, tried alone
    # The first column of each tableau turned back down: three face-down cards each.
    early = tuple((None, None, None, *shown[3:]) for shown in SHOWN)
    assert not master._near_the_end(view_for(_table(early), SEAT))  # noqa: SLF001 - the search's part, tried alone
    assert not _master(endgame_rollouts=False)._near_the_end(view_for(_table(), SEAT))  # noqa: SLF001 - the search's part, tried alone
