"""One deal of a Majlis game as an OpenSpiel (``pyspiel``) game, for OpenSpiel's ISMCTS.

A thin adapter on the engine's public API (docs/engine-contract.md): the state wraps an engine game
of one deal (deterministic from its seed, its dealer and optionally its cards), and the deal ends
the OpenSpiel game (the engine deals the next one at once; the adapter stops there).

- **Actions** are indexes into a fixed list of the engine's action codes per game
  (:data:`ACTIONS`): the bids (classic also ``pass`` and the four trump suits), then the 52 cards
  ``play XX`` in the engine's card order; Trix: the 52 cards, the six contracts, the 52 doubles,
  ``done`` and the layout's ``pass``.
- **Returns**, once the deal is scored: Tarneeb 41, each seat's personal points of the deal;
  classic, the seat's team's points of the deal minus the other team's (zero-sum: a side that
  counted its own points alone would not mind the other side scoring); Trix, each seat's own
  points of the deal. A thrown-in Tarneeb 41 deal and an all-pass classic deal end the game with 0
  for everyone, as the benchmark counts them.
- **The information state** of a seat is what it saw: its own dealt hand, the public exposed card
  (Tarneeb 41's dealer's 13th card, which also names the trump) and every action so far (all
  actions are public in the Tarneeb games; in Trix another seat's doubles are hidden, each shown
  as ``?``, while the doubling window is open, and public from the first card on).
- **Resampling** (``resample_from_infostate``, what ISMCTS draws its worlds with) uses the AI's own
  deal sampler (:func:`ai.strong.knowledge.sample_deal` on :func:`ai.strong.knowledge.from_view`,
  as the ``strong`` search draws its deals): the other three hands drawn uniformly among those
  consistent with the seat's view (voids shown, the exposed card, hand sizes), then the deal
  rebuilt from those hands and the same actions replayed in a new engine game.

**Trix: ISMCTS plays the cards, the rule player doubles.** Trix doubles are private while the
doubling window is open, so a world drawn then would need the other seats' hidden doubles drawn
too, consistent with their hands (the sampler knows nothing of them; rejecting the draws whose
replay fails would condition on those hidden doubles, which is cheating). So an ISMCTS seat
searches only the card play, where every double is public and every action so far is in its
information state (the sampler's knowledge holds the revealed doubles, the voids and the layout's
passes), and makes its doubles as the rule player does (:class:`ai.rules.RulePlayer`, seeded from
the position); ``resample_from_infostate`` refuses a state in the doubling window. The contract is
the benchmark's (``bench/ai.py`` imposes one on each run), or the rule player's if asked.

Only the benchmark (``bench/ai.py --population ismcts``) and tests that skip without
``open_spiel`` import this module; production never does (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

import engine
from ai.strong.knowledge import from_view, sample_deal
from engine import cards as C
from engine.trix.contracts import CONTRACT_NAMES
from engine.trix.doubling import doublable_now

GAME_IDS = ("tarneeb41", "tarneeb")
#: Every game the adapter registers (Trix: :class:`ISMCTSPlayer` searches its card play only).
ALL_IDS = (*GAME_IDS, "trix")
_CARDS = [f"play {C.code(c)}" for c in range(52)]
#: The fixed action list of each game: an OpenSpiel action is an index into it.
ACTIONS: dict[str, list[str]] = {
    "tarneeb41": [f"bid {b}" for b in range(2, 14)] + _CARDS,
    "tarneeb": [f"bid {b}" for b in range(7, 14)] + ["pass"] + [f"trump {s}" for s in "SHDC"] + _CARDS,
    "trix": _CARDS + [f"contract {n}" for n in CONTRACT_NAMES] + [f"double {C.code(c)}" for c in range(52)]
    + ["done", "pass"],
}
INDEX: dict[str, dict[str, int]] = {g: {a: i for i, a in enumerate(acts)} for g, acts in ACTIONS.items()}
#: The largest absolute return of a deal (a classic kaboot bid failing, say; loose bounds suffice).
_MAX_UTILITY = {"tarneeb41": 26.0, "tarneeb": 52.0, "trix": 1000.0}
_END = ("deal_scored", "deal_thrown_in")


def short_name(game_id: str) -> str:
    """The OpenSpiel name the adapter registers ``game_id`` under."""
    return f"majlis_{game_id}"


def _game_type(game_id: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Majlis {game_id}, one deal",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,  # the deal comes from the seed
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if game_id == "tarneeb"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        # seed: the engine game's seed; dealer: its first dealer (-1: the engine's own choice, as
        # Trix deals in the benchmark); cards: the deal, 52 codes seat by seat ("AS KS ... | ..."
        # four groups split by "|"), or empty for the deal shuffled from the seed
        parameter_specification={"seed": 0, "dealer": 0, "cards": ""},
    )


def _game_info(game_id: str) -> Any:
    top = _MAX_UTILITY[game_id]
    return pyspiel.GameInfo(
        num_distinct_actions=len(ACTIONS[game_id]),
        max_chance_outcomes=0,
        num_players=4,
        min_utility=-top,
        max_utility=top,
        utility_sum=0.0 if game_id == "tarneeb" else None,
        # Tarneeb: the bids (classic: at most 7 raises and 4 passes, a trump) and 52 cards; Trix: a
        # contract, at most 5 doubles and a done a seat, 52 cards and the layout's passes (3 a card)
        max_game_length=52 * 4 + 25 if game_id == "trix" else 52 + 12,
    )


def cards_param(cards: list[list[str]]) -> str:
    """The ``cards`` game parameter for a deal given as four lists of codes (the engine's ``deals``)."""
    return "|".join(" ".join(hand) for hand in cards)


class MajlisGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of ``game_id``: its parameters are the engine game's seed, dealer and cards."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_game_type(self.game_id), _game_info(self.game_id), params or {})
        p = self.get_parameters()
        self.seed = int(p["seed"])
        self.dealer = int(p["dealer"])
        text = str(p["cards"]).strip()
        self.cards = [hand.split() for hand in text.split("|")] if text else None

    def new_engine_game(self, cards: list[list[str]] | None = None) -> Any:
        """A new engine game of this deal (``cards``: another deal of the same seed and dealer)."""
        deal = cards or self.cards
        return engine.new_game(self.game_id, seed=self.seed, dealer=None if self.dealer < 0 else self.dealer,
                               deals=[deal] if deal else None)

    def new_initial_state(self) -> MajlisState:
        return MajlisState(self, self.new_engine_game())

    def state_after(self, actions: list[str]) -> MajlisState:
        """The state after the engine action codes ``actions`` from the start of the deal."""
        state = self.new_initial_state()
        for code in actions:
            state.apply_action(INDEX[self.game_id][code])
        return state


class Tarneeb41Game(MajlisGame):
    game_id = "tarneeb41"


class TarneebGame(MajlisGame):
    game_id = "tarneeb"


class TrixGame(MajlisGame):
    game_id = "trix"


class MajlisState(pyspiel.State):  # type: ignore[misc]
    """An engine game during one deal, with the action codes so far and each seat's dealt hand."""

    def __init__(self, game: MajlisGame, g: Any) -> None:
        super().__init__(game)
        self._game = game
        self.g = g
        self.game_id = game.game_id
        self.actions: list[str] = []
        self.actors: list[int] = []  # the seat of each action
        self.dealt = [g.hand(s) for s in range(4)]
        exposed = g.view(None).get("exposed")
        #: Tarneeb 41's dealer's 13th card, public (it names the trump); None in classic
        self.exposed: str | None = str(exposed) if exposed else None
        self.played: list[list[str]] = [[], [], [], []]
        self.deltas: list[float] | None = None
        self._legal: list[int] | None = None

    # -------------------------------------------------------------- the OpenSpiel API
    def current_player(self) -> int:
        if self.deltas is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.g.to_act)

    def _legal_actions(self, player: int) -> list[int]:
        if self.deltas is not None or player != self.g.to_act:
            return []
        if self._legal is None:
            index = INDEX[self.game_id]
            self._legal = sorted(index[a] for a in self.g.legal())
        return list(self._legal)

    def _apply_action(self, action: int) -> None:
        seat = int(self.g.to_act)
        code = ACTIONS[self.game_id][action]
        events = self.g.act(seat, code)
        self.actions.append(code)
        self.actors.append(seat)
        self._legal = None
        if code.startswith("play "):
            self.played[seat].append(code[5:])
        for ev in events:
            if ev["type"] == "deal_thrown_in":
                self.deltas = [0.0] * 4
            elif ev["type"] == "deal_scored":
                self.deltas = self._returns_of(ev)

    def _returns_of(self, ev: dict[str, Any]) -> list[float]:
        if self.game_id == "tarneeb":
            t = ev["deltas"]["teams"]
            return [float(t[s % 2] - t[1 - s % 2]) for s in range(4)]
        return [float(x) for x in ev["deltas"]["players"]]

    def _action_to_string(self, player: int, action: int) -> str:
        return ACTIONS[self.game_id][action]

    def is_terminal(self) -> bool:
        return self.deltas is not None

    def returns(self) -> list[float]:
        return list(self.deltas) if self.deltas is not None else [0.0] * 4

    def rewards(self) -> list[float]:
        return self.returns()

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        if player < 0:  # terminal: every seat's view is the same from here on
            player = 0
        return f"{player}|{' '.join(self.dealt[player])}|{self.exposed or '-'}|{','.join(self._seen_by(player))}"

    def _seen_by(self, player: int) -> list[str]:
        """The actions so far as ``player`` knows them: all of them, but for another seat's Trix
        doubles while the doubling window is open (``?``: that the seat acted, not what it did)."""
        if self.game_id != "trix" or self.g.phase != "double":
            return self.actions
        return [code if who == player or not (code.startswith("double ") or code == "done") else "?"
                for who, code in zip(self.actors, self.actions, strict=True)]

    def __str__(self) -> str:
        return f"{self.game_id} {' / '.join(' '.join(h) for h in self.dealt)}: {','.join(self.actions)}"

    def clone(self) -> MajlisState:
        return self.__deepcopy__({})

    def __deepcopy__(self, memo: dict[int, Any]) -> MajlisState:
        other = MajlisState.__new__(MajlisState)
        pyspiel.State.__init__(other, self._game)
        other._game = self._game
        other.g = self.g.clone()
        other.game_id = self.game_id
        other.actions = list(self.actions)
        other.actors = list(self.actors)
        other.dealt = self.dealt  # never changed in place
        other.exposed = self.exposed
        other.played = [list(p) for p in self.played]
        other.deltas = None if self.deltas is None else list(self.deltas)
        other._legal = self._legal
        return other

    def resample_from_infostate(self, player: int, sampler: Any) -> MajlisState:
        """A state ``player`` cannot tell from this one: the other hands drawn by the AI's deal
        sampler (:func:`ai.strong.knowledge.sample_deal`) from ``player``'s view, the actions
        replayed. ``sampler``: a ``random.Random``, or a callable giving floats in [0, 1) (OpenSpiel's
        samplers) that seeds one."""
        if self.game_id == "trix" and self.g.phase == "double":
            raise NotImplementedError("Trix: ISMCTS searches the card play only (the doubles are hidden here)")
        rng = sampler if isinstance(sampler, random.Random) else random.Random(int(float(sampler()) * 2**53))
        k = from_view(self.g.view(player))
        asked = self._asked_to_double()
        for _ in range(50 if asked is None else 5000):
            hands = sample_deal(k, rng)
            if asked is not None and not self._asks_the_same(hands, asked):
                continue
            deal = [C.codes_of(hands[s]) + self.played[s] for s in range(4)]
            if self.exposed is not None:  # the dealer's 13th card must be the exposed one
                d = self._game.dealer
                deal[d] = [c for c in deal[d] if c != self.exposed] + [self.exposed]
            state = MajlisState(self._game, self._game.new_engine_game(deal))
            try:
                for code in self.actions:
                    state._apply_action(INDEX[self.game_id][code])
            except engine.IllegalAction:
                continue  # the sampler relaxed a void (it never should): draw again
            if state.actors != self.actors:
                continue  # (Trix) another seat would have acted somewhere: not this public story
            return state
        raise RuntimeError("no consistent deal")

    def _asked_to_double(self) -> tuple[int, set[int]] | None:
        """Trix: the contract and the seats its doubling window asked (public: whose turn it was; the
        engine asks only a seat with a card it may double). None: not Trix."""
        if self.game_id != "trix":
            return None
        contract = CONTRACT_NAMES.index(self.actions[0].split()[1])  # the deal's first action names it
        return contract, {who for who, code in zip(self.actors, self.actions, strict=True)
                          if code == "done" or code.startswith("double ")}

    def _asks_the_same(self, hands: list[int], asked: tuple[int, set[int]]) -> bool:
        """Whether a drawn deal (``hands``: the cards still held) would have asked the same seats."""
        contract, seats = asked
        for s in range(4):
            dealt = hands[s] | C.mask_of(self.played[s])
            if bool(doublable_now(contract, dealt, ())) != (s in seats):
                return False
        return True


pyspiel.register_game(_game_type("tarneeb41"), Tarneeb41Game)
pyspiel.register_game(_game_type("tarneeb"), TarneebGame)
pyspiel.register_game(_game_type("trix"), TrixGame)


def load(game_id: str, seed: int, dealer: int = 0, cards: list[list[str]] | None = None) -> MajlisGame:
    """The registered OpenSpiel game of one ``game_id`` deal."""
    params: dict[str, Any] = {"seed": seed, "dealer": dealer, "cards": cards_param(cards) if cards else ""}
    game = pyspiel.load_game(short_name(game_id), params)
    assert isinstance(game, MajlisGame)
    return game


class ISMCTSPlayer:
    """A seat played by OpenSpiel's ``ISMCTSBot`` (random rollouts, UCT): ``iterations`` simulations
    a decision, each in a world drawn by :meth:`MajlisState.resample_from_infostate`; the tree is
    keyed by information state strings. Seeded: the same positions give the same moves.

    ``decide`` takes the deal's OpenSpiel game and the engine action codes so far, rebuilds the true
    state (the search only reads the acting seat's information from it: its legal actions, its
    information state, and worlds resampled from its view) and answers an engine action code."""

    #: The benchmark gives it the deal and the actions so far instead of a view (``bench/ai.py``).
    needs_actions = True

    def __init__(self, iterations: int = 100, uct_c: float = 2.0, seed: int = 0) -> None:
        self.iterations = iterations
        self.uct_c = uct_c
        self.seed = seed
        #: Decisions by (game, seed, information state): a decision depends on nothing else, so a
        #: position met again (the same deal replayed with another seat in one chair) is answered
        #: the same at once
        self._memo: dict[tuple[str, int, str], str] = {}
        self._games: dict[tuple[str, int, str], MajlisGame] = {}

    def decide_state(self, state: MajlisState, seed: int) -> str:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        legal = state.legal_actions()
        if len(legal) == 1:
            return ACTIONS[state.game_id][legal[0]]
        rs = np.random.RandomState(seed % 2**32)
        rng = random.Random(seed)
        bot = ismcts.ISMCTSBot(
            game=state.get_game(),
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
            uct_c=self.uct_c,
            max_simulations=self.iterations,
            random_state=rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rng))
        return ACTIONS[state.game_id][int(bot.step(state))]

    def decide(self, game: MajlisGame, actions: list[str]) -> str:
        """The move after ``actions`` in ``game``'s deal (the seat to act is the engine's); a Trix
        contract or double is the rule player's, seeded from the position."""
        state = game.state_after(actions)
        if game.game_id == "trix" and state.g.phase != "play":
            from ai.rules import RulePlayer

            view = state.g.view(state.g.to_act)
            rng = random.Random(f"{self.seed}:{game.seed}:{len(actions)}")
            return str(RulePlayer().decide(view, "trix", rng))
        key = (game.game_id, game.seed, state.information_state_string())
        if key not in self._memo:
            if len(self._memo) > 20_000:
                self._memo.clear()
            self._memo[key] = self.decide_state(state, hash((self.seed, game.seed, len(actions))) & (2**62 - 1))
        return self._memo[key]

    def decide_deal(self, game_id: str, cards: list[list[str]], seed: int, actions: list[str],
                    dealer: int | None = 0) -> str:
        """The move after ``actions`` in the ``game_id`` deal of ``cards`` (engine seed ``seed``,
        ``dealer``: None for the engine's own choice)."""
        d = -1 if dealer is None else dealer
        key = (game_id, seed, f"{d}:{cards_param(cards)}")
        if key not in self._games:
            if len(self._games) > 64:
                self._games.clear()
            self._games[key] = load(game_id, seed, d, cards)
        return self.decide(self._games[key], actions)
