"""The learned layout policy of the strong Trix player's own rollout moves (trix_layout_policy)."""

from __future__ import annotations

import random

from ai.strong import trix_layout_policy as P
from ai.strong import trix_sim as S
from ai.strong.trix import TrixBrain
from engine import cards as C


def _m(*codes: str) -> int:
    return C.mask_of(codes)


def _f(c: str, hand: int, rows: S.Rows) -> dict[str, float]:
    legal = S.layout_legal(hand, rows)
    return dict(zip(P.NAMES, P.features(C.parse(c), hand, legal, rows), strict=True))


def _deal(seed: int) -> list[int]:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[i::4]) for i in range(4)]


def test_features_of_a_jack_and_of_row_ends() -> None:
    rows = list(S.EMPTY_ROWS)
    hand = _m("JH", "TH", "9H", "7H", "KH", "AC", "2D", "JS")
    f = _f("JH", hand, rows)
    assert f["jack"] == 1 and f["far"] == 0
    # down: 10 9 (mine), 8 (out), 7 (mine), 6..2 (out); up: Q (out), K (mine), A (out)
    assert f["own_beyond"] == 4 and f["other_beyond"] == 8
    assert f["next_mine"] == 1 and f["gives"] == 1  # 10 is mine, Q is not
    assert f["run"] == 2 and f["behind"] == 2  # 10 9 run; 7 and K wait behind others' cards
    assert f["end"] == 0 and f["pure_block"] == 0
    assert f["suit_mine"] == 4 and f["suit_out"] == 8
    # with the rows of clubs at 3..K and diamonds at 3..J, AC and 2D open nothing
    rows = [(3, 13), (3, 11), (0, 0), (0, 0)]
    hand = _m("AC", "2D", "JS", "5S")
    for c in ("AC", "2D"):
        f = _f(c, hand, rows)
        assert f["end"] == 1 and f["own_beyond"] == 0 and f["other_beyond"] == 0 and f["gives"] == 0
    f = _f("JS", hand, rows)
    assert f["own_beyond"] == 1 and f["other_beyond"] == 11 and f["gives"] == 2 and f["run"] == 0
    assert f["spare1"] == 0  # AC and 2D stay legal
    assert f["suit_out"] == 11  # the others hold 11 spades (and the 2C and QD..AD besides)
    out = C.FULL_DECK & ~hand & ~P._on_table(rows)
    assert out.bit_count() == 52 - 4 - 11 - 9


def test_pure_block_and_rule_choice() -> None:
    rows = [(0, 0), (0, 0), (9, 12), (0, 0)]  # hearts 9..Q on the table
    hand = _m("8H", "KH", "AH", "3C")
    f = _f("8H", hand, rows)  # nothing of mine below the 8: it only lets the others' 7..2 come
    assert f["pure_block"] == 1 and f["other_beyond"] == 6 and f["own_beyond"] == 0
    g = _f("KH", hand, rows)
    assert g["next_mine"] == 1 and g["run"] == 1 and g["own_beyond"] == 1
    assert g["rule"] == 1 and f["rule"] == 0  # the rule player opens its own AH
    assert g["spare1"] == 0 and f["spare1"] == 1


def test_rule_feature_is_the_rule_players_choice() -> None:
    quiet = random.Random(0)
    seen = 0
    for seed in range(30):
        hands = _deal(seed)
        rows = list(S.EMPTY_ROWS)
        seat = seed % 4
        for _ in range(200):
            legal = S.layout_legal(hands[seat], rows) if hands[seat] else 0
            if legal:
                rule = S.choose_layout_card(hands[seat], legal, rows, quiet, eps=0.0)
                if legal & (legal - 1):
                    marked = [c for c, f in P.candidates(hands[seat], legal, rows) if f[P.NAMES.index("rule")]]
                    assert marked == [rule]
                    seen += 1
                hands[seat] &= ~(1 << rule)
                S.place(rows, rule)
            if sum(1 for h in hands if not h) >= 3:
                break
            seat = (seat + 1) % 4
    assert seen > 300


def test_gap_and_buckets() -> None:
    rows = [(0, 0), (0, 0), (9, 12), (0, 0)]
    assert _f("8H", _m("8H", "6H", "3C"), rows)["gap1_mine"] == 1  # 7H out, 6H mine
    assert _f("8H", _m("8H", "7H", "3C"), rows)["gap1_mine"] == 0
    assert _f("KH", _m("KH", "3C"), rows)["gap1_mine"] == 0  # AH out, nothing after it
    assert [P.bucket(n) for n in (13, 10, 9, 7, 6, 1)] == [0, 0, 1, 1, 2, 2]


def test_shipped_weights_load_and_choose_legal_cards() -> None:
    w = P.weights()
    assert len(w) == len(P.BUCKETS) + 1 and all(len(v) == P.NF for v in w)
    rng = random.Random(3)
    for seed in range(20):
        hands = _deal(seed)
        rows = list(S.EMPTY_ROWS)
        seat = rng.randrange(4)
        for _ in range(200):
            legal = S.layout_legal(hands[seat], rows) if hands[seat] else 0
            if legal:
                c = P.choose(hands[seat], legal, rows)
                assert legal >> c & 1
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
            if sum(1 for h in hands if not h) >= 3:
                break
            seat = (seat + 1) % 4


def _old_rollout_layout(hands: list[int], rows: S.Rows, seat: int, finished: list[int],
                        scores: tuple[int, ...], rng: random.Random, eps: float) -> list[int]:
    """rollout_layout as it was before the ``own`` policy (the reference for the default)."""
    hands, rows, finished = list(hands), list(rows), list(finished)
    out = [0, 0, 0, 0]
    guard = 0
    while len(finished) < 3 and guard < 400:
        guard += 1
        if hands[seat]:
            legal = S.layout_legal(hands[seat], rows)
            if legal:
                c = S.choose_layout_card(hands[seat], legal, rows, rng, eps)
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
                if not hands[seat]:
                    out[seat] += scores[len(finished)]
                    finished.append(seat)
        seat = (seat + 1) % 4
    if len(finished) == 3:
        last = next(s for s in range(4) if s not in finished)
        out[last] += scores[3]
    return out


def test_default_rollouts_are_unchanged() -> None:
    for seed in range(60):
        hands = _deal(seed)
        for eps in (0.0, 0.03, 0.3):
            a = S.rollout_layout(hands, list(S.EMPTY_ROWS), seed % 4, [], S.DEFAULT_SCORES, random.Random(seed), eps)
            b = _old_rollout_layout(hands, list(S.EMPTY_ROWS), seed % 4, [], S.DEFAULT_SCORES,
                                    random.Random(seed), eps)
            assert a == b
    assert TrixBrain().own_layout_policy is False


def test_own_policy_plays_only_my_seat_and_is_reproducible() -> None:
    calls: list[int] = []

    def own(hand: int, legal: int, rows: S.Rows) -> int:
        calls.append(hand)
        return P.choose(hand, legal, rows)

    changed = 0
    for seed in range(40):
        hands = _deal(seed)
        calls.clear()
        a = S.rollout_layout(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, random.Random(seed), 0.03,
                             own=2, policy=own)
        assert calls and all(h & ~hands[2] == 0 for h in calls)  # only seat 2's hands were asked
        b = S.rollout_layout(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, random.Random(seed), 0.03,
                             own=2, policy=P.choose)
        assert a == b and sum(a) == sum(S.DEFAULT_SCORES)
        base = S.rollout_layout(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, random.Random(seed), 0.03)
        changed += a != base
    assert changed  # the policy is not the rule player's


def test_brain_with_own_policy_plays_a_legal_layout_card() -> None:
    import engine

    g = engine.new_game("trix", seed=7)
    g.act(g.to_act, "contract trix")
    brain = TrixBrain(card_seconds=0.02, own_layout_policy=True, exact_layout=0)
    rng = random.Random(1)
    for _ in range(8):
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        a = brain.play(view, rng)
        assert a in view["legal"]
        g.act(seat, a)


def test_rollout_then_exact() -> None:
    from ai.strong import trix_exact as E

    for seed in range(30):
        hands = _deal(seed)
        me = seed % 4
        for own in (None, P.choose):
            out = S.rollout_layout(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, random.Random(seed), 0.03,
                                   own=me, policy=own)
            v = E.rollout_then_exact(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, me, random.Random(seed),
                                     0.03, own, 0, 1000)
            assert v == out[me]  # without the search: the play-out's points
            # searching my last cards never does worse than the policy on the same deal without noise
            a = E.rollout_then_exact(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, me, random.Random(0),
                                     0.0, own, 0, 1000)
            b = E.rollout_then_exact(hands, list(S.EMPTY_ROWS), 0, [], S.DEFAULT_SCORES, me, random.Random(0),
                                     0.0, own, 4, 100000)
            assert b >= a
