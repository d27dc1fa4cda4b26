"""Cards as cards on Discord: the 52 cards as application-owned emojis.

``majlis discord emojis`` (bot/app/cli/discord_cli.py) draws each card (:func:`card_png`, with
Pillow) and uploads the missing ones once (``POST /applications/{id}/emojis``, named ``mj_<code>``:
``mj_QS``, ``mj_TH`` for the ten of hearts). At start-up the bot reads the application's emojis
(``GET /applications/{id}/emojis``); when all 52 are there, the table message and the hands show
``<:mj_QS:<id>>`` where the text says ``Q♠`` (and each row of a hand, ``♠ A 10 8``, becomes the
row of its cards). Without them the text stays as it is.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

from bot.present.render.cards import SUIT_ORDER

log = logging.getLogger(__name__)

RANKS = "23456789TJQKA"
CODES: tuple[str, ...] = tuple(r + s for s in SUIT_ORDER for r in RANKS)
#: How many emojis Discord lets one application own.
APP_EMOJI_LIMIT = 2000
PREFIX = "mj_"
SIZE = 128
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")
_RANK = r"(?:10|١٠|[2-9٢-٩JQKA])"
_LABEL = re.compile(rf"({_RANK})([♠♥♦♣])")
_ISO = "[\u2066-\u2069]?"
_ROW = re.compile(rf"^([♠♥♦♣]) ({_ISO})((?:{_RANK} )*{_RANK})({_ISO})$", re.M)


def emoji_name(code: str) -> str:
    """The emoji's name of a card: ``mj_QS``."""
    return PREFIX + code


def _code(rank: str, suit: str) -> str:
    glyph = rank.translate(_DIGITS)
    return ("T" if glyph == "10" else glyph) + _SUIT[suit]


class CardFaces:
    """The 52 card emojis of the application (``code -> "<:mj_QS:id>"``) and the rewrite of a text."""

    def __init__(self, ids: dict[str, int]) -> None:
        self.tags = {code: f"<:{emoji_name(code)}:{ids[code]}>" for code in CODES if code in ids}

    @classmethod
    def from_emojis(cls, emojis: list[Any]) -> CardFaces:
        """From discord.py's ``Emoji`` objects (or anything with ``name`` and ``id``)."""
        by_name = {str(e.name): int(e.id) for e in emojis}
        return cls({code: by_name[emoji_name(code)] for code in CODES if emoji_name(code) in by_name})

    @property
    def complete(self) -> bool:
        """Whether every card has its emoji (only then are they used: a hand is never half pictures)."""
        return len(self.tags) == len(CODES)

    def apply(self, text: str) -> str:
        """``text`` with its cards as emojis: ``Q♠`` → ``<:mj_QS:…>``, a hand's row ``♠ A 10`` → its cards."""
        if not self.complete:
            return text

        def row(m: re.Match[str]) -> str:
            cards = [self.tags[_code(r, m.group(1))] for r in m.group(3).split(" ")]
            return m.group(2) + " ".join(cards) + m.group(4)

        text = _ROW.sub(row, text)
        return _LABEL.sub(lambda m: self.tags[_code(m.group(1), m.group(2))], text)


def card_png(code: str, size: int = SIZE) -> bytes:
    """A card's picture (PNG, ``size`` square, transparent around a white card): its rank large at
    the top left, its suit drawn large below, red for hearts and diamonds. Needs Pillow."""
    from PIL import Image, ImageDraw, ImageFont

    scale = size / 128
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((12 * scale, 2 * scale, 116 * scale, 126 * scale), radius=12 * scale,
                        fill=(255, 255, 255, 255), outline=(120, 120, 120, 255), width=max(1, round(3 * scale)))
    color = (200, 30, 40, 255) if code[1] in "HD" else (25, 25, 25, 255)
    glyph = "10" if code[0] == "T" else code[0]
    font = ImageFont.load_default(size=int((50 if glyph == "10" else 58) * scale))
    d.text((20 * scale, 4 * scale), glyph, fill=color, font=font)
    _suit(d, code[1], 74 * scale, 88 * scale, 30 * scale, color)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _suit(d: Any, suit: str, cx: float, cy: float, r: float, color: tuple[int, ...]) -> None:
    """A suit's shape of radius ``r`` around ``(cx, cy)``."""
    def circle(x: float, y: float, rad: float) -> None:
        d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=color)

    if suit == "D":
        d.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill=color)
    elif suit == "H":
        circle(cx - r / 2, cy - r / 3, r / 2)
        circle(cx + r / 2, cy - r / 3, r / 2)
        d.polygon([(cx - r, cy - r / 4), (cx + r, cy - r / 4), (cx, cy + r)], fill=color)
    elif suit == "S":
        circle(cx - r / 2, cy + r / 5, r / 2)
        circle(cx + r / 2, cy + r / 5, r / 2)
        d.polygon([(cx - r, cy + r / 8), (cx + r, cy + r / 8), (cx, cy - r)], fill=color)
        d.polygon([(cx, cy), (cx - r / 3, cy + r), (cx + r / 3, cy + r)], fill=color)
    else:
        circle(cx, cy - 0.45 * r, 0.42 * r)
        circle(cx - 0.5 * r, cy + 0.15 * r, 0.42 * r)
        circle(cx + 0.5 * r, cy + 0.15 * r, 0.42 * r)
        d.polygon([(cx, cy), (cx - r / 3, cy + r), (cx + r / 3, cy + r)], fill=color)


async def load_faces(client: Any) -> CardFaces | None:
    """The application's card emojis, when all 52 are there (None otherwise, or if Discord cannot say)."""
    try:
        emojis = await client.fetch_application_emojis()
    except Exception as e:  # the cards stay text; nothing else depends on it
        log.info("card emojis not read (%s): cards are shown as text", type(e).__name__)
        return None
    faces = CardFaces.from_emojis(emojis)
    if not faces.complete:
        log.info("%d of the 52 card emojis found: cards are shown as text (majlis discord emojis uploads them)",
                 len(faces.tags))
        return None
    return faces


async def upload_cards(client: Any) -> tuple[int, int]:
    """Upload the card emojis the application lacks; returns ``(uploaded, already there)``.

    Raises ``ValueError`` when the missing ones would pass Discord's limit of 2000 emojis.
    """
    emojis = await client.fetch_application_emojis()
    names = {str(e.name) for e in emojis}
    missing = [c for c in CODES if emoji_name(c) not in names]
    if len(emojis) + len(missing) > APP_EMOJI_LIMIT:
        raise ValueError(f"{len(emojis)} + {len(missing)} emojis would pass Discord's limit of {APP_EMOJI_LIMIT}")
    for code in missing:
        await client.create_application_emoji(name=emoji_name(code), image=card_png(code))
    return len(missing), len(CODES) - len(missing)
