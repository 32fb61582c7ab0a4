"""Every case of rule-cases.json (a copy of ../shared/rule-cases.json) through the engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest

from server.engine import Action, Deal, IllegalAction, Round, Settings, settle_round
from server.engine.events import ColumnRemoved

CASES = json.loads((Path(__file__).parents[1] / "data" / "rule-cases.json").read_text())


def _settings(case: dict[str, Any]) -> Settings:
    return Settings.from_dict(case.get("variants", {}))


def _action(step: dict[str, Any]) -> Action:
    do, args = step["do"], step.get("args", [])
    builders: dict[str, Callable[..., Action]] = {
        "flip": Action.flip,
        "take": Action.take_discard,
        "draw": Action.draw,
        "swap": Action.swap_drawn,
        "discard_flip": Action.discard_and_flip,
    }
    return builders[do](*args)


def _removed(round_: Round, but: Collection[tuple[int, int]] = frozenset()) -> list[list[int]]:
    return [
        [player, column]
        for player in range(round_.players)
        for column, gone in enumerate(round_.removed[player])
        if gone and (player, column) not in but
    ]


def _snapshot(round_: Round) -> tuple[Any, ...]:
    return (
        [list(c) for c in round_.cards],
        [list(u) for u in round_.face_up],
        list(round_.pile),
        list(round_.discard),
        round_.phase,
        round_.current,
        round_.drawn,
    )


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_rule_case(case: dict[str, Any]) -> None:
    deal = Deal.from_dict(case["deal"])
    round_ = Round(
        deal,
        _settings(case),
        number=2 if case.get("previous_closer") is not None else 1,
        previous_closer=case.get("previous_closer"),
    )
    at_reveal: set[tuple[int, int]] = set()
    for index, step in enumerate(case["steps"]):
        where = f"step {index} {step}"
        if step["do"] == "start":
            assert round_.current == step["expect_starter"], where
            continue
        action = _action(step)
        if "reshuffle" in step:
            round_.force_next_reshuffles(step["reshuffle"])
        if step.get("illegal"):
            before = _snapshot(round_)
            with pytest.raises(IllegalAction):
                round_.apply(action)
            assert _snapshot(round_) == before, where
        else:
            events = round_.apply(action)
            at_reveal |= {
                (e.player, e.column)
                for e in events
                if isinstance(e, ColumnRemoved) and e.at_final_reveal
            }
            if "expect_card" in step:
                assert round_.drawn == step["expect_card"], where
                assert any(getattr(e, "value", None) == step["expect_card"] for e in events)
        expected = step["expect_after"]
        assert round_.discard_top == expected["discard_top"], where
        # expect_after describes the table before the final reveal; expect_result after it.
        assert _removed(round_, but=at_reveal) == expected["removed_columns"], where
        # The cases' model begins the first turn at its "start" step, after the
        # last flip; the engine begins it with the last flip. "start" checks it.
        if not (step["do"] == "flip" and not round_.pending_flippers()):
            assert round_.current == expected["next_player"], where
        assert round_.is_over == expected["round_over"], where
    if "expect_result" in case:
        result = case["expect_result"]
        assert list(round_.raw_scores or ()) == result["raw_scores"]
        assert list(round_.final_scores or ()) == result["final_scores"]
        assert round_.closer == result["closer"]
        assert _removed(round_) == result["removed_columns"]


@pytest.mark.parametrize("case", CASES["games"], ids=[g["name"] for g in CASES["games"]])
def test_game_case(case: dict[str, Any]) -> None:
    settings = Settings(end_score=case["end_score"])
    players = len(case["round_final_scores"][0])
    totals = (0,) * players
    played = 0
    for scores in case["round_final_scores"]:
        settlement = settle_round(totals, tuple(scores), settings)
        totals, played = settlement.totals, played + 1
        if settlement.game_over:
            break
    assert played == case["expect_rounds_played"]
    assert list(totals) == case["expect_totals"]
    assert list(settlement.winners) == case["expect_winners"]
