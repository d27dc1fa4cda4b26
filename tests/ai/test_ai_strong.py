"""The strong AI: legal, deterministic from the view alone, consistent sampling, bounded thinking."""

from __future__ import annotations

import copy
import functools
import itertools
import random
import time

import pytest

import engine
from ai.strong import StrongPlayer, dds
from ai.strong import trix as strong_trix
from ai.strong import trix_sim as S
from ai.strong.knowledge import from_view, sample_deal
from ai.strong.trix import TrixBrain
from ai.strong.trix_exact import best_layout as _best_layout
from ai.strong.trix_exact import best_reply as _best_reply
from engine import cards as C

pytestmark = pytest.mark.skipif(not dds.available(), reason="endplay (DDS) not installed")


def quick_player() -> StrongPlayer:
    """A strong player with tiny budgets, so tests run fast; the logic is the same."""
    p = StrongPlayer("normal")
    p.search_share = p.trix_share = 1.0  # every decision by the search (normal leaves some to the rule player)
    p.tarneeb.card_seconds = p.tarneeb.bid_seconds = 0.0
    p.tarneeb.min_samples = 2
    p.trix.card_seconds = p.trix.choice_seconds = 0.0
    return p


def _deck(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    deck = [r + s for s in C.SUITS for r in C.RANKS]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41", "trix"])
def test_strong_player_always_legal(game: str, caplog: pytest.LogCaptureFixture) -> None:
    p = quick_player()
    for seed in range(2):
        g = engine.new_game(game, seed=seed)
        rng = random.Random(seed)
        deals = 0
        while g.to_act is not None and deals < 2:
            seat = g.to_act
            view = g.view(seat)
            before = copy.deepcopy(view)
            action = p.decide(view, game, rng)
            assert view == before, "the player must not change the view it is given"
            assert action in g.legal()
            deals += sum(1 for e in g.act(seat, action) if e["type"] in ("deal_scored", "deal_thrown_in"))
    assert "falling back" not in caplog.text, "the search itself must decide, not the rule player's fallback"


def _swap_hidden(cards: list[list[str]], viewer: int) -> list[list[str]]:
    """The same deal with two other seats' hands exchanged (unseen by ``viewer``)."""
    a, b = [s for s in range(4) if s not in (viewer, 0)][:2]  # seat 0 deals: its 13th card is public
    out = [list(h) for h in cards]
    out[a], out[b] = out[b], out[a]
    return out


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41", "trix"])
def test_strong_player_decides_from_the_seat_view_only(game: str) -> None:
    """Two deals that differ only in cards the seat cannot see give the same decision."""
    checked = 0
    for seed in range(12):
        cards = _deck(seed)
        g1 = engine.new_game(game, seed=seed, dealer=0, deals=[cards])
        seat = g1.to_act
        assert seat is not None
        g2 = engine.new_game(game, seed=seed, dealer=0, deals=[_swap_hidden(cards, seat)])
        if g2.to_act != seat or g1.view(seat) != g2.view(seat):
            continue  # the swap moved something public (the exposed card, the 7H owner)
        p1, p2 = quick_player(), quick_player()
        far = time.monotonic() + 60  # no cut by the cap on a busy machine: the same work both times
        a1 = p1.decide(g1.view(seat), game, random.Random(7), deadline=far)
        a2 = p2.decide(g2.view(seat), game, random.Random(7), deadline=far)
        assert a1 == a2
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game", ["tarneeb41", "trix"])
def test_sampled_deals_are_consistent_with_the_view(game: str) -> None:
    rng = random.Random(3)
    g = engine.new_game(game, seed=11)
    for _ in range(60):  # into the play phase
        seat = g.to_act
        assert seat is not None
        g.act(seat, g.auto())
    for _step in range(30):
        seat = g.to_act
        if seat is None:
            break
        view = g.view(seat)
        k = from_view(view)
        for _ in range(20):
            hands = sample_deal(k, rng)
            assert hands[seat] == C.mask_of(view["hand"])
            assert [h.bit_count() for h in hands] == view["hand_sizes"]
            for x, y in itertools.combinations(hands, 2):
                assert x & y == 0
            for s in range(4):
                assert hands[s] & k.known[s] == k.known[s]
                for suit in range(4):
                    if k.voids[s] >> suit & 1:
                        assert hands[s] & C.SUIT_MASK[suit] == 0
        g.act(seat, g.auto())


def test_exact_endgame_avoids_the_king() -> None:
    """Two cards each, king contract: seat 0 leads; it must not lead into taking the K♥."""
    p = C.parse
    hands = [
        (1 << p("2C")) | (1 << p("AH")),
        (1 << p("KH")) | (1 << p("3C")),
        (1 << p("4C")) | (1 << p("5D")),
        (1 << p("6C")) | (1 << p("7D")),
    ]
    # seat 0 leads 2C (6C wins), then seat 3 leads 7D and seat 1 discards KH on it; leading AH would
    # force seat 1 to play KH under it, and seat 0 would take it: best for seat 0 avoids the king.
    assert _best_reply("king", hands, [], 0, {}, S.DEFAULT_SCORING, 0) == 0
    after_ah = [hands[0] & ~(1 << p("AH")), *hands[1:]]
    assert _best_reply("king", after_ah, [(0, p("AH"))], 1, {}, S.DEFAULT_SCORING, 0) == -75


def test_rollouts_keep_the_deal_totals() -> None:
    rng = random.Random(5)
    for contract, total in (("king", -75), ("queens", -100), ("diamonds", -130), ("tricks", -195)):
        for _ in range(20):
            hands = [C.mask_of(h) for h in _deck(rng.randrange(10**6))]
            assert sum(S.rollout_tricks(contract, hands, [], rng.randrange(4), {}, rng)) == total
    for _ in range(20):
        hands = [C.mask_of(h) for h in _deck(rng.randrange(10**6))]
        assert sum(S.rollout_layout(hands, list(S.EMPTY_ROWS), 0, [], (200, 150, 100, 50), rng)) == 500


def test_rollouts_score_the_tables_penalty_options() -> None:
    """Custom penalties (rules.md §3.4), swapped diamond/Latoosh values, and X-B5's doubling rules."""
    from ai.strong.trix import _scoring

    view = {"options": {"penalties": [100, 30, 5, 20], "swap_diamond_latoosh_values": True,
                        "self_capture": "double_no_bonus"}}
    sc = _scoring(view)
    assert sc.values == (100, 30, 20, 5) and sc.self_capture == "double_no_bonus"
    rng = random.Random(6)
    for contract, total in (("king", -100), ("queens", -120), ("diamonds", -260), ("tricks", -65)):
        for _ in range(10):
            hands = [C.mask_of(h) for h in _deck(rng.randrange(10**6))]
            assert sum(S.rollout_tricks(contract, hands, [], rng.randrange(4), {}, rng, sc)) == total
    kh = C.parse("KH")
    out = [0, 0, 0, 0]
    S.score_trick("king", 2, [C.parse("2H"), C.parse("AH"), kh, C.parse("3H")], {kh: 2}, out, 0, sc)
    assert out == [0, 0, -200, 0]  # the doubler took its own K♥: twice the penalty, no bonus
    out = [0, 0, 0, 0]
    S.score_trick("king", 2, [C.parse("2H"), C.parse("AH"), kh, C.parse("3H")], {kh: 2}, out, 0,
                  S.Scoring(self_capture="leader_gains"))
    assert out == [75, 0, -150, 0]


def test_trix_contract_choice_is_legal_and_uses_rollouts() -> None:
    g = engine.new_game("trix", seed=2)
    assert g.phase == "contract"
    brain = TrixBrain(card_seconds=0.0, choice_seconds=0.0)
    assert brain.contract(g.view(g.to_act), random.Random(1)) in g.legal()


def test_trix_contract_chosen_blind_when_the_owner_sees_no_cards() -> None:
    g = engine.new_game("trix", seed=2, options={"owner_sees_cards_before_choice": False,
                                                 "first_owner_rule": "fixed_seat"})
    view = g.view(g.to_act)
    assert view["phase"] == "contract" and view["hand"] == []
    assert TrixBrain(choice_seconds=0.0).contract(view, random.Random(1)) == view["legal"][0]


# ---------------------------------------------------------------------- reading the others' play (Trix)


def _rule_deal(contract: str, seed: int, stop_after: int) -> engine.Game:
    """A Trix deal of ``contract`` played by rule players for ``stop_after`` moves (or to its end)."""
    from ai.rules import RulePlayer

    rule, rng = RulePlayer(), random.Random(seed)
    g = engine.new_game("trix", seed=seed)
    g.act(g.to_act, f"contract {contract}")
    moves = 0
    while g.to_act is not None and g.contract is not None and moves < stop_after:
        seat = g.to_act
        if g.view(seat)["phase"] == "play":
            moves += 1
        g.act(seat, rule.decide(g.view(seat), "trix", rng))
        if g.view(None)["phase"] != "play" and g.view(None)["phase"] != "double":
            break
    return g


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "tricks", "trix"])
def test_rollout_policy_is_the_rule_players_play(contract: str) -> None:
    """The inference is only as good as its model: with no noise it is exactly the rule player."""
    from ai.rules import RulePlayer

    rule, rng = RulePlayer(), random.Random(0)
    checked = 0
    for seed in range(12):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, f"contract {contract}")
        while g.to_act is not None and g.view(None)["contract"] == contract:
            seat = g.to_act
            view = g.view(seat)
            action = rule.decide(view, "trix", rng)
            if view["phase"] == "play" and len(view["legal"]) > 1:
                hand = C.mask_of(view["hand"])
                if contract == "trix":
                    rows = list(S.EMPTY_ROWS)
                    for suit, ends in view["layout"].items():
                        if ends:
                            rows[C.parse_suit(suit)] = (C.RANKS.index(ends[0]) + 2, C.RANKS.index(ends[1]) + 2)
                    mine = S.choose_layout_card(hand, S.layout_legal(hand, rows), rows, rng, eps=0.0)
                else:
                    trick = [(int(e["seat"]), C.parse(e["card"])) for e in view["trick"]]
                    mine = S.choose_trick_card(contract, hand, trick, rng, eps=0.0)
                assert action == "play " + C.code(mine), view
                checked += 1
            g.act(seat, action)
    assert checked > 100


def test_predicted_doubles_are_the_rule_players_doubles() -> None:
    from ai.rules import RulePlayer
    from ai.strong import trix_infer as I

    rule, rng = RulePlayer(), random.Random(0)
    seen = 0
    for seed in range(300):
        g = engine.new_game("trix", seed=seed)
        contract = "king" if seed % 2 else "queens"
        g.act(g.to_act, f"contract {contract}")
        start = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        while g.view(None)["phase"] == "double":
            seat = g.to_act
            g.act(seat, rule.decide(g.view(seat), "trix", rng))
        made = [0, 0, 0, 0]
        for d in g.view(None)["doubled"]:
            made[d["seat"]] |= 1 << C.parse(d["card"])
            seen += 1
        assert made == [I.predicted_doubles(contract, h) for h in start]
    assert seen > 10


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "tricks", "trix"])
def test_the_true_deal_explains_rule_play_and_most_samples_do_not(contract: str) -> None:
    from ai.strong import trix_infer as I

    rng = random.Random(1)
    lower = 0
    for seed in range(4):
        g = _rule_deal(contract, seed, 20)
        if g.to_act is None or g.view(None)["contract"] != contract:
            continue
        view = g.view(g.to_act)
        story = I.story_of(view)
        story.owner = None  # the contract was imposed here, not the owner's choice
        true = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        others = [s for s in range(4) if s != story.me]
        assert all(I.misses(story, s, true[s]) == 0 for s in others)
        assert I.weight(story, true, I.MISS) == 1.0  # the flat model: no move missed
        k = from_view(view)
        deals = [sample_deal(k, rng) for _ in range(50)]
        assert all(I.weight(story, h) > 0.0 for h in deals)
        lower += sum(any(I.misses(story, s, h[s]) for s in others) for h in deals)
    assert lower > 50  # uniform deals mostly disagree with what the others did


def test_a_layout_pass_rules_out_the_cards_open_at_that_moment() -> None:
    rng = random.Random(3)
    found = 0
    for seed in range(30):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, "contract trix")
        play = 0
        while g.to_act is not None and g.view(None)["contract"] == "trix" and play < 25:
            g.act(g.to_act, rng.choice(g.legal()))
            play += 1
        if g.to_act is None or g.view(None)["contract"] != "trix":
            continue
        view = g.view(g.to_act)
        k = from_view(view)
        passes = [m for m in view["layout_history"] if m.get("pass") and m["seat"] != view["seat"]]
        if not passes:
            continue
        found += 1
        for _ in range(20):
            hands = sample_deal(k, rng)
            for s in range(4):
                assert not hands[s] & k.excluded[s]
        true = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        for m in passes:
            assert k.excluded[m["seat"]], "a pass always rules out at least one open card"
            assert not true[m["seat"]] & k.excluded[m["seat"]], "the exclusion is a fact, never wrong"
    assert found >= 5


def test_X_K2_the_first_owner_holds_the_seven_of_hearts_in_the_first_deal_only() -> None:
    """Every seat knows who was dealt the 7♥ in the match's first deal: the first owner (X-K2).
    Sampled deals give it to the owner until it is played; from the second deal on nothing is known."""
    rng = random.Random(5)
    seven = C.card(7, C.HEARTS)
    checked = 0
    for seed in range(12):
        g = engine.new_game("trix", seed=seed, deals=[_deck(seed), _deck(seed + 100)])
        owner = g.view(None)["owner"]
        g.act(owner, "contract tricks")
        while g.view(None)["deal_index"] == 0:
            seat = g.to_act
            view = g.view(seat)
            if view["phase"] == "play" and seat != owner:
                k = from_view(view)
                played = any(e["card"] == "7H" for t in [*view["history"], {"cards": view["trick"]}]
                             for e in t["cards"])
                assert bool(k.known[owner] >> seven & 1) == (not played)
                if not played:
                    assert all(sample_deal(k, rng)[owner] >> seven & 1 for _ in range(5))
                    checked += 1
            g.act(seat, g.legal()[0])
        view = g.view(g.to_act)
        assert not any(x >> seven & 1 for x in from_view(view).known), "second deal: nothing known of the 7♥"
        fixed = engine.new_game("trix", seed=seed, options={"first_owner_rule": "fixed_seat"})
        fixed.act(fixed.to_act, "contract tricks")
        v = fixed.view((fixed.to_act + 1) % 4)
        assert not any(x >> seven & 1 for x in from_view(v).known), "a fixed first owner says nothing"
    assert checked > 50


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "tricks"])
def test_exact_endgame_search_is_at_least_the_policys_own_play(contract: str) -> None:
    """With four cards or fewer a hand, my moves are searched exactly against the others' policy:
    never worse than playing the policy myself, and better somewhere."""
    from ai.rules import RulePlayer

    rng = random.Random(2)
    better = checked = 0
    for seed in range(40):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, f"contract {contract}")
        while g.to_act is not None and g.view(None)["contract"] == contract and (
                g.view(None)["phase"] != "play" or max(g.view(None)["hand_sizes"]) > 4 or g.view(None)["trick"]):
            g.act(g.to_act, RulePlayer().decide(g.view(g.to_act), "trix", rng))
        if g.to_act is None or g.view(None)["contract"] != contract:
            continue
        me = g.to_act
        hands = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        policy = S.rollout_tricks(contract, hands, [], me, {}, rng, eps=0.0)[me]
        best = _best_reply(contract, hands, [], me, {}, S.DEFAULT_SCORING, me)
        assert best >= policy
        better += best > policy
        checked += 1
    assert checked >= 5
    if contract != "king":  # (in K♥ the king is nearly always gone before four cards a hand)
        assert better >= 1


def test_exact_layout_search_is_at_least_the_policys_own_play() -> None:
    """With six cards or fewer in my hand, my layout moves are searched exactly against the others'
    policy: never worse than playing the policy myself, and better somewhere."""
    from ai.rules import RulePlayer

    rng = random.Random(4)
    better = checked = 0
    scores = (200, 150, 100, 50)
    for seed in range(30):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, "contract trix")
        while g.to_act is not None and g.view(None)["contract"] == "trix" and g.view(None)["phase"] == "play" and (
                g.view(g.to_act)["hand_sizes"][g.to_act] > 6 or len(g.legal()) < 2):
            g.act(g.to_act, RulePlayer().decide(g.view(g.to_act), "trix", rng))
        if g.to_act is None or g.view(None)["contract"] != "trix" or g.view(None)["phase"] != "play":
            continue
        me = g.to_act
        view = g.view(me)
        hands = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        rows = strong_trix._rows(view)
        finished = [int(s) for s in view["finished"]]
        policy = S.rollout_layout(hands, rows, me, finished, scores, rng, eps=0.0)[me]
        best = _best_layout(hands, rows, me, finished, scores, me)
        assert best >= policy
        better += best > policy
        checked += 1
    assert checked >= 10
    assert better >= 1


def test_the_fast_trick_policy_is_the_card_by_card_one() -> None:
    """The rollouts' trick policy works on bits when following suit; it is the same policy as the
    one written card by card (the rule player's, which test_rollout_policy_is_the_rule_players_play
    checks in real deals), on random hands and tricks, noise draws included."""
    def slow(contract: str, hand: int, trick: list[tuple[int, int]], rng: random.Random, eps: float) -> int:
        led = C.suit_of(trick[0][1]) if trick else None
        options = C.cards_of(C.legal_mask(hand, led))
        if len(options) == 1:
            return options[0]
        if eps and rng.random() < eps:
            return rng.choice(options)
        if led is None:
            return S._lead(contract, hand, options)
        value = functools.partial(S.card_value, contract)
        if not C.legal_mask(hand, led) & C.SUIT_MASK[led]:
            return max(options, key=lambda c: (value(c), c % 13, -S._suit_len(hand, c)))
        top = max(c for _, c in trick if C.suit_of(c) == led)
        under = [c for c in options if c < top]
        if under:
            return max(under, key=lambda c: (c % 13, value(c)))
        if len(trick) == 3:
            return max(options, key=lambda c: (-value(c), c % 13))
        return min(options, key=lambda c: (value(c), c % 13))

    rng = random.Random(8)
    for i in range(3000):
        deck = rng.sample(range(52), 17)
        hand = sum(1 << c for c in deck[:rng.randint(1, 13)])
        trick = [((j + 1) % 4, deck[13 + j]) for j in range(rng.randint(0, 3))]
        contract = rng.choice(["king", "queens", "diamonds", "tricks"])
        eps = 0.3 if i % 2 else 0.0
        assert (S.choose_trick_card(contract, hand, trick, random.Random(i), eps)
                == slow(contract, hand, trick, random.Random(i), eps))


def test_the_owners_contract_choice_is_read_as_evidence_of_its_hand() -> None:
    """Another seat that chose this deal's contract (the kingdom's owner, after seeing its cards)
    chose like the rule player: with its true cards the model agrees; deals where it would have
    chosen otherwise weigh less."""
    from ai.rules import RulePlayer
    from ai.strong import trix_infer as I

    rule, rng = RulePlayer(), random.Random(6)
    agreed = lighter = 0
    for seed in range(10):
        g = engine.new_game("trix", seed=seed)
        start: list[int] = []
        for _ in range(3):  # three deals of the kingdom, so the choice is among 5, 4 and 3 contracts
            start = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
            g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
            while g.view(None)["phase"] == "double":
                g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
            owner = g.view(None)["owner"]
            me = (owner + 1) % 4
            view = g.view(me)
            story = I.story_of(view)
            assert story.owner == owner and story.contract in story.options
            assert I.predicted_contract(story, start[owner]) == story.contract
            agreed += 1
            k = from_view(view)
            lighter += sum(I.misses(story, owner, sample_deal(k, rng)[owner]) > 0 for _ in range(20))
            assert story.informative()
            while g.to_act is not None and g.view(None)["phase"] == "play":
                g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
    assert agreed == 30
    assert lighter > 100  # most random hands would have chosen another contract
    # the owner itself learns nothing from its own choice
    assert I.story_of(g.view(g.view(None)["owner"])).owner is None


@pytest.mark.parametrize("options", [{"mode": "complex"}, {"partnership": True}])
def test_trix_modes_the_search_does_not_model_are_played_by_the_rule_player(
        options: dict[str, object], caplog: pytest.LogCaptureFixture) -> None:
    """The merged contract and team play: legal decisions, quietly the rule player's."""
    p = quick_player()
    g = engine.new_game("trix", seed=4, options=options)
    rng = random.Random(4)
    for _ in range(60):
        if g.to_act is None:
            break
        seat = g.to_act
        action = p.decide(g.view(seat), "trix", rng)
        assert action in g.legal()
        g.act(seat, action)
    assert "falling back" not in caplog.text


def test_level_normal_leaves_a_share_of_its_decisions_to_the_rule_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Normal searches about 40% of its real Trix decisions (half in the Tarneeb games), strong all
    of them; the rest are the rule player's (what sets the levels apart: a few samples already
    play nearly as well as many)."""
    searched: list[int] = []
    real = strong_trix.TrixBrain.play

    def counting(self: object, *args: object, **kw: object) -> str:
        searched.append(1)
        return real(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(strong_trix.TrixBrain, "play", counting)
    g = engine.new_game("trix", seed=3)
    while g.phase != "play" or len(g.legal()) < 2:
        g.act(g.to_act, g.auto())  # type: ignore[arg-type]
    view = g.view(g.to_act)  # type: ignore[arg-type]
    for level, lo, hi in (("normal", 8, 24), ("strong", 40, 40)):
        searched.clear()
        p = StrongPlayer(level)
        p.trix.card_seconds = 0.0
        rng = random.Random(5)
        for _ in range(40):
            assert p.decide(view, "trix", rng) in view["legal"]
        assert lo <= len(searched) <= hi, (level, len(searched))
