"""Duplicate challenges for people (bot/core/challenges.py): the group's message (edited as people
finish, the final ranking once it closed), and a person's deals against the field once they played
them all."""

from __future__ import annotations

from bot.core.challenges import ChallengeView, Comparison, Line
from bot.present.i18n import T
from bot.present.render.cards import contract_name, game_name
from bot.present.render.message import OutMessage

DAY = 86400.0


def _decimal(t: T, x: float) -> str:
    """``x`` to one decimal in the reader's digits (``7.5``, ``٧٫٥``, ``−1.3``)."""
    tenths = round(abs(x) * 10)
    sep = "٫" if t.digits == "arabic" else "."
    body = f"{t.number(tenths // 10)}{sep}{t.number(tenths % 10)}"
    return f"\u2212{body}" if x < 0 and tenths else body


def _signed_decimal(t: T, x: float) -> str:
    """``x`` to one decimal with its sign (``+7.5``, ``−1.3``, ``0``)."""
    if round(abs(x) * 10) == 0:
        return t.number(0)
    return f"+{_decimal(t, x)}" if x > 0 else _decimal(t, x)


def _rank_line(i: int, line: Line, boards: int, t: T) -> str:
    if line.against is not None:
        return t.gettext("{rank}. {name} · {points} against the field · {played} of {boards} deals",
                         rank=i, name=line.name, points=_signed_decimal(t, line.against), played=line.played,
                         boards=boards)
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
    if ch.game == "trix":
        lines.append(t.gettext("The challenge is over. The final ranking (points a deal against the field):"))
    else:
        lines.append(t.gettext("The challenge is over. The final ranking (matchpoints):"))
    ranking = [line for line in view.ranking if line.played]
    if not ranking:
        lines.append(t.gettext("Nobody played it."))
    lines += [_rank_line(i, line, ch.boards, t) for i, line in enumerate(ranking, start=1)]
    return OutMessage(t.lines(lines), ())


def _trix_mine(c: Comparison, score: int, units: int, t: T) -> str:
    points = t.signed(score)
    if c.contract == "king":
        if units:
            return t.gettext("you took the King of Hearts, {score} points", score=points)
        return t.gettext("you did not take the King of Hearts, {score} points", score=points)
    if c.contract == "queens":
        return t.ngettext("you took {n} queen, {score} points", "you took {n} queens, {score} points", units,
                          score=points)
    if c.contract == "diamonds":
        return t.ngettext("you took {n} diamond, {score} points", "you took {n} diamonds, {score} points", units,
                          score=points)
    if c.contract == "trix":
        return t.gettext("you finished in place {place}, {score} points", place=units, score=points)
    return t.ngettext("you took {n} trick, {score} points", "you took {n} tricks, {score} points", units,
                      score=points)


def _trix_field(c: Comparison, units: float, score: float, t: T) -> str:
    points, mean = _decimal(t, score), _decimal(t, units)
    if c.contract == "king":
        return t.ngettext("{percent}% of the field ({n} player) took the King of Hearts, {score} points on average",
                          "{percent}% of the field ({n} players) took the King of Hearts, {score} points on average",
                          c.field, percent=round(100 * units), score=points)
    if c.contract == "queens":
        return t.ngettext("the field ({n} player) took {units} queens on average, {score} points",
                          "the field ({n} players) took {units} queens on average, {score} points", c.field,
                          units=mean, score=points)
    if c.contract == "diamonds":
        return t.ngettext("the field ({n} player) took {units} diamonds on average, {score} points",
                          "the field ({n} players) took {units} diamonds on average, {score} points", c.field,
                          units=mean, score=points)
    if c.contract == "trix":
        return t.ngettext("the field ({n} player) finished in place {units} on average, {score} points",
                          "the field ({n} players) finished in place {units} on average, {score} points", c.field,
                          units=mean, score=points)
    return t.ngettext("the field ({n} player) took {units} tricks on average, {score} points",
                      "the field ({n} players) took {units} tricks on average, {score} points", c.field,
                      units=mean, score=points)


def _trix_comparison(c: Comparison, t: T) -> str:
    deal = t.gettext("Deal {number} ({contract}):", number=c.board + 1, contract=contract_name(c.contract or "", t))
    if c.score is None or c.tricks is None:
        mine = t.gettext("you did not finish it")
    else:
        mine = _trix_mine(c, c.score, c.tricks, t)
    if not c.field:
        field = t.gettext("nobody else has played it yet")
    elif c.field_tricks is None or c.field_score is None:
        field = t.gettext("nobody else has finished it")
    else:
        field = _trix_field(c, c.field_tricks, c.field_score, t)
    return t.gettext("{which} {mine}; {field} · {points} against the field", which=deal, mine=mine, field=field,
                     points=_signed_decimal(t, c.against or 0.0))


def _comparison(c: Comparison, t: T) -> str:
    if c.contract is not None:
        return _trix_comparison(c, t)
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


def render_comparisons(view: ChallengeView, t: T, now: float, *, play: str = "/challenge play") -> OutMessage:
    """``/challenge``: the challenge, and the reader's deals against the field once they played them all."""
    head = render_challenge(view, t, now, play=play)
    ch = view.challenge
    if view.mine is None:
        tail = [t.gettext("You have played {played} of {boards} deals. The field's results are shown once "
                          "you have played them all.", played=view.played, boards=ch.boards)]
    else:
        tail = [t.gettext("Your deals against the field:"), *(_comparison(c, t) for c in view.mine)]
        mine = next((line for line in view.ranking if line.player_id == view.me), None)
        if mine is not None and mine.against is not None:
            tail.append(t.gettext("Your result: {points} points a deal against the field",
                                  points=_signed_decimal(t, mine.against)))
        elif mine is not None:
            tail.append(t.gettext("Your result: {percent}%", percent=round(mine.percent)))
    return OutMessage(t.lines([head.text, "", *tail]), ())


def render_board_done(view: ChallengeView, board: int, t: T, *, show: str = "/challenge") -> OutMessage:
    """In the person's private chat after each deal: how far they are (the next deal follows).
    ``show``: the command that shows the challenge in the chat it belongs to."""
    ch = view.challenge
    if view.played >= ch.boards:
        text = t.gettext("You have played every deal of the challenge. Send {show} where it was started to see "
                         "your deals against the field.", show=show)
    else:
        text = t.gettext("Deal {number} of {boards} of the challenge is done; the next one is dealt now.",
                         number=board + 1, boards=ch.boards)
    return OutMessage(text, ())
