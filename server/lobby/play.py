"""A table's game: every move through the engine, stored, then told to everyone.

``TablePlay`` owns the engine's ``Game``, the table's bots (``thinking``) and
its clock (``table_clock``: what happens without anyone asking, when it is due).
People's moves arrive through ``act``, bots' moves through ``bot_move``.

Order of a move, under the table's lock: the engine checks it, the store
commits it, the engine applies it, the pushes go out. So a move is durable
before anyone hears of it, and the log never holds an illegal move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BOT_LEVELS
from ..config import Pace
from ..engine import Action, Event, Game, GamePhase, IllegalAction, Phase, public_event, view_for
from ..engine.events import RoundScored, TotalsUpdated
from ..engine.movelog import AWAY, LEFT, TIMER, Standin, action_entry, read_action_entry
from ..protocol import GameOverPush, GamePush, LeftReason, TableStatus, encode_frame
from ..store import PlayerResult, SavedTable, Store
from .records import make_record
from .table import HUMAN, IN_GAME, GameSeat, Table
from .table_clock import TableClock
from .thinking import BotThinker, TableBots

if TYPE_CHECKING:
    from .places import Place
    from .session import Session

logger = logging.getLogger(__name__)


def starts_a_turn(events: list[Event]) -> bool:
    """Whether these events start a turn (or the initial flips): the turn timer restarts."""
    return any(e.TYPE in ("turn_began", "round_started") for e in events)


def standin_level(pace: Pace) -> str:
    """The bot that plays for a person: the configured level, else greedy (good and quick)."""
    if pace.standin_level in BOT_LEVELS:
        return pace.standin_level
    return "greedy" if "greedy" in BOT_LEVELS else next(reversed(BOT_LEVELS))


class TableHost(Protocol):
    """What a table needs from the lobby around it."""

    def table_changed(self, table: Table) -> None: ...

    def moved(self, seconds: float) -> None: ...

    async def close_table(self, table: Table, reason: LeftReason) -> None: ...


class TablePlay:
    def __init__(
        self, table: Table, store: Store, pace: Pace, host: TableHost, thinker: BotThinker
    ) -> None:
        self.table = table
        self.store = store
        self.pace = pace
        self.host = host
        self.game: Game | None = None
        self.bots = TableBots(thinker, standin_level(pace), label=table.id)
        self.lock = asyncio.Lock()  # one change of the game at a time
        self.turn_started = time.monotonic()
        self.last_progress = time.monotonic()
        self.next_round_at: float | None = None
        self.clock = TableClock(self)

    # -- lifecycle (the clock does the work) ---------------------------------------

    def start_clock(self) -> None:
        self.clock.start()

    async def stop_clock(self) -> None:
        await self.clock.stop()

    def wake(self) -> None:
        """Something changed: the clock looks again at what is due."""
        self.clock.wake()

    def presence_changed(self) -> None:
        self.clock.presence_changed()

    # -- queries ---------------------------------------------------------------------

    def round_number(self) -> int | None:
        return None if self.game is None else self.game.round_number

    def next_round_in(self) -> float | None:
        if self.next_round_at is None:
            return None
        return round(max(0.0, self.next_round_at - time.monotonic()), 1)

    def seq(self) -> int:
        """Game updates so far: every move, plus every round after the first."""
        if self.game is None:
            return 0
        history = self.game.history
        return sum(len(log.moves) for log in history) + len(history) - 1

    def timer(self) -> dict[str, Any] | None:
        """The running turn timer, as sent in ``game`` pushes."""
        limit = self.table.turn_timer
        if not limit or self.game is None or self.table.status != TableStatus.PLAYING:
            return None
        seats = [i for i in self.acting_seats() if not self.table.plays_itself(i)]
        if not seats:
            return None
        remaining = max(0.0, self.turn_started + limit - time.monotonic())
        return {"seats": seats, "remaining": round(remaining, 1), "total": limit}

    def standin_in(self, place: Place | None) -> float | None:
        """Seconds until a bot plays for this away person (None: not away, or one already does)."""
        if place is None or place.away_since is None or place.standin or place.watching:
            return None
        if self.table.status not in IN_GAME:
            return None
        left = place.away_since + self.pace.grace_period - time.monotonic()
        return round(max(0.0, left), 1)

    def acting_seats(self) -> list[int]:
        """Who may move now: everyone still flipping, or the current player."""
        assert self.game is not None
        round_ = self.game.round
        if self.game.phase is not GamePhase.PLAYING:
            return []
        if round_.phase is Phase.INITIAL_FLIPS:
            return round_.pending_flippers()
        return [] if round_.current is None else [round_.current]

    # -- starting a game -------------------------------------------------------------

    async def start_game(self) -> None:
        """Deal a new game for the seats filled now (the caller checked who may)."""
        table = self.table
        async with self.lock:
            table.compact()
            table.audience.clear()
            table.see_the_game()
            players = len(table.filled())
            table.games_played += 1
            chosen = table.game_seed(table.games_played)
            seed = secrets.randbits(48) if chosen is None else chosen
            self.game = Game(players, table.settings, seed=seed)
            table.game_seats = [GameSeat.of(seat) for _, seat in table.filled()]
            self._deal_bots()
            for _, seat in table.filled():
                seat.ready = seat.rematch = False
            table.game_id = None
            self.next_round_at = None
            await self.store.save_snapshot(
                table.id, table.to_meta(), self.game.to_dict(), time.time()
            )
            table.story.dealt(table.to_wire(None), table.chat)
            # The table first: its ``game_seats`` name the players of the views that follow.
            table.push_table()
            self._after_update([self.game.round.start_event()])
        self.host.table_changed(table)

    def _deal_bots(self) -> None:
        assert self.game is not None
        levels = {index: seat.level for index, seat in self.table.filled()}
        # At a seeded table the bots' own choices (ties, the random bot) follow the
        # game's seed too: the same moves against them replay the same game.
        if self.table.seed is None:
            seed = f"{self.table.id}/{self.table.games_played}"
        else:
            seed = f"seeded/{self.game.seed}"
        self.bots.deal(self.game, levels, seed, self.table.settings)

    # -- moves -----------------------------------------------------------------------

    async def act(self, action: Action) -> int:
        """A person's move; returns its ``seq`` once stored and pushed.

        Raises ``IllegalAction`` (engine) when it is not legal now.
        """
        arrived = time.perf_counter()
        async with self.lock:
            return await self._commit(action, arrived)

    async def _commit(self, action: Action, arrived: float, standin: Standin | None = None) -> int:
        """Store, apply and push ``action`` (which came at ``perf_counter()`` ``arrived``);
        ``standin``: a bot chose it for the person in that seat."""
        game = self.game
        assert game is not None and self.lock.locked()
        if game.phase is not GamePhase.PLAYING:
            raise IllegalAction(f"{action}: the round is over")
        game.round.check(action)  # the engine's reason when the move is illegal
        seq = self.seq() + 1
        entry = action_entry(action, standin)
        await self.store.append_action(self.table.id, seq, entry, time.time())
        events = game.apply(action, standin)
        self._after_update(events, None if standin is None else (action.player, standin))
        self.host.moved(time.perf_counter() - arrived)
        if game.is_over:
            await self.finish()
        return seq

    def _after_update(
        self, events: list[Event], standin: tuple[int, Standin] | None = None
    ) -> None:
        """Bots learn the events, clocks restart, everyone gets their view; ``standin``:
        the seat whose move it was and the bot that chose it for its person."""
        assert self.game is not None
        now = time.monotonic()
        self.last_progress = now
        if starts_a_turn(events):
            self.turn_started = now
        self.bots.tell(events)
        self._push_game(events, standin)
        if self.game.phase is GamePhase.BETWEEN_ROUNDS:
            self._between_rounds()  # this move ended the round (a deal never does)
        self.wake()

    def _push_game(self, events: list[Event], standin: tuple[int, Standin] | None) -> None:
        assert self.game is not None
        table, seq, timer = self.table, self.seq(), self.timer()
        wire_events = [public_event(e).to_dict() for e in events]
        chosen = None if standin is None else {"seat": standin[0], **standin[1].to_dict()}
        table.story.played(wire_events, chosen)
        for index, _ in table.filled():
            session = table.session_at(index)
            if session is not None:
                push = self._game_push(wire_events, index, seq, timer, standin=chosen)
                session.send(push.to_wire())
        watchers = table.spectators()
        if watchers:
            push = self._game_push(wire_events, None, seq, timer, standin=chosen)
            data = encode_frame(push.to_wire())
            for watcher in watchers:
                watcher.send_frame(data)

    def _game_push(
        self,
        events: list[dict[str, Any]],
        seat: int | None,
        seq: int,
        timer: dict[str, Any] | None,
        *,
        catch_up: bool = False,
        standin: dict[str, Any] | None = None,
    ) -> GamePush:
        assert self.game is not None
        return GamePush(
            table_id=self.table.id,
            seq=seq,
            events=events,
            catch_up=catch_up,
            view=view_for(self.game, seat).to_dict(),
            timer=timer,
            earlier_scores=self.earlier_scores() if catch_up else None,
            standin=standin,
        )

    def earlier_scores(self) -> list[dict[str, Any]]:
        """The ``round_scored`` and ``totals_updated`` events of the rounds before the
        current one: with the round so far, a score sheet of the whole game."""
        assert self.game is not None
        return [
            event.to_dict()
            for log in self.game.history[:-1]
            for move in log.moves
            for event in move.events
            if isinstance(event, RoundScored | TotalsUpdated)
        ]

    def round_so_far(self) -> list[dict[str, Any]]:
        """The current round's events as the table saw them: its start, then every move's."""
        assert self.game is not None
        moves = self.game.history[-1].moves
        events = [self.game.round.start_event(), *(e for move in moves for e in move.events)]
        return [public_event(e).to_dict() for e in events]

    def _story_again(self) -> None:
        """After a restart the story begins again (it is kept in memory only): the table's
        chat, then the round in play, each move a bot chose for a person marked as such."""
        game, story = self.game, self.table.story
        assert game is not None
        story.begin(self.table.to_wire(None), self.table.chat)
        story.played([public_event(game.round.start_event()).to_dict()], None)
        for move in game.history[-1].moves:
            standin = move.standin
            story.played(
                [public_event(e).to_dict() for e in move.events],
                None if standin is None else {"seat": move.action.player, **standin.to_dict()},
            )

    def send_state(self, session: Session) -> None:
        """The full current view to one person (joining, watching, coming back).

        With it come the round's public events so far, so that a client can
        rebuild its move log (and a bot its count of the cards seen). The
        caller holds the lock: a move being stored meanwhile (a stand-in's,
        say) is played and pushed first, so the view is not out of date when
        it arrives, and no move reaches this person before it.
        """
        assert self.lock.locked()
        table, place = self.table, self.table.places.place_of(session)
        if self.game is None or place is None:
            return
        seat = None if place.watching else table.seat_in_game(place.player_id)
        if seat is None and not place.watching and table.status == TableStatus.FINISHED:
            return  # seated for the rematch: the game over is someone else's result
        push = self._game_push(self.round_so_far(), seat, self.seq(), self.timer(), catch_up=True)
        session.send(push.to_wire())

    # -- between rounds and the end ------------------------------------------------------

    def _between_rounds(self) -> None:
        self.next_round_at = time.monotonic() + self.pace.between_rounds
        for _, seat in self.table.filled():
            seat.ready = False
        self.table.push_table()

    def everyone_ready(self) -> bool:
        table = self.table
        return all(
            seat.ready or table.plays_itself(index) or table.session_at(index) is None
            for index, seat in table.filled()
            if seat.is_person
        )

    async def next_round(self) -> None:
        async with self.lock:
            game = self.game
            if game is None or game.phase is not GamePhase.BETWEEN_ROUNDS:
                return
            events = game.next_round()
            self.next_round_at = None
            for seat in self.table.people():
                seat.ready = False  # ready is asked again at the end of this round
            meta, snapshot = self.table.to_meta(), game.to_dict()
            await self.store.save_snapshot(self.table.id, meta, snapshot, time.time())
            self._after_update(events)
        self.table.push_table()

    async def finish(self) -> None:
        """Store the finished game and its statistics; the table waits for a rematch."""
        table, game = self.table, self.game
        assert game is not None and game.is_over
        names = [s.name for s in table.game_seats]
        results, record = self._results(), make_record(game, table.game_seats)
        subjects = [seat.rating_subject for _, seat in table.filled()]
        for index, seat in table.filled():
            place = table.place_at(index)
            if seat.left:
                table.seats[index] = None  # they left their place when they left the game
            elif place is not None:
                place.standin = False  # no game to play for them: they are just away
        table.game_id = await self.store.finish_game(
            table.name,
            names,
            list(game.totals),
            list(game.winners),
            record,
            results,
            table_id=table.id,
            meta=table.to_meta(),
            viewers=table.audience if table.private else None,
            subjects=subjects,
            seeded=table.seed is not None,
        )
        over = GameOverPush(table.id, table.game_id, names, list(game.totals), list(game.winners))
        table.push_all(over.to_wire())
        table.push_table()
        self.host.table_changed(table)

    def _results(self) -> list[PlayerResult]:
        """Each person who played to the end: their win and their round scores."""
        assert self.game is not None
        scores = [e.final_scores for e in self._round_events() if isinstance(e, RoundScored)]
        return [
            PlayerResult(seat.player_id, index in self.game.winners, [s[index] for s in scores])
            for index, seat in self.table.filled()
            if seat.is_person and seat.player_id is not None
        ]

    def _round_events(self) -> list[Event]:
        assert self.game is not None
        return [e for log in self.game.history for move in log.moves for e in move.events]

    # -- bots' moves -------------------------------------------------------------------

    def bot_move_time(self, index: int) -> float | None:
        """When a bot makes this seat's next move (None: wait for the person)."""
        paced = self.last_progress + self.pace.bot_delay
        if self.table.plays_itself(index):
            return paced
        if self.table.turn_timer:
            return max(self.turn_started + self.table.turn_timer, paced)
        return None

    def _bot_due(self, index: int) -> bool:
        when = self.bot_move_time(index) if index in self.acting_seats() else None
        return when is not None and when <= time.monotonic()

    async def bot_move(self, index: int) -> None:
        """A bot's move for seat ``index``, if one is due (the clock calls this).

        The bot thinks without the table's lock, so during the initial flips
        people flip meanwhile instead of waiting for it. Its move is played
        only if it is still due and still legal once it has thought.
        """
        async with self.lock:
            if self.game is None or not self._bot_due(index):
                return  # someone moved first
            game, view = self.game, view_for(self.game, index)
        bot, action = await self.bots.think(index, view)
        chosen = time.perf_counter()
        async with self.lock:
            if self.game is not game or not self.bots.thought(game, index, bot, action is None):
                return  # a new game began meanwhile
            if not self._bot_due(index):
                return
            action = action or view_for(game, index).legal_actions[0]
            if game.round.is_legal(action):
                await self._commit(action, chosen, self._standin(index))

    def _standin(self, index: int) -> Standin | None:
        """Why a bot plays seat ``index`` now, if it is a person's (None for a bot's seat).

        Asked under the lock, once the move is due: so it says why this very move
        was the bot's, not why one was expected when it began to think."""
        seat = self.table.seats[index]
        assert seat is not None
        if seat.kind != HUMAN:
            return None
        place = self.table.place_at(index)
        if seat.left:
            reason = LEFT
        elif place is not None and place.away_since is not None:
            reason = AWAY  # past the grace time, or not yet but their turn timer ran out
        else:
            reason = TIMER
        return Standin(self.bots.level_of(index), reason)

    # -- restoring after a restart ------------------------------------------------------------

    async def restore(self, saved: SavedTable) -> None:
        """Rebuild the game from its snapshot and logged moves, as it was.

        The clocks resume too: the turn timer and the pause between rounds
        count from when the move that started them was played, not from now.
        """
        self.presence_changed()
        if saved.snapshot is None:
            return  # no game dealt yet: the table waits for one (its status says so)
        self.game = game = Game.from_dict(saved.snapshot)
        turn_at = last_at = saved.snapshot_at
        for logged in saved.actions:
            if starts_a_turn(game.apply(*read_action_entry(logged.action))):
                turn_at = logged.at
            last_at = logged.at
        self.turn_started, self.last_progress = _monotonic(turn_at), _monotonic(last_at)
        self._deal_bots()
        self._story_again()
        if game.phase is GamePhase.BETWEEN_ROUNDS:
            self.next_round_at = self.last_progress + self.pace.between_rounds
        elif game.is_over and saved.meta.get("status") != TableStatus.FINISHED:
            # Killed after the last move, before the game was stored: the stored status is
            # written in the same transaction as the finished game (``Store.finish_game``).
            await self.finish()


def _monotonic(at: float | None) -> float:
    """The monotonic time of unix time ``at`` (now when unknown; never later than now)."""
    now = time.monotonic()
    return now if at is None else now - max(0.0, time.time() - at)
