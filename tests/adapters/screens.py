"""Pictures of a Telegram and a Discord table for the README, made from the bot's real messages.

Part of a real match is played through the real python-telegram-bot against the fake Bot API
(``tests/adapters/telegram/fake_server.py``) and through the real discord.py against the fake
Discord (``tests/adapters/discord/fake_discord.py``): a group (a channel) with two people and two
AI seats, until cards lie on the table and a person is to play. What the fake then holds, the
group's table message and that person's private hand message (text and buttons), is drawn as a
self-contained HTML page styled like a chat client (a light Telegram-like and a dark
Discord-like theme, no external resources) and photographed with chromium.

The bot's text is shown untouched: HTML-escaped, every character kept (the bidi isolates and
marks too), each text block with ``dir="auto"`` so that Arabic reads right to left. A caption
under each picture says that it was rendered from the bot's messages to a local fake, so nobody
mistakes it for a screenshot of the Telegram or Discord app.

``MAJLIS_SCREENS=docs/images`` makes ``tests/adapters/test_screens.py`` (and the web browser test)
write the README's images there; see ``docs/images/README.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import random
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# PTB reads a 429's retry_after as a timedelta only when asked (tests turn its warning into an
# error); tests/adapters/telegram/conftest.py sets this too, but this module runs outside that folder.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from bot.core.settings import ManagerSettings
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, choose, join_url_payload
from tests.adapters.web.conftest import chromium

#: The folder the README's images go to when set (``docs/images``).
SCREENS_ENV = "MAJLIS_SCREENS"
CAPTION_TG = "rendered from the bot's messages to a local fake of the Telegram Bot API"
CAPTION_DC = "rendered from the bot's messages to a local fake of Discord"
#: The web browser test's screenshots that the README shows, under the README's names.
WEB_IMAGES = {
    "table-desktop-en": "web-table-en",
    "table-desktop-ar": "web-table-ar",
    "table-phone-ar": "web-table-phone-ar",
    "table-phone-en": "web-table-phone-en",
    "result-phone-ar": "web-result-phone-ar",
    "result-desktop-en": "web-result-en",
    "hint-phone-ar": "web-hint-phone-ar",
    "review-phone-en": "web-review-phone-en",
    "trix-phone-ar": "web-trix-phone-ar",
    "trix-desktop-en": "web-trix-en",
    "match-desktop-en": "web-match-en",
    "profile-desktop-en": "web-profile-en",
    "profile-desktop-ar": "web-profile-ar",
    "profile-phone-ar": "web-profile-phone-ar",
    "profile-phone-en": "web-profile-phone-en",
    "tournament-phone-ar": "web-tournament-phone-ar",
    "tournament-desktop-en": "web-tournament-en",
}
PEOPLE = {"en": ("Sara", "Omar"), "ar": ("سارة", "عمر")}
#: The Telegram group's title and the Discord server's name.
GROUP_TITLE = {"en": "Friday cards", "ar": "سهرة الجمعة"}
CHANNEL = "card-table"
GAME = "tarneeb41"
MAX_MOVES = 80


def screens_dir() -> Path | None:
    """Where the README's images go (``MAJLIS_SCREENS``), or None."""
    value = os.environ.get(SCREENS_ENV)
    return Path(value) if value else None


def publish_web(name: str, png: Path) -> None:
    """Copy a web browser test screenshot to ``MAJLIS_SCREENS`` under its README name, if it is one."""
    out = screens_dir()
    if out is not None and name in WEB_IMAGES:
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, out / f"{WEB_IMAGES[name]}.png")


# ---------------------------------------------------------------- what a message looks like


@dataclass(frozen=True)
class Control:
    """A button (or a closed select) under a message."""

    label: str
    style: str = "plain"  # Discord: primary, secondary, success, danger, link; Telegram: plain
    disabled: bool = False
    select: bool = False


@dataclass(frozen=True)
class Shown:
    """One bot message as a person sees it, and the chat it is in."""

    text: str
    rows: tuple[tuple[Control, ...], ...]
    chat: str  # the chat's title (a group, the bot's private chat, a channel)
    chat_note: str  # under or beside the title: "group", "bot", the server's name
    author: str  # the bot's display name
    lang: str


def telegram_rows(markup: dict[str, Any] | None) -> tuple[tuple[Control, ...], ...]:
    """An inline keyboard as Telegram draws it: every button alike (Telegram has no disabled ones)."""
    rows = (markup or {}).get("inline_keyboard", [])
    return tuple(tuple(Control(str(b.get("text", ""))) for b in row) for row in rows)


_DISCORD_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}


def discord_rows(components: list[dict[str, Any]]) -> tuple[tuple[Control, ...], ...]:
    """Action rows as Discord draws them: buttons by style, a select closed on its placeholder."""
    out: list[tuple[Control, ...]] = []
    for row in components:
        items: list[Control] = []
        for c in row.get("components", []):
            if c.get("type") == 2:
                items.append(Control(str(c.get("label") or ""), _DISCORD_STYLES.get(c.get("style", 2), "secondary"),
                                     bool(c.get("disabled"))))
            elif c.get("type") == 3:
                items.append(Control(str(c.get("placeholder") or "Make a selection"), "select",
                                     bool(c.get("disabled")), select=True))
        out.append(tuple(items))
    return tuple(out)


def _text(s: str) -> str:
    """HTML text content: ``&``, ``<`` and ``>`` escaped, every other character kept as it is."""
    return html.escape(s, quote=False)


_FONTS = ('system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", "DejaVu Sans", '
          '"Liberation Sans", sans-serif')

_CSS = {
    "telegram": """
body { margin: 0; background: #e6ebee; font: 15px/1.38 %(fonts)s; color: #000; }
#frame { width: 520px; margin: 0; background: #fff; }
header { display: flex; align-items: center; gap: 12px; padding: 8px 14px; background: #fff;
  border-bottom: 1px solid #dfe1e5; }
.avatar { width: 40px; height: 40px; border-radius: 50%%; background: linear-gradient(#72d5fd, #2a9ef1);
  color: #fff; font-weight: 600; display: flex; align-items: center; justify-content: center; font-size: 17px; }
.title { font-weight: 600; font-size: 16px; }
.note { color: #707579; font-size: 13.5px; }
.wall { background: #b5c9a1; padding: 16px 12px 14px; }
.msg { max-width: 440px; width: fit-content; }
.bubble { background: #fff; border-radius: 14px 14px 14px 5px; padding: 6px 11px 8px;
  box-shadow: 0 1px 1.5px rgba(0,0,0,.17); }
.author { color: #3390ec; font-weight: 600; font-size: 14px; margin-bottom: 2px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.rows { margin-top: 3px; }
.row { display: flex; gap: 4px; margin-top: 4px; }
.btn { flex: 1 1 0; min-width: 0; background: rgba(48, 73, 38, .38); color: #fff; border-radius: 9px;
  padding: 8px 6px; text-align: center; font-weight: 500; font-size: 14px; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
footer { background: #fff; color: #707579; font-size: 12px; padding: 7px 14px; border-top: 1px solid #dfe1e5; }
""",
    "discord": """
body { margin: 0; background: #1e1f22; font: 15px/1.375 %(fonts)s; color: #dbdee1; }
#frame { width: 640px; margin: 0; background: #313338; }
header { display: flex; align-items: baseline; gap: 10px; padding: 12px 16px; border-bottom: 1px solid #26282c; }
.title { font-weight: 600; color: #f2f3f5; font-size: 16px; }
.title .hash { color: #80848e; margin-right: 6px; font-weight: 400; }
.note { color: #949ba4; font-size: 13px; }
.wall { padding: 16px 16px 14px 16px; }
.msg { display: flex; gap: 16px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%%; background: #5865f2; color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: 600; font-size: 17px; }
.body { min-width: 0; flex: 1; }
.author { color: #f2f3f5; font-weight: 600; font-size: 15px; }
.badge { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 4px;
  padding: 1px 5px; margin-left: 5px; vertical-align: 2px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: 2px; }
.rows { margin-top: 8px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.btn { min-width: 52px; height: 32px; box-sizing: border-box; padding: 0 14px; border-radius: 8px;
  display: flex; align-items: center; justify-content: center; color: #fff; font-size: 14px;
  font-weight: 500; white-space: nowrap; }
.btn.primary { background: #5865f2; } .btn.secondary, .btn.link { background: #4e5058; }
.btn.success { background: #248046; } .btn.danger { background: #da373c; }
.btn.disabled { opacity: .5; }
.btn.select { width: 420px; justify-content: space-between; background: #1e1f22; border: 1px solid #1e1f22;
  color: #949ba4; font-weight: 400; }
.btn.select::after { content: ""; border: solid #b5bac1; border-width: 0 2px 2px 0; padding: 3px;
  transform: rotate(45deg); margin-bottom: 3px; }
footer { color: #949ba4; font-size: 12px; padding: 7px 16px; border-top: 1px solid #26282c; background: #2b2d31; }
""",
}


def render_page(shown: Shown, theme: str, caption: str) -> str:
    """A self-contained HTML page showing ``shown`` in a chat client's style (``telegram``/``discord``)."""
    css = _CSS[theme] % {"fonts": _FONTS}
    rows = []
    for row in shown.rows:
        cells = []
        for c in row:
            classes = ["btn", c.style] + (["disabled"] if c.disabled else []) + (["select"] if c.select else [])
            cells.append(f'<div class="{" ".join(classes)}"><span dir="auto">{_text(c.label)}</span></div>')
        rows.append(f'<div class="row">{"".join(cells)}</div>')
    keyboard = f'<div class="rows">{"".join(rows)}</div>' if rows else ""
    lang = html.escape(shown.lang)
    text = f'<div class="text" id="message-text" dir="auto" lang="{lang}">{_text(shown.text)}</div>'
    initial = _text(shown.author[:1].upper())
    if theme == "telegram":
        head = (f'<header><div class="avatar">{_text(shown.chat[:1].upper())}</div><div>'
                f'<div class="title" dir="auto">{_text(shown.chat)}</div>'
                f'<div class="note" dir="auto">{_text(shown.chat_note)}</div></div></header>')
        body = (f'<div class="msg"><div class="bubble"><div class="author">{_text(shown.author)}</div>'
                f'{text}</div>{keyboard}</div>')
    else:
        head = (f'<header><div class="title" dir="auto"><span class="hash">{"@" if shown.chat_note == "" else "#"}'
                f'</span>{_text(shown.chat)}</div><div class="note" dir="auto">{_text(shown.chat_note)}</div></header>')
        body = (f'<div class="msg"><div class="avatar">{initial}</div><div class="body">'
                f'<div class="author">{_text(shown.author)}<span class="badge">APP</span></div>'
                f'{text}{keyboard}</div></div>')
    return ("<!doctype html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{_text(shown.chat)}</title>'
            f"<style>{css}</style></head><body>"
            f'<div id="frame">{head}<div class="wall">{body}</div>'
            f"<footer>{_text(caption)}</footer></div></body></html>\n")


# ---------------------------------------------------------------- the scenes


@dataclass
class Scene:
    """What one platform's fake holds after part of a match: the table message and a hand."""

    platform: str  # telegram | discord
    lang: str
    table: Shown
    hand: Shown
    player: str  # whose hand

    def pages(self) -> dict[str, tuple[Shown, str]]:
        """Image name (without ``.png``) -> the message and the HTML page drawing it."""
        theme, caption = ("telegram", CAPTION_TG) if self.platform == "telegram" else ("discord", CAPTION_DC)
        suffix = "" if self.lang == "en" else f"-{self.lang}"
        return {f"{self.platform}-{kind}{suffix}": (shown, render_page(shown, theme, caption))
                for kind, shown in (("table", self.table), ("hand", self.hand))}


def _to_play(snapshot: Any, view: dict[str, Any], humans: set[int]) -> bool:
    """Cards lie on the table (at least two) and a person is to play."""
    return (view.get("phase") == "play" and len(view.get("trick") or []) >= 2
            and snapshot.to_act in humans)


async def telegram_scene(work: Path, lang: str, *, seed: int = 1) -> Scene:
    """Two people and two AI seats play Tarneeb 41 in a Telegram group until cards lie on the table
    and a person is to play; the group's table message and that person's hand, as the fake holds them."""
    bed = Bed(work, speed=50.0, seed=seed)
    await bed.open()
    tg = bed.tg
    try:
        people = bed.people(list(PEOPLE[lang]), lang)
        tg.add_group(GROUP, GROUP_TITLE[lang], admins=[people[0].user_id])
        await tg.say(people[0].user, GROUP, f"/lang {lang}")
        await tg.wait_for(lambda: tg.bot_messages(GROUP))
        await tg.say(people[0].user, GROUP, f"/new {GAME}")
        snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
        tid = snap.table_id
        lobby = await tg.wait_for(lambda: bed.table_message(tid))
        await tg.start_bot(people[1].user, join_url_payload(lobby))
        ids = {f"tg:{p.user_id}" for p in people}
        await tg.wait_for(lambda: sum(s.player_id in ids for s in bed.manager.get(tid).table.seats) == 2)
        await tg.say(people[0].user, GROUP, "/begin")  # the empty seats go to AI players
        await tg.wait_for(lambda: bed.manager.get(tid).table.status == "playing")
        rng = random.Random(seed)
        for _ in range(MAX_MOVES):
            await bed.drain()
            snap = bed.manager.get(tid)
            assert snap is not None and snap.table.status == "playing"
            seats = {s.player_id: i for i, s in enumerate(snap.table.seats)}
            humans = {seats[f"tg:{p.user_id}"]: p for p in people}
            if snap.to_act not in humans:
                version = snap.table.version
                await tg.wait_for(lambda v=version: bed.manager.get(tid).table.version > v, timeout=20)
                continue
            player = humans[snap.to_act]
            prefix = f"mj1:a:{tid}:{snap.table.version}:"
            hand = await tg.wait_for(lambda p=player, x=prefix: (m := bed.hand_message(p, tid)) is not None
                                     and any(str(b.get("callback_data", "")).startswith(x) for b in m.buttons)
                                     and m, timeout=20)
            if _to_play(snap, bed.manager.view(tid, None), set(humans)):
                table = bed.table_message(tid)
                assert table is not None
                return Scene("telegram", lang,
                             Shown(table.text, telegram_rows(table.markup), GROUP_TITLE[lang], "group",
                                   "Majlis", lang),
                             Shown(hand.text, telegram_rows(hand.markup), "Majlis", f"bot · @{tg.bot_username}",
                                   "Majlis", lang),
                             player.user.first_name)
            legal = [str(b["callback_data"]) for b in hand.buttons
                     if str(b.get("callback_data", "")).startswith(prefix)]
            version = snap.table.version
            await tg.press(player.user, hand, choose(GAME, legal, rng))
            await tg.wait_for(lambda v=version: bed.manager.get(tid).table.version > v, timeout=20)
        raise AssertionError("no cards on the table with a person to play")
    finally:
        await bed.close()


@contextlib.asynccontextmanager
async def discord_bot(work: Path, seed: int, server: str) -> AsyncIterator[tuple[FakeDiscord, Bot, int]]:
    """The fake Discord with a server called ``server`` that has a ``#card-table`` channel, and the
    bot connected to it."""
    fake = FakeDiscord()
    fake.guilds[fake.guild_id]["name"] = server
    channel = fake.add_channel(CHANNEL)
    await fake.start()
    try:
        with fake.patched():
            seeds = iter(random.Random(seed).getrandbits(62) for _ in range(10_000))
            settings = ManagerSettings(ai_delay=0.0, default_turn_seconds=0, lobby_timeout=3600,
                                       seed_source=lambda: next(seeds))
            bot = await Bot(fake, work / "majlis.sqlite3", settings=settings).start()
            try:
                yield fake, bot, channel
            finally:
                await bot.stop()
    finally:
        await fake.close()


async def discord_scene(work: Path, lang: str, *, seed: int = 1) -> Scene:
    """The same on Discord: the channel's table message, and the hand the bot sends by DM."""
    async with discord_bot(work, seed, GROUP_TITLE[lang]) as (fake, bot, channel):
        people = [Member(fake.add_member(name, manage_guild=i == 0), name) for i, name in enumerate(PEOPLE[lang])]
        table = Table(fake, bot, channel, people, seed=seed)
        await table.slash(people[0], "lang", language=lang)
        await table.open(GAME)  # Sara opens it, Omar presses Join
        await table.slash(people[0], "begin")  # the empty seats go to AI players
        assert table.status() == "playing" and table.table_id is not None
        tid = table.table_id
        ids = {f"dc:{m.user_id}": m for m in people}
        for _ in range(MAX_MOVES):
            snap = table.manager.get(tid)
            assert snap is not None and snap.table.status == "playing"
            humans = {i: ids[s.player_id] for i, s in enumerate(snap.table.seats) if s.player_id in ids}
            version = snap.table.version
            if snap.to_act not in humans:
                await fake.wait_until(lambda v=version: table.manager.get(tid).table.version > v, timeout=20)
                continue
            if _to_play(snap, table.manager.view(tid, None), set(humans)):
                member = humans[snap.to_act]
                hand, _ = await table.controls(member, version, via_dm=True)
                await bot.drain([channel])
                message = table.table_message()
                server = fake.guilds[fake.guild_id]["name"]
                return Scene("discord", lang,
                             Shown(message.content, discord_rows(message.components), CHANNEL, server,
                                   "Majlis", lang),
                             Shown(hand.content, discord_rows(hand.components), "Majlis", "", "Majlis", lang),
                             member.name)
            await table.step(dm_seats=frozenset(humans))
        raise AssertionError("no cards on the table with a person to play")


# ---------------------------------------------------------------- the pictures


@dataclass
class Picture:
    """One image written: its PNG, the HTML it was taken of, and the message it shows."""

    name: str
    png: Path
    html: Path
    shown: Shown
    text_seen: str  # the message's text as chromium reads it back from the page
    requests: list[str] = field(default_factory=list)  # what the page asked for (nothing, we check)


async def photograph(browser: Any, scenes: list[Scene], out: Path, pages_dir: Path) -> list[Picture]:
    """Write each scene's pages as HTML into ``pages_dir`` and their screenshots into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    pages_dir.mkdir(parents=True, exist_ok=True)
    pictures = []
    for scene in scenes:
        for name, (shown, page_html) in scene.pages().items():
            path = pages_dir / f"{name}.html"
            path.write_text(page_html, encoding="utf-8")
            page = await browser.new_page(viewport={"width": 700, "height": 400}, device_scale_factor=2)
            requests: list[str] = []
            page.on("request", lambda r, seen=requests: seen.append(r.url))
            await page.route("**/*", lambda route: route.abort())  # nothing may come from elsewhere
            await page.set_content(page_html, wait_until="load")
            png = out / f"{name}.png"
            await page.locator("#frame").screenshot(path=str(png))
            seen = str(await page.locator("#message-text").text_content())
            await page.close()
            pictures.append(Picture(name, png, path, shown, seen, requests))
    return pictures


async def make_scenes(work: Path, lang: str) -> list[Scene]:
    """The Telegram and the Discord scene in ``lang`` (one after the other: they share nothing)."""
    (work / f"tg-{lang}").mkdir(parents=True, exist_ok=True)
    (work / f"dc-{lang}").mkdir(parents=True, exist_ok=True)
    return [await telegram_scene(work / f"tg-{lang}", lang), await discord_scene(work / f"dc-{lang}", lang)]


async def main(out: Path, work: Path, langs: tuple[str, ...] = ("en", "ar")) -> list[Picture]:
    """Every chat picture, in every language of ``langs``."""
    scenes = [scene for lang in langs for scene in await make_scenes(work, lang)]
    async with chromium() as browser:
        return await photograph(browser, scenes, out, work / "pages")


if __name__ == "__main__":  # pragma: no cover - the test is the way in; this is for a quick look
    import sys
    import tempfile

    target = Path(sys.argv[1])  # a folder for the PNGs
    with tempfile.TemporaryDirectory() as tmp:
        for pic in asyncio.run(main(target, Path(tmp))):
            print(pic.png, pic.png.stat().st_size)
