"""The terminal's side of the outbox: a :class:`~bot.outbox.Transport` that writes to the console.

New messages (the play-by-play, notices) are printed as they are delivered; edited messages (the
public table, the private hand) are kept and shown in full when the player is asked to act. On a
terminal, ``rich`` draws the table and the hand in panels; with scripted input the output is plain.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot.outbox import Budget
from bot.render.message import OutMessage

#: The console has no rate limit worth the name.
CONSOLE_BUDGET = Budget(10_000, 1.0)


@dataclass
class Screen:
    """Where the terminal writes: rich panels on a terminal, plain lines otherwise."""

    fancy: bool
    stream: TextIO = field(default_factory=lambda: sys.stdout)
    console: Console | None = None

    def __post_init__(self) -> None:
        if self.fancy:
            self.console = Console(file=self.stream, highlight=False, emoji=False)

    def line(self, text: str = "", *, style: str | None = None) -> None:
        """One or more lines of text."""
        if self.console is not None:
            self.console.print(Text(text, style=style or ""), soft_wrap=True)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def panel(self, text: str, *, title: str | None = None, style: str = "cyan") -> None:
        """A block of text, framed on a terminal."""
        if self.console is not None:
            self.console.print(Panel(Text(text), title=title, border_style=style, expand=False))
        else:
            if title:
                self.stream.write(f"-- {title} --\n")
            self.stream.write(text + "\n")
            self.stream.flush()

    def choices(self, labels: list[str]) -> None:
        """Numbered choices, several to a line."""
        items = [f"[{i}] {label}" for i, label in enumerate(labels, 1)]
        if self.console is not None:
            text = Text()
            for i, item in enumerate(items):
                if i:
                    text.append("   ")
                num, _, rest = item.partition(" ")
                text.append(num, style="bold yellow")
                text.append(" " + rest)
            self.console.print(text)
        else:
            self.stream.write("  ".join(items) + "\n")
            self.stream.flush()


class ConsoleTransport:
    """Delivers the presenter's messages to one :class:`Screen`.

    A new message that notifies (a notice, a play-by-play line, a warning) is printed at once if
    its destination is in ``show``; the silent ones (the first version of the table or of a hand)
    and every edit are only remembered, and shown when the player acts (see :meth:`latest`).
    """

    def __init__(self, screen: Screen, show: set[str] | None = None) -> None:
        self.screen = screen
        self.show = show
        self.messages: dict[str, tuple[str, OutMessage]] = {}
        self._ids = itertools.count(1)

    def budget(self, dest: str) -> Budget:
        """Unlimited, in practice."""
        return CONSOLE_BUDGET

    async def send(self, dest: str, msg: OutMessage) -> str:
        """Print a new message and remember it."""
        mid = str(next(self._ids))
        self.messages[mid] = (dest, msg)
        if msg.notify and (self.show is None or dest in self.show):
            self.screen.line(msg.text)
        return mid

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        """Remember the newest content; it is shown when the player acts."""
        self.messages[message_id] = (dest, msg)

    async def delete(self, dest: str, message_id: str) -> None:
        """Forget a message."""
        self.messages.pop(message_id, None)

    def latest(self, message_id: str | None) -> OutMessage | None:
        """The newest content of a message."""
        if message_id is None:
            return None
        got = self.messages.get(message_id)
        return got[1] if got else None
