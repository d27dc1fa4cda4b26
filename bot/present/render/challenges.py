"""Duplicate challenges for people (bot/core/challenges.py): the group's message (edited as people
finish, the final ranking once it closed), and a person's deals against the field once they played
them all."""

from __future__ import annotations

from bot.core.challenges import ChallengeView, Comparison, Line
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.message import OutMessage

DAY = 86400.0


def _decimal(t: T, x: float) -> str:
    """``x`` to one decimal in the reader's digits (``7.5``, ``٧٫٥``, ``−1.3``)."""
    tenths = round(abs(x) * 10)
    sep = "٫" if t.digits == "arabic" else "."
    body = f"{t.number(tenths // 10)}{sep}{t.number(tenths % 10)}"
    return f"\u2212{body}" if x < 0 and tenths else body


def _rank_line(i: int, line: Line, boards: int, t: T) -> str:
    return t.gettext("{rank}. {name} · {percent}% · {played} of {boards} deals",
                     rank=i, name=line.name, percent=round(line.percent), played=line.played, boards=boards)


def render_challenge(view: ChallengeView, t: T, now: float, *, play: str = "/challenge play") -> OutMessage:
    """The group's challenge message: what it is, who finished (while open: no scores, so nobody who
    has not played learns the field's results), the final ranking once closed."""
    ch = view.challenge
    lines = [t.ngettext("Duplicate challenge · {game} · {n} deal", "Duplicate challenge · {game} · {n} deals",
                        ch.boards, game=game_name(ch.game, t))]
    if ch.closed_at is None:
        days = max(0, int((ch.ends_at - now + DAY - 1) // DAY))
        lines.append(t.ngettext("{n} day left", "{n} days left", days))
        lines.append(t.gettext("Everyone plays the same deals in the same seat, with AI partners and opponents, "
                               "in private with the bot. Send {play} here to play.", play=play))
        done = view.finished
        if done:
            lines.append(t.gettext("Finished: {names}", names=t.join([line.name for line in done])))
        else:
            lines.append(t.gettext("Nobody has finished yet."))
        return OutMessage(t.lines(lines), ())
    lines.append(t.gettext("The challenge is over. The final ranking (matchpoints):"))
    ranking = [line for line in view.ranking if line.played]
    if not ranking:
        lines.append(t.gettext("Nobody played it."))
    lines += [_rank_line(i, line, ch.boards, t) for i, line in enumerate(ranking, start=1)]
    return OutMessage(t.lines(lines), ())


def _comparison(c: Comparison, t: T) -> str:
    deal = t.gettext("Deal {number}:", number=c.board + 1)
    if c.score is None:
        mine = t.gettext("you did not finish it")
    elif c.tricks is None:
        mine = t.gettext("thrown in, 0 points")
    elif c.bid is None:
        mine = t.ngettext("you made {n} trick, {score} points", "you made {n} tricks, {score} points", c.tricks,
                          score=t.signed(c.score))
    else:
        mine = t.ngettext("you bid {bid} and made {n} trick, {score} points",
                          "you bid {bid} and made {n} tricks, {score} points", c.tricks, bid=c.bid,
                          score=t.signed(c.score))
    if not c.field:
        field = t.gettext("nobody else has played it yet")
    elif c.field_tricks is None or c.field_score is None:
        field = t.gettext("the field's deals were thrown in")
    else:
        field = t.ngettext("the field ({n} player) made {tricks} tricks on average, {score} points",
                           "the field ({n} players) made {tricks} tricks on average, {score} points", c.field,
                           tricks=_decimal(t, c.field_tricks), score=_decimal(t, c.field_score))
    return t.gettext("{which} {mine}; {field} · {percent}%", which=deal, mine=mine, field=field,
                     percent=round(c.percent))


def render_comparisons(view: ChallengeView, t: T, now: float) -> OutMessage:
    """``/challenge``: the challenge, and the reader's deals against the field once they played them all."""
    head = render_challenge(view, t, now)
    ch = view.challenge
    if view.mine is None:
        tail = [t.gettext("You have played {played} of {boards} deals. The field's results are shown once "
                          "you have played them all.", played=view.played, boards=ch.boards)]
    else:
        tail = [t.gettext("Your deals against the field:"), *(_comparison(c, t) for c in view.mine)]
        mine = next((line for line in view.ranking if line.player_id == view.me), None)
        if mine is not None:
            tail.append(t.gettext("Your result: {percent}%", percent=round(mine.percent)))
    return OutMessage(t.lines([head.text, "", *tail]), ())


def render_board_done(view: ChallengeView, board: int, t: T) -> OutMessage:
    """In the person's private chat after each deal: how far they are (the next deal follows)."""
    ch = view.challenge
    if view.played >= ch.boards:
        text = t.gettext("You have played every deal of the challenge. Send /challenge in the group to see "
                         "your deals against the field.")
    else:
        text = t.gettext("Deal {number} of {boards} of the challenge is done; the next one is dealt now.",
                         number=board + 1, boards=ch.boards)
    return OutMessage(text, ())
