"""Every link in README.md and docs/ resolves inside the repository (issue 28: a clone is whole).

Markdown links and images (``[x](path)``, ``![x](path)``) and HTML ``<img src=...>`` / ``<a href=...>``
are checked; web addresses (``http:``, ``https:``, ``mailto:``) are not. A relative target must be a
file or folder of the repository, resolved from the linking file and never above the repository's
root; ``file.md#section`` and ``#section`` must name a heading of that Markdown file by GitHub's
anchor rules. Links inside code (fenced blocks, inline code) and HTML comments are not links: the
README keeps its screenshots in a comment until the images are committed.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.DOTALL | re.MULTILINE)
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
#: ``[text](target)`` and ``![alt](target "title")``; the text may hold one level of brackets.
_MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
_HTML_LINK = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href|srcset)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
_EXTERNAL = ("http://", "https://", "mailto:")


def markdown_files() -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose(text: str) -> str:
    """The text without HTML comments and code, where a bracket is not a link."""
    text = _COMMENT.sub("", text)
    text = _FENCE.sub("", text)
    return _INLINE_CODE.sub("", text)


def links(text: str) -> list[str]:
    """Every link target of a Markdown text, in order."""
    body = prose(text)
    return [m.group(1) for m in _MD_LINK.finditer(body)] + [m.group(1) for m in _HTML_LINK.finditer(body)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = text.replace("`", "").strip().lower()
    kept = []
    for ch in text:
        if ch in (" ", "-", "_") or unicodedata.category(ch)[0] in ("L", "N", "M"):
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file (a repeated one gets -1, -2 ...)."""
    seen: dict[str, int] = {}
    result: set[str] = set()
    text = _FENCE.sub("", _COMMENT.sub("", path.read_text(encoding="utf-8")))
    for m in _HEADING.finditer(text):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def problem(source: Path, target: str) -> str | None:
    """What is wrong with one link of ``source``, or None when it resolves inside the repository."""
    if target.lower().startswith(_EXTERNAL):
        return None
    path_part, _, fragment = target.partition("#")
    path_part = unquote(path_part.split("?", 1)[0])
    if path_part:
        if path_part.startswith("/"):
            return "an absolute path; link relative to the file"
        resolved = (source.parent / path_part).resolve()
        if not resolved.is_relative_to(ROOT):
            return "points outside the repository"
        if not resolved.exists():
            return "no such file in the repository"
    else:
        resolved = source
    if fragment:
        if resolved.suffix != ".md" or not resolved.is_file():
            return "an anchor into something that is not a Markdown file"
        if unquote(fragment).lower() not in anchors(resolved):
            return f"no heading with the anchor #{fragment} in {resolved.relative_to(ROOT)}"
    return None


def test_every_link_in_the_readme_and_docs_resolves_inside_the_repository() -> None:
    broken = [
        f"{source.relative_to(ROOT)}: ({target}) {why}"
        for source in markdown_files()
        for target in links(source.read_text(encoding="utf-8"))
        if (why := problem(source, target)) is not None
    ]
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_readme_and_docs_are_found_and_hold_links() -> None:
    files = markdown_files()
    assert (ROOT / "README.md").is_file()
    assert len(files) > 1, "docs/ holds no Markdown file"
    assert sum(len(links(f.read_text(encoding="utf-8"))) for f in files) > 10


def test_the_telegram_set_up_begins_on_the_readmes_first_screen() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    where = next(i for i, line in enumerate(lines) if line.startswith("## ") and "Telegram" in line)
    assert where < 60


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Run your bot for a Telegram group in five steps", "run-your-bot-for-a-telegram-group-in-five-steps"),
        ("0.3 Seats, direction, partnerships", "03-seats-direction-partnerships"),
        ("Memory over time (`bench/soak.py`)", "memory-over-time-benchsoakpy"),
        ("1. Classic Tarneeb — طرنيب (partnership, competitive auction 7–13)",
         "1-classic-tarneeb--طرنيب-partnership-competitive-auction-713"),
    ],
)
def test_headings_get_githubs_anchors(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("nowhere.md", "no such file in the repository"),
        ("../../outside.md", "points outside the repository"),
        ("#no-such-heading", "no heading with the anchor #no-such-heading in README.md"),
        ("/etc/passwd", "an absolute path; link relative to the file"),
    ],
)
def test_a_broken_link_is_reported_with_the_reason(target: str, why: str) -> None:
    assert problem(ROOT / "README.md", target) == why


def test_links_in_code_and_comments_are_not_links() -> None:
    text = "<!-- ![a](gone.png) -->\n```\n[b](gone.md)\n```\n`[c](gone.md)` [d](here.md) <img src=\"x.png\">"
    assert links(text) == ["here.md", "x.png"]
