"""The OpenSpiel adapter of bench/_openspiel_game.py (skipped without open_spiel: the bench extra)."""

from __future__ import annotations

import random
import re
import sys

import pytest

pytest.importorskip("pyspiel")

import engine
from bench import _openspiel_game as O

#: Fixed bids that make a deal be played out (Tarneeb 41: a total of 11 or more; classic: a contract)
BIDS = {"tarneeb41": ["bid 3", "bid 3", "bid 3", "bid 3"], "tarneeb": ["bid 7", "pass", "pass", "pass", "trump S"]}


def _random_deal(game_id: str, seed: int) -> tuple[O.MajlisGame, list[str]]:
    """A deal played to its end by uniformly random legal moves on the engine alone: its actions."""
    g = engine.new_game(game_id, seed=seed, dealer=0)
    rng = random.Random(seed)
    actions: list[str] = []
    while True:
        code = rng.choice(g.legal())
        actions.append(code)
        if any(ev["type"] in ("deal_scored", "deal_thrown_in") for ev in g.act(g.to_act, code)):
            return O.load(game_id, seed), actions


@pytest.mark.parametrize("game_id", O.GAME_IDS)
def test_the_adapters_legal_actions_are_the_engines_at_every_step_of_a_seeded_random_deal(game_id: str) -> None:
    lengths = []
    for seed in range(3):
        game, actions = _random_deal(game_id, seed)
        lengths.append(len(actions))
        g = engine.new_game(game_id, seed=seed, dealer=0)
        state = game.new_initial_state()
        for code in actions:
            assert state.current_player() == g.to_act
            assert [O.ACTIONS[game_id][a] for a in state.legal_actions()] == sorted(
                g.legal(), key=O.INDEX[game_id].__getitem__)
            assert not state.is_terminal()
            state.apply_action(O.INDEX[game_id][code])
            g.act(g.to_act, code)
        assert state.is_terminal()
        assert state.legal_actions() == []
    assert max(lengths) > 52  # a deal's card play is covered


@pytest.mark.slow
@pytest.mark.parametrize("game_id", O.GAME_IDS)
def test_a_deal_played_to_the_end_by_ismcts_bots_returns_the_engines_own_scores(game_id: str) -> None:
    game = O.load(game_id, seed=11)
    g = game.new_engine_game()
    bot = O.ISMCTSPlayer(iterations=8, seed=3)
    actions: list[str] = []
    scored = None
    while scored is None:
        code = BIDS[game_id][len(actions)] if len(actions) < len(BIDS[game_id]) else bot.decide(game, actions)
        assert code in g.legal()
        actions.append(code)
        for ev in g.act(g.to_act, code):
            if ev["type"] == "deal_scored":
                scored = ev
    state = game.state_after(actions)
    assert state.is_terminal()
    if game_id == "tarneeb41":
        assert state.returns() == [float(x) for x in scored["deltas"]["players"]]
    else:
        t = scored["deltas"]["teams"]
        assert state.returns() == [float(t[0] - t[1]), float(t[1] - t[0])] * 2
    assert any(state.returns())


@pytest.mark.slow
def test_ismcts_bots_bidding_too_end_the_deal_with_the_engines_outcome() -> None:
    game = O.load("tarneeb41", seed=5)
    bot = O.ISMCTSPlayer(iterations=8, seed=1)
    g = game.new_engine_game()
    actions: list[str] = []
    end = None
    while end is None:
        code = bot.decide(game, actions)
        actions.append(code)
        end = next((ev for ev in g.act(g.to_act, code) if ev["type"] in ("deal_scored", "deal_thrown_in")), None)
    returns = game.state_after(actions).returns()
    if end["type"] == "deal_thrown_in":
        assert returns == [0.0] * 4
    else:
        assert returns == [float(x) for x in end["deltas"]["players"]]


@pytest.mark.parametrize("game_id", O.GAME_IDS)
def test_a_resampled_state_keeps_the_seats_hand_and_the_public_actions_and_allows_the_next_move(
        game_id: str) -> None:
    game, actions = _random_deal(game_id, 21)
    assert len(actions) > 52  # bid and played out
    rng = random.Random(4)
    state = game.new_initial_state()
    others_changed = 0
    for step, code in enumerate(actions):
        seat = state.current_player()
        for player in (seat, (seat + 1 + step) % 4):  # the acting seat, and another in turn
            for _ in range(2):
                world = state.resample_from_infostate(player, rng)
                assert world.g.view(player) == state.g.view(player)  # its hand, the public actions
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.actions == state.actions
                assert world.current_player() == seat
                others_changed += any(world.g.hand(s) != state.g.hand(s) for s in range(4) if s != player)
        world = state.resample_from_infostate(seat, rng)
        assert O.INDEX[game_id][code] in world.legal_actions()  # the move actually played next
        state.apply_action(O.INDEX[game_id][code])
    assert others_changed > len(actions)  # the hidden hands are drawn, not copied


def test_a_resample_through_an_openspiel_sampler_is_a_state_of_the_same_information() -> None:
    import pyspiel

    game = O.load("tarneeb", seed=2)
    state = game.state_after(BIDS["tarneeb"])
    state.apply_action(state.legal_actions()[0])
    world = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(2) == state.information_state_string(2)
    assert world.g.hand(2) == state.g.hand(2)


def _population(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], level: str) -> list[str]:
    """``bench/ai.py --game population --population ismcts`` on one deal of each game, a few
    simulations a decision (strong with a sample a decision): its figure lines."""
    from ai.strong import StrongPlayer, dds
    from tests.ai.test_ai_bench_honest import _bench, _quick

    if not dds.available():
        pytest.skip("endplay (DDS) not installed")
    bench = _bench()
    real = bench.player
    monkeypatch.setattr(bench, "player", lambda lv: _quick(p) if isinstance(p := real(lv), StrongPlayer) else p)
    for name in ("MAJLIS_BENCH_POP_GAMES", "MAJLIS_BENCH_ISMCTS_ITERATIONS"):
        monkeypatch.setenv(name, "")  # (main sets them: put back afterwards)
    monkeypatch.setattr(sys, "argv", ["ai.py", "--game", "population", "--population", "ismcts", "--level", level,
                                      "--deals", "1", "--ismcts-iterations", "4"])
    bench.main()
    out = capsys.readouterr().out
    assert "their doubles are the rule player's" in out  # Trix: ISMCTS plays the cards
    return [ln for ln in out.splitlines() if "points a deal" in ln or "not scored" in ln]


@pytest.mark.slow
def test_easy_against_itself_among_ismcts_seats_differs_by_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The seeded ISMCTS seats meet the same positions in both runs and answer them the same."""
    rows = _population(monkeypatch, capsys, "easy")
    figures = [r for r in rows if "points a deal" in r]
    assert [r.split("  ")[1].strip() for r in figures] == [
        "tarneeb (team points)", "tarneeb41 (own points)",
        *(f"trix {c}" for c in ("king", "queens", "diamonds", "tricks", "trix"))]
    assert all(re.search(r" \+0\.00 ± 0\.00 points a deal \(n=4,", r) for r in figures)
    assert len(rows) == 9  # and how many runs of each Tarneeb game were not scored


@pytest.mark.slow
def test_the_strong_seat_among_ismcts_seats_gets_a_figure_per_chair(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _population(monkeypatch, capsys, "strong")
    figures = [r for r in rows if "points a deal" in r]
    assert len(figures) == 7 and all("(n=4," in r for r in figures)
    for r in rows:
        if m := re.search(r"(\d+) of (\d+) runs", r):
            assert m[2] == "8" and int(m[1]) <= 8  # 4 chairs x (strong, easy)


def _trix_deal(seed: int, contract: str) -> tuple[O.MajlisGame, list[str]]:
    """A Trix deal of ``contract``, the doubles and the cards by uniformly random legal moves."""
    game = O.load("trix", seed, -1)
    g = game.new_engine_game()
    rng = random.Random(seed)
    actions: list[str] = []
    while True:
        code = f"contract {contract}" if g.phase == "contract" else rng.choice(g.legal())
        actions.append(code)
        if any(ev["type"] == "deal_scored" for ev in g.act(g.to_act, code)):
            return game, actions


@pytest.mark.parametrize("contract", ["king", "queens", "trix"])
def test_the_trix_adapter_follows_the_engine_through_a_random_deal_and_hides_open_doubles(contract: str) -> None:
    game, actions = _trix_deal(7, contract)
    g = game.new_engine_game()
    state = game.new_initial_state()
    hidden = 0
    for code in actions:
        seat = g.to_act
        assert state.current_player() == seat
        assert [O.ACTIONS["trix"][a] for a in state.legal_actions()] == sorted(
            g.legal(), key=O.INDEX["trix"].__getitem__)
        if g.phase == "double":
            other = (seat + 1) % 4
            seen = state.information_state_string(other).split("|")[-1].split(",")
            mine = [c for c, who in zip(state.actions, state.actors, strict=True) if who == other]
            hidden += seen.count("?")
            assert all(c in seen for c in mine)  # its own doubles it knows
            with pytest.raises(NotImplementedError):
                state.resample_from_infostate(seat, random.Random(1))
        state.apply_action(O.INDEX["trix"][code])
        g.act(seat, code)
    assert state.is_terminal()
    if contract == "queens":
        assert hidden > 0  # the window was open with another seat's move in it
    assert "?" not in state.information_state_string(0)  # after the window every double is public


@pytest.mark.parametrize("contract", ["queens", "trix"])
def test_a_trix_world_resampled_during_the_card_play_keeps_the_seats_view(contract: str) -> None:
    game, actions = _trix_deal(9, contract)
    state = game.new_initial_state()
    rng = random.Random(2)
    changed = checked = 0
    for code in actions:
        if state.g.phase == "play":
            seat = state.current_player()
            world = state.resample_from_infostate(seat, rng)
            assert world.g.view(seat) == state.g.view(seat)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert O.INDEX["trix"][code] in world.legal_actions()
            changed += any(world.g.hand(s) != state.g.hand(s) for s in range(4) if s != seat)
            checked += 1
        state.apply_action(O.INDEX["trix"][code])
    assert checked > 20 and changed > checked // 2


@pytest.mark.slow
def test_an_ismcts_trix_deal_ends_with_the_engines_scores_and_the_rule_players_doubles() -> None:
    game = O.load("trix", 11, -1)
    g = game.new_engine_game()
    bot = O.ISMCTSPlayer(iterations=8, seed=3)
    actions: list[str] = []
    scored = None
    while scored is None:
        code = "contract king" if g.phase == "contract" else bot.decide(game, actions)
        assert code in g.legal()
        actions.append(code)
        scored = next((ev for ev in g.act(g.to_act, code) if ev["type"] == "deal_scored"), None)
    assert game.state_after(actions).returns() == [float(x) for x in scored["deltas"]["players"]]
    assert bot.decide(game, actions[:1]) == bot.decide(game, actions[:1])  # a seeded double
