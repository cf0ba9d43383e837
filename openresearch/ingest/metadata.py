"""Page metadata from <meta> tags, JSON-LD and <time>: title, authors, publication date, language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from lxml import html as lxml_html
from pydantic import BaseModel, Field

from openresearch.ingest.textnorm import collapse

_ISO = re.compile(r"^\s*(\d{4})[-/.](\d{1,2})(?:[-/.](\d{1,2}))?(?!\d)")
_COMPACT = re.compile(r"^\s*(?:D:)?(\d{4})(\d{2})(\d{2})(?:\d{2}){0,3}(?:\D|$)")  # 20230620, PDF D:20230620120000Z
_CJK_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?")
_YEAR = re.compile(r"^\s*(\d{4})\s*$")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_MONTH_FIRST = re.compile(r"([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.I)
_DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3})[a-z]*\.?,?\s+(\d{4})", re.I)

# Most specific first: scholarly tags are curated, Open Graph is usually right, bare "date" is a guess.
_DATE_KEYS = (
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "article:published_time",
    "og:published_time",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date",
    "dcterms.created",
    "datepublished",
    "pubdate",
    "publishdate",
    "publish-date",
    "date",
    "sailthru.date",
    "parsely-pub-date",
)
_TITLE_KEYS = ("citation_title", "og:title", "twitter:title", "dc.title")
_AUTHOR_KEYS = ("citation_author", "author", "article:author", "dc.creator", "parsely-author", "byl")


class PageMeta(BaseModel):
    title: str | None = None
    authors: list[str] = Field(default_factory=list)
    published_at: date | None = None
    lang: str | None = None


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d) if 1900 <= y <= 2100 else None
    except ValueError:
        return None


# "Sun Aug 16 00:26:46 UTC 2026", "Wed Jul  8 10:15:53 KST 2026": a clock's date, as `date` prints it
_CTIME = re.compile(r"\b([a-z]{3})[a-z]*\s+(\d{1,2})\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s+[A-Z]{2,5}[+-]?\d{0,4})?"
                    r"\s+(\d{4})\b", re.I)
# a document's own dateline among its first lines: "**Generated:** Sun Aug 16 ...", "Last updated: 2025-03-01"
_DATELINE = re.compile(r"^[\W_]*(?:generated|date|published|updated|last[ -]updated|last[ -]modified|posted|written|"
                       r"as of|发布(?:日期|时间)?|日期|更新(?:日期|时间)?)(?:\s+(?:on|at))?[\W_]*?[:：][\W_]*"
                       r"(.{6,60}?)[\W_]*$", re.I)
DATELINE_LINES = 12
# the words a title announces a release with: "Frob 3.0 released", "Frob 3.0 is out", "Announcing Frob 3.0"
ANNOUNCED = r"(?:is\s+|has\s+been\s+|was\s+)?(?:released|out|available|here)(?:\s+now)?!?"
ANNOUNCING = r"(?:announcing|introducing)"
# (or a release's own page titled by its name joined to its version, "Frob-3.0 Release"; "Frob 3.0 release notes" stays
# a page of the publisher's, its figures unconditioned: a later version's notes supersede them)
_ANNOUNCEMENT = re.compile(rf"^\W*(?:{ANNOUNCING}\s+(?:the\s+)?\S.{{0,60}}?\bv?\d+(?:\.\d+)+\S*|"
                           rf"\S.{{0,60}}?\bv?\d+(?:\.\d+)+\S*\s+{ANNOUNCED}|"
                           r"[A-Za-z][\w+]{0,30}-v?\d+(?:\.\d+)+\S*\s+release)\W*$", re.I)
# the fields a header dates its page with, most specific first
HEADER_DATE_KEYS = ("published", "pub_date", "pubdate", "publish_date", "published_at", "publication_date", "date",
                    "created")


def announces_release(title: str) -> bool:
    """Whether a page's title announces a release of a named version ("Frob 3.0 released", "Announcing Frob
    3.0"): the page's date is then that release's date."""
    return bool(_ANNOUNCEMENT.match(title.strip()))


def header_date(fields: dict[str, str]) -> tuple[str, str] | None:
    """The field a document's header dates it with, and its value as written ("pub_date", "2021-10-13"), when the
    value reads as a date."""
    for key in HEADER_DATE_KEYS:
        if (value := fields.get(key)) and parse_date(value) is not None:
            return key, value
    return None


def dateline(text: str) -> date | None:
    """The date a document says it was written or generated on, in a labelled line among its first lines (before
    its first table): the date of a generated report or a page that has no metadata."""
    seen = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        if "|" in line or seen >= DATELINE_LINES:
            return None
        seen += 1
        if (m := _DATELINE.match(line.strip())) and (found := parse_date(m.group(1))) and 1990 <= found.year <= 2100:
            return found
    return None


def parse_date(value: str | None) -> date | None:
    """The calendar date written in `value`; partial dates round down (2023-05 -> 2023-05-01)."""
    if not value or not value.strip():
        return None
    if match := _CTIME.search(value):
        month = _MONTHS.get(match.group(1).lower())
        if month:
            return _safe_date(int(match.group(3)), month, int(match.group(2)))
    for pattern in (_ISO, _COMPACT, _CJK_DATE):
        if match := pattern.search(value) if pattern is _CJK_DATE else pattern.match(value):
            y, m, d = match.groups()
            return _safe_date(int(y), int(m), int(d or 1))
    if match := _YEAR.match(value):
        return _safe_date(int(match.group(1)), 1, 1)
    if match := _MONTH_FIRST.search(value):
        month = _MONTHS.get(match.group(1).lower())
        return _safe_date(int(match.group(3)), month, int(match.group(2))) if month else None
    if match := _DAY_FIRST.search(value):
        month = _MONTHS.get(match.group(2).lower())
        return _safe_date(int(match.group(3)), month, int(match.group(1))) if month else None
    try:
        return parsedate_to_datetime(value).date()  # RFC 2822, as in RSS and HTTP headers
    except (TypeError, ValueError, IndexError):
        return None


def _meta_values(root: lxml_html.HtmlElement) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for el in root.iter("meta"):
        key = el.get("property") or el.get("name") or el.get("itemprop")
        content = el.get("content")
        if key and content and content.strip():
            out.setdefault(key.strip().lower(), []).append(collapse(content))
    return out


def _walk_json(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk_json(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk_json(item)


def _json_ld(root: lxml_html.HtmlElement) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    for script in root.iter("script"):
        if (script.get("type") or "").lower() != "application/ld+json" or not script.text:
            continue
        try:
            objects.extend(_walk_json(json.loads(script.text.strip())))
        except ValueError:
            continue  # broken JSON-LD is common; the other sources still apply
    return objects


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [collapse(value)] if value.strip() else []
    if isinstance(value, dict):
        return _names(value.get("name"))
    if isinstance(value, list):
        return [n for item in value for n in _names(item)]
    return []


def _time_date(root: lxml_html.HtmlElement) -> date | None:
    # A <time> marked as the publication date beats one inside the article, which beats any <time>.
    paths = (
        "//time[@itemprop='datePublished']/@datetime",
        "//time[@pubdate]/@datetime",
        "//article//time/@datetime",
        "//time/@datetime",
    )
    for path in paths:
        for value in root.xpath(path):
            if found := parse_date(str(value)):
                return found
    return None


def _authors(meta: dict[str, list[str]], ld: list[dict[str, Any]]) -> list[str]:
    for key in _AUTHOR_KEYS:
        names = [v for v in meta.get(key, []) if not v.startswith(("http://", "https://"))]
        if names:
            return list(dict.fromkeys(names))
    for obj in ld:
        if names := _names(obj.get("author")):
            return list(dict.fromkeys(names))
    return []


def extract_meta(root: lxml_html.HtmlElement) -> PageMeta:
    meta = _meta_values(root)
    ld = _json_ld(root)
    published = next((d for k in _DATE_KEYS for v in meta.get(k, []) if (d := parse_date(v))), None)
    published = published or next(
        (d for obj in ld if (d := parse_date(str(obj.get("datePublished") or "")))), None
    )
    title = next((v[0] for k in _TITLE_KEYS if (v := meta.get(k))), None)
    title = title or next((collapse(str(o["headline"])) for o in ld if o.get("headline")), None)
    if not title:
        h1 = [collapse(h.text_content()) for h in root.iter("h1")]
        title = next((t for t in h1 if t), None)
    if not title:
        title = next((collapse(t.text_content()) for t in root.iter("title")), None) or None
    return PageMeta(
        title=title,
        authors=_authors(meta, ld),
        published_at=published or _time_date(root),
        lang=root.get("lang") or root.get("xml:lang") or next(iter(meta.get("content-language", [])), None),
    )


# --- titles of local files ------------------------------------------------------------------------

_FRONT_TITLE = re.compile(r"\A\ufeff?---\s*\n(?:.*?\n)??title:\s*(?P<t>.+?)\s*\n(?:.*?\n)?---\s*\n", re.S | re.I)
_FRONT_END = re.compile(r"\A\ufeff?---\s*\n.*?\n---\s*\n", re.S)
_FENCE = re.compile(r"^\s{0,3}(```|~~~).*?^\s{0,3}\1[^\n]*$", re.M | re.S)
_ATX = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$", re.M)
_SETEXT = re.compile(r"^([^\n]{3,120})\n=+\s*$", re.M)
_HTML_HEADING = re.compile(r"<h[1-3][^>]*>(.*?)</h[1-3]>", re.I | re.S)
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_DATED = re.compile(r"^(?:19|20)\d\d-\d\d-\d\d[_\-]")
_GENERIC_STEMS = {"readme", "index", "_index", "main", "document", "page", "untitled", "intro", "introduction"}


# an image in a heading, linked or not: "[![Build Status](badge.svg)](ci)" beside the name is no word of the title
_HEADING_IMAGE = re.compile(r"\[!\[([^\]]*)\]\([^)]*\)\]\([^)]*\)|!\[([^\]]*)\]\([^)]*\)")


def _clean_heading(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text)
    if (words := _HEADING_IMAGE.sub("", text)).strip(" #"):
        text = words
    elif m := _HEADING_IMAGE.search(text):
        text = m.group(1) or m.group(2)  # a heading of one image: its alt text is the title
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # [label](url) -> label
    return collapse(re.sub(r"[*_`]{1,3}", "", text)).strip(" #")


def readable_file_name(name: str) -> str:
    """A file name made readable: `2021-06-16-high-cardinality-data.md` -> "High cardinality data".

    A folder-flattened name (`owner__repo__docs_guides_setup-size_README.md`) keeps its last meaningful path
    part ("Setup size"), so the title says what the file is about, not where it sits."""
    stem = name.rsplit("/", 1)[-1]
    stem = re.sub(r"\.(?:md|markdown|mdx|txt|text|html?|pdf)$", "", stem, flags=re.I)
    segments = [p for p in re.split(r"__|_", stem) if p] if "__" in stem else [stem]
    meaningful = [s for s in segments if s.lower().strip("_- ") not in _GENERIC_STEMS]
    last = (meaningful or segments or [stem])[-1]
    last = _DATED.sub("", last)
    words = re.sub(r"[_\-\s]+", " ", last).strip()
    return (words[:1].upper() + words[1:]) if words else stem


def text_title(raw: str, html: bool = False) -> str | None:
    """The title a file's own text gives: front matter `title:`, else its first level-1 heading (Markdown or
    HTML h1-h3 outside code), else an HTML page's <title>."""
    head = raw[:20000]
    if html:
        m = _HTML_TITLE.search(head) or _HTML_HEADING.search(head)
        return (_clean_heading(m.group(1)) or None) if m else None
    if m := _FRONT_TITLE.match(head):
        return m.group("t").strip().strip("'\"") or None
    body = head[m.end():] if (m := _FRONT_END.match(head)) else head
    body = _FENCE.sub("", body)
    for rx in (_ATX, _SETEXT, _HTML_HEADING):
        if h := rx.search(body):
            title = _clean_heading(h.group(1))
            if title:
                return title
    return None


def file_title(name: str, raw: str | None, parsed: str | None = None) -> str:
    """A local document's title: the parser's, else the text's own (front matter, first heading, <title>),
    else the file name made readable. Never the folder the file sits in."""
    if parsed and parsed.strip():
        return parsed.strip()
    html = name.lower().endswith((".html", ".htm"))
    return (text_title(raw, html) if raw else None) or readable_file_name(name)


def local_file_title(path: Path, parsed: str | None = None) -> str:
    """file_title for a file on disk (its first 20 KB are read; an unreadable file is named by its name)."""
    if parsed and parsed.strip():
        return parsed.strip()
    try:
        with open(path, "rb") as fh:
            raw = fh.read(20000).decode("utf-8", "replace")
    except OSError:
        raw = None
    return file_title(path.name, raw)
