"""The button codec: round trips, the 64-byte limit over every action code, malformed input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.commands import Act, Begin, Claim, Join, Leave, Rematch, ShowHand, Stop
from bot.core.errors import Refusal, TableError
from bot.present.codec import MAX_BYTES, VERBS, CodecError, Payload, UnknownVerb, decode, encode, is_ours, to_command
from engine.cards import CODES


def every_action_code() -> list[str]:
    codes = [f"play {c}" for c in CODES] + [f"double {c}" for c in CODES]
    codes += [f"bid {n}" for n in range(1, 14)] + ["pass", "done"]
    codes += [f"trump {s}" for s in "SHDC"]
    codes += [f"contract {c}" for c in ("king", "queens", "diamonds", "tricks", "trix")]
    return codes


BIG_TABLE = 10**12 - 1
BIG_VERSION = 10**9 - 1


@pytest.mark.parametrize("code", every_action_code())
def test_every_action_code_fits_and_round_trips(code: str) -> None:
    s = encode("a", BIG_TABLE, BIG_VERSION, code)
    assert len(s.encode()) <= MAX_BYTES
    assert len(s) <= 100
    assert decode(s) == Payload("a", BIG_TABLE, BIG_VERSION, code)


def test_examples_from_architecture() -> None:
    assert encode("a", 12, 40, "play QS") == "mj1:a:12:40:play_QS"
    assert decode("mj1:j:12:-:2") == Payload("j", 12, None, "2")
    assert decode("mj1:h:3:-:") == Payload("h", 3, None, "")
    assert encode("b", 3, None) == "mj1:b:3:-:"
    assert is_ours("mj1:h:3:-:") and not is_ours("other")


@pytest.mark.parametrize("verb", sorted("ajbhlcx"))
def test_every_verb_round_trips(verb: str) -> None:
    assert decode(encode(verb, 5, 0, "1")) == Payload(verb, 5, 0, "1")


@pytest.mark.parametrize(
    "bad",
    [
        "", "mj1", "mj2:a:1:2:play_QS", "mj1:z:1:2:x", "mj1:a:x:2:x", "mj1:a:1:y:x", "mj1:a:-1:2:x",
        "mj1:a:01:2:x", "mj1:a:1:02:x", "mj1:a:1:2:play QS", "mj1:a:1:2:play_QS:extra", "mj1:a:1:2",
        "mj1:a:1:2:_play", "mj1:a:1:2:play__QS", "mj1:a:1:2:play_QS_", "mj1:a:1:2:pl@y",
        "mj1:a:1:2:" + "x" * 60, "mj1:aa:1:2:x", "mj1:a:1:2:ب", "mj1:a::2:x", "mj1:a:1::x",
    ],
)
def test_malformed_input_raises(bad: str) -> None:
    with pytest.raises(CodecError):
        decode(bad)


@pytest.mark.parametrize(
    ("verb", "tid", "ver", "arg"),
    [("q", 1, 1, ""), ("a", -1, 1, ""), ("a", 1, -1, ""), ("a", 1, 1, "has_underscore"),
     ("a", 1, 1, "two  spaces"), ("a", 1, 1, " lead"), ("a", 1, 1, "x" * 60), ("a", 1, 1, "é")],
)
def test_encode_refuses_what_it_cannot_carry(verb: str, tid: int, ver: int, arg: str) -> None:
    with pytest.raises(CodecError):
        encode(verb, tid, ver, arg)


@given(st.text(max_size=80))
def test_decode_never_raises_anything_but_codec_error(s: str) -> None:
    try:
        p = decode(s)
    except CodecError:
        return
    assert encode(p.verb, p.table_id, p.version, p.arg) == s


@pytest.mark.parametrize(("payload", "command"), [
    ("mj1:a:12:40:play_QS", Act(12, 40, "play QS")),
    ("mj1:a:12:-:pass", Act(12, None, "pass")),
    ("mj1:j:12:-:", Join(12, None)),
    ("mj1:j:12:-:2", Join(12, 2)),
    ("mj1:c:12:-:3", Claim(3, 12)),
    ("mj1:b:12:-:", Begin(12)),
    ("mj1:l:12:-:", Leave(12)),
    ("mj1:x:12:-:", Stop(12)),
    ("mj1:h:12:-:", ShowHand(12)),
    ("mj1:r:12:-:", Rematch(12)),
    ("mj1:r:12:-:swap", Rematch(12, swap=True)),
])
def test_a_payload_becomes_its_command(payload: str, command: object) -> None:
    assert to_command(payload) == command


def test_every_verb_has_a_command() -> None:
    for verb in VERBS:
        arg = {"r": "swap", "o": "ready"}.get(verb, "1")
        to_command(encode(verb, 5, 0, arg))  # never refused for its verb


@pytest.mark.parametrize("payload", ["mj1:z:12:-:", "mj1:q:12:3:x", "mj1:zz:12:-:", "mj1::12:-:", "mj1:1:12:-:"])
def test_an_unknown_verb_is_refused_as_out_of_date(payload: str) -> None:
    with pytest.raises(UnknownVerb):
        decode(payload)
    with pytest.raises(TableError) as e:
        to_command(payload)
    assert e.value.code is Refusal.STALE


@pytest.mark.parametrize("payload", ["mj1:c:12:-:", "mj1:c:12:-:x", "mj1:r:12:-:2",
                                     "mj1:j:12:-:abc", "mj1:a:x:2:x", "mj1:a:1:2:pl@y"])
def test_a_malformed_payload_is_refused(payload: str) -> None:
    with pytest.raises(TableError) as e:
        to_command(payload)
    assert e.value.code is Refusal.BAD_ACTION
