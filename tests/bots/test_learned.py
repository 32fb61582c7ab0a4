"""The learned player: trained on a few games it learns, and plays far above random."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from server.bots.afterstate import FEATURES, GONE, HIDDEN, PRIOR, TOTALS, UP, table_of
from server.bots.learn import TRAINING_SEEDS, generate, load, play, train
from server.bots.learned import WEIGHTS, Afterstates, LearnedBot
from server.bots.network import Network
from server.engine import Action, Settings, view_for

from .tables import crafted_game
from .tables import play as play_moves

SHORT = Settings(end_score=40)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Network]:
    work = tmp_path_factory.mktemp("learn")
    generate(work, 6, TRAINING_SEEDS, ["expert", "expert"], None, SHORT, log=False)
    network = train([work], work / "weights.npz", epochs=12, batch=64, rate=3e-3, log=False)
    return work, network


def test_training_lowers_the_loss(trained: tuple[Path, Network]) -> None:
    work, network = trained
    data = load([work])
    assert data.inputs.shape[1] == FEATURES
    assert len(np.unique(data.seeds)) == 6
    fit = data.seeds % 10 != 0  # the games it trained on (one in ten is held out)
    untrained = Network.fresh(FEATURES, np.random.default_rng(0), TOTALS, prior=PRIOR)
    untrained.standardize_on(data.inputs[fit])
    before = untrained.loss(data.inputs[fit], data.points[fit])
    losses = [fit_loss for fit_loss, _ in network.record["losses"]]
    assert losses[-1] < losses[0] < before
    assert losses[-1] < before / 2


def test_the_record_says_how_the_weights_were_made(trained: tuple[Path, Network]) -> None:
    work, _ = trained
    record = Network.load(work / "weights.npz").record
    assert record["games"] == 6
    assert record["seeds"] == [TRAINING_SEEDS, TRAINING_SEEDS + 5]
    assert record["epochs"] == 12 and record["generate_cpu_s"] > 0


def test_generating_again_resumes_instead_of_replaying(trained: tuple[Path, Network]) -> None:
    work, _ = trained
    before = {p.name: p.stat().st_mtime_ns for p in work.glob("games-*.npz")}
    generate(work, 6, TRAINING_SEEDS, ["expert", "expert"], None, SHORT, log=False)
    assert {p.name: p.stat().st_mtime_ns for p in work.glob("games-*.npz")} == before


def test_evaluation_seeds_are_not_for_training(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="training seeds"):
        generate(tmp_path, 1, 0, ["expert", "expert"], None, SHORT, log=False)


def test_the_trained_player_beats_random_play(trained: tuple[Path, Network]) -> None:
    _, network = trained
    wins = 0
    for seed in range(4):
        lineup = ["learned", "random"] if seed % 2 == 0 else ["random", "learned"]
        game = play(lineup, TRAINING_SEEDS + 100 + seed, SHORT, network, learn=False)
        wins += lineup.index("learned") in game.winners
    assert wins == 4


def test_the_shipped_weights_play_a_whole_game_against_the_expert() -> None:
    assert WEIGHTS.stat().st_size < 1_000_000
    game = play(["learned", "expert"], 3, SHORT, learn=False)
    assert max(game.totals) >= SHORT.end_score
    assert LearnedBot(0).network.record["games"] > 0


def test_a_column_of_three_is_priced_as_cleared() -> None:
    """Two 5s shown in a column and a 5 drawn: putting it in the column's face-down
    place clears the column, and the afterstate shows it gone with a 5 on the discard,
    as the engine plays it."""
    game, events = crafted_game(2, {0: {0: 5, 1: 5}, 1: {0: 1, 4: 2}}, discard=9, pile_top=[5])
    bot = LearnedBot(0)
    play_moves(game, [bot], events, Action.draw(0))
    view = view_for(game, 0)
    bot.counter.sync(view)
    rows = Afterstates(table_of(view, bot.counter, Settings()))
    rows.known(0, 2, 5, 3)
    rows.known(1, 5, 5, 3)
    values, states, discard = rows.arrays()
    assert values[0, :3].sum() == 0  # a removed column counts nothing
    assert list(states[0, :3]) == [GONE] * 3 and discard[0] == 5
    assert list(states[1, :3]) == [UP, UP, HIDDEN] and discard[1] == 3
    game.apply(Action.swap_drawn(0, 2))
    assert view_for(game, 0).tableaux[0].removed_columns == (0,)
    assert view_for(game, 0).discard_top == 5
