"""A whole game: rounds until a total reaches the end score."""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .actions import Action, describe
from .deal import Deal
from .errors import IllegalAction, InvalidSetup
from .events import Event, TotalsUpdated
from .movelog import PlayedMove, RoundLog, Standin, action_entry, read_action_entry
from .round import Round
from .settings import MAX_PLAYERS, MIN_PLAYERS, Settings


class GamePhase(str, Enum):
    PLAYING = "playing"  # a round is in progress
    BETWEEN_ROUNDS = "between_rounds"  # the last round is scored; next_round() deals
    GAME_OVER = "game_over"


# An enum member costs a metaclass lookup each time it is named (see round.py);
# the per-move methods compare with this alias.
_PLAYING = GamePhase.PLAYING


@dataclass(frozen=True, slots=True)
class Settlement:
    totals: tuple[int, ...]
    game_over: bool
    winners: tuple[int, ...]


def settle_round(
    totals: tuple[int, ...], round_scores: tuple[int, ...], settings: Settings
) -> Settlement:
    """Add a round's final scores; the game ends once any total reaches the end score."""
    new_totals = tuple(t + s for t, s in zip(totals, round_scores, strict=True))
    over = max(new_totals) >= settings.end_score
    best = min(new_totals)
    winners = tuple(p for p, t in enumerate(new_totals) if t == best) if over else ()
    return Settlement(new_totals, over, winners)


class Game:
    """Deterministic: settings, seed and actions define the whole game."""

    def __init__(
        self,
        players: int,
        settings: Settings = Settings(),
        seed: int | str = 0,
        *,
        deal: Deal | None = None,
    ) -> None:
        """A game whose first round is dealt from ``seed`` (or is ``deal``, for replays)."""
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidSetup(f"a game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        self.players = players
        self.settings = settings
        self.seed = seed
        self.totals: tuple[int, ...] = (0,) * players
        self.winners: tuple[int, ...] = ()
        self.history: list[RoundLog] = []
        self.round: Round = self._new_round(deal)
        self.phase = GamePhase.PLAYING

    # -- queries --------------------------------------------------------------

    @property
    def round_number(self) -> int:
        return self.round.number

    @property
    def is_over(self) -> bool:
        return self.phase is GamePhase.GAME_OVER

    @property
    def current_player(self) -> int | None:
        return self.round.current

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.phase is not _PLAYING:
            return []
        return self.round.legal_actions(player)

    # -- transitions ----------------------------------------------------------

    def apply(self, action: Action, standin: Standin | None = None) -> list[Event]:
        """Play ``action`` in the current round; a round's last move also settles it.

        ``standin``: a bot chose this move for a person (the log and the record say so;
        the rules do not look at it)."""
        if self.phase is not _PLAYING:
            raise IllegalAction(f"{describe(action)}: the round is over")
        round_ = self.round
        events = round_.apply(action)
        if round_.final_scores is not None:
            events.append(self._settle(round_.number, round_.final_scores))
        self.history[-1].moves.append(PlayedMove(action, tuple(events), standin))
        return events

    def _settle(self, number: int, round_scores: tuple[int, ...]) -> TotalsUpdated:
        settlement = settle_round(self.totals, round_scores, self.settings)
        self.totals, self.winners = settlement.totals, settlement.winners
        self.phase = GamePhase.GAME_OVER if settlement.game_over else GamePhase.BETWEEN_ROUNDS
        return TotalsUpdated(number, self.totals, settlement.game_over, self.winners)

    def next_round(self, deal: Deal | None = None) -> list[Event]:
        """Deal the next round (shuffled from the seed unless ``deal`` is given)."""
        if self.phase is not GamePhase.BETWEEN_ROUNDS:
            raise IllegalAction("the next round starts only after a round is scored")
        self.round = self._new_round(deal)
        self.phase = GamePhase.PLAYING
        return [self.round.start_event()]

    def _new_round(self, deal: Deal | None) -> Round:
        number = len(self.history) + 1
        if deal is None:
            deal = Deal.shuffled(self.players, random.Random(f"{self.seed}/deal/{number}"))
        if len(deal.tableaux) != self.players:
            raise InvalidSetup("the deal is for another number of players")
        round_ = Round(
            deal,
            self.settings,
            number=number,
            previous_closer=self.round.closer if self.history else None,
            reshuffle_seed=f"{self.seed}/reshuffle",
        )
        self.history.append(RoundLog(deal))
        return round_

    # -- plain data -----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this game exactly (it is secret: server only)."""
        return {
            "players": self.players,
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "rounds": [
                {
                    "deal": log.deal.to_dict(),
                    "actions": [action_entry(move.action, move.standin) for move in log.moves],
                    "reshuffles": [
                        list(e.order)  # type: ignore[attr-defined]
                        for move in log.moves
                        for e in move.events
                        if e.TYPE == "pile_reshuffled"
                    ],
                }
                for log in self.history
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game by replaying its deals and actions through the rules."""
        try:
            rounds = data["rounds"]
            game = cls(
                data["players"],
                Settings.from_dict(data["settings"]),
                data["seed"],
                deal=Deal.from_dict(rounds[0]["deal"]),
            )
            for index, round_data in enumerate(rounds):
                if index > 0:
                    game.next_round(Deal.from_dict(round_data["deal"]))
                game.round.force_next_reshuffles(*round_data.get("reshuffles", []))
                for action_data in round_data["actions"]:
                    game.apply(*read_action_entry(action_data))
        except (KeyError, IndexError, TypeError, IllegalAction) as exc:
            raise InvalidSetup(f"not a saved game: {exc}") from exc
        return game
