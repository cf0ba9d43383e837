"""Block-level boilerplate removal: split a DOM into text blocks, score each, keep the prose.

Applied twice by the HTML parser: to readability's article (which still carries share bars and
"related" lists) and to the whole page when readability finds nothing usable.
"""

from __future__ import annotations

import re

from lxml import html as lxml_html
from pydantic import BaseModel

from openresearch.ingest.parsed import BlockKind
from openresearch.ingest.textnorm import STOP_WORDS, cjk_ratio, collapse, words

_DROP_TAGS = words(
    "script style noscript template svg iframe button select input textarea option object embed "
    "canvas video audio map head"
)
_BLOCK_KINDS: dict[str, BlockKind] = {
    **{f"h{i}": "heading" for i in range(1, 7)},
    "li": "list_item",
    "dt": "heading",  # a definition list's term heads its description ("max_pool" over what it sets)
    "dd": "list_item",
    "blockquote": "quote",
    "pre": "code",
    "td": "table",
    "th": "table",
    "caption": "table",
}
_CONTAINERS = words(
    "p div section article main header footer nav aside ul ol dl table tbody thead tfoot tr figure "
    "figcaption form body address details summary center fieldset hgroup"
)
_NEG_TAGS = {"nav": -0.6, "footer": -0.6, "aside": -0.5, "header": -0.25, "form": -0.3}
_NEG_ROLES = {
    "navigation": -0.6,
    "banner": -0.4,
    "contentinfo": -0.6,
    "complementary": -0.5,
    "dialog": -0.6,
    "alertdialog": -0.6,
    "search": -0.6,
}
_POS_ROLES = {"main": 0.15, "article": 0.15}
# Short tokens must match a whole class/id word ("ad" must not hit "header" or "read").
_NEG_WORDS = words(
    "ad ads adv advert adverts advertisement adslot adsbygoogle banner dfp nav navbar menu foot "
    "footer share sharing social sidebar widget popup modal overlay promo related recommended comment "
    "comments tags tag pagination pager toolbar masthead login signup subscribe newsletter breadcrumb "
    "breadcrumbs cookie cookies consent gdpr copyright sponsor sponsored outbrain taboola skip print"
)
_NEG_SUBSTRINGS = sorted(
    words(
        "cookie consent share social advert sponsor newsletter breadcrumb footer "
        "sidebar navbar navigation subscribe taboola outbrain popup"
    )
)
_POS_WORDS = words("article content main post entry story body text prose articlebody postbody")
_SPLIT = re.compile(r"[\s_\-]+")
_BOILER_TEXT = re.compile(
    r"cookie|consent|all rights reserved|©|copyright|share (?:on|this)|follow us|subscribe|sign up|"
    r"newsletter|advertisement|sponsored|log ?in|privacy policy|terms of (?:use|service)|"
    r"版权所有|免责声明|分享到|广告|关注我们|订阅|登录|注册|隐私政策",
    re.I,
)
_SENTENCE_END = re.compile(r"[.!?。！？…\"”’)）」』]$")
_CJK_PUNCT = re.compile(r"[，。、；：！？]")
_WORDS = re.compile(r"[A-Za-z']+")


class RawBlock(BaseModel):
    kind: BlockKind
    text: str
    level: int = 0  # heading rank 1-6; 0 for everything else
    link_chars: int = 0
    hint: float = 0.0
    score: float = 0.0


class _Buffer:
    def __init__(self, kind: BlockKind, hint: float, level: int = 0) -> None:
        self.kind, self.hint, self.level = kind, hint, level
        self.parts: list[str] = []
        self.link_chars = 0

    def add(self, text: str | None, in_link: bool) -> None:
        if text:
            self.parts.append(text)
            if in_link:
                self.link_chars += len(collapse(text))


def _element_hint(el: lxml_html.HtmlElement) -> float:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag in _NEG_TAGS:
        return _NEG_TAGS[tag]
    role = (el.get("role") or "").lower()
    if role in _NEG_ROLES or role in _POS_ROLES:
        return _NEG_ROLES.get(role, 0.0) + _POS_ROLES.get(role, 0.0)
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    parts = [w for w in _SPLIT.split(names) if w]
    if any(w in _NEG_WORDS for w in parts) or any(s in names for s in _NEG_SUBSTRINGS):
        return -0.6
    if tag in ("article", "main") or any(w in _POS_WORDS for w in parts):
        return 0.15
    return 0.0


def _hint(el: lxml_html.HtmlElement) -> float:
    """The nearest ancestor's hint decides: a share bar inside the article is still a share bar."""
    node: lxml_html.HtmlElement | None = el
    while node is not None and node.tag not in ("body", "html"):
        if (h := _element_hint(node)) != 0.0:
            return h
        node = node.getparent()
    return 0.0


def _hidden(el: lxml_html.HtmlElement) -> bool:
    style = (el.get("style") or "").replace(" ", "").lower()
    return el.get("hidden") is not None or el.get("aria-hidden") == "true" or "display:none" in style


def _walk(el: lxml_html.HtmlElement, buf: _Buffer, in_link: bool, out: list[RawBlock]) -> None:
    tag = el.tag if isinstance(el.tag, str) else ""
    if not tag or tag in _DROP_TAGS or _hidden(el):
        return  # comments, processing instructions and invisible elements carry no prose
    if tag == "br":
        buf.add("\n", False)
        return
    in_link = in_link or tag == "a"
    if tag == "tr":  # a table row is one block, "cell | cell", so its header row can name what each cell holds
        _flush(buf, out)
        cells = [collapse(c.text_content()) for c in el if isinstance(c.tag, str) and c.tag in ("td", "th")]
        if any(cells):
            links = sum(len(collapse(a.text_content())) for a in el.iter("a"))
            text = " | ".join(cells)
            out.append(RawBlock(kind="table", text=text, link_chars=min(len(text), links), hint=_hint(el)))
        return
    if tag in _BLOCK_KINDS or tag in _CONTAINERS:
        _flush(buf, out)
        level = (6 if tag == "dt" else int(tag[1])) if _BLOCK_KINDS.get(tag) == "heading" else 0
        inner = _Buffer(_BLOCK_KINDS.get(tag, "paragraph"), _hint(el), level)
        inner.add(el.text, in_link)
        for child in el:
            _walk(child, inner, in_link, out)
            inner.add(child.tail, in_link)
        _flush(inner, out)
        return
    buf.add(el.text, in_link)
    for child in el:
        _walk(child, buf, in_link, out)
        buf.add(child.tail, in_link)


def _flush(buf: _Buffer, out: list[RawBlock]) -> None:
    raw = "".join(buf.parts)
    total, link_chars = max(1, len(collapse(raw))), buf.link_chars
    buf.parts, buf.link_chars = [], 0
    # Two <br>s (an empty line) separate paragraphs on pages that never use <p>.
    for piece in re.split(r"\n\s*\n", raw):
        text = collapse(piece)
        if text:
            # Links are not tracked per piece; spread them evenly rather than charge each piece all of them.
            share = min(len(text), round(link_chars * len(text) / total))
            out.append(RawBlock(kind=buf.kind, text=text, level=buf.level, link_chars=share, hint=buf.hint))


def extract_blocks(root: lxml_html.HtmlElement) -> list[RawBlock]:
    """Text blocks of `root` in document order, each with its link share and layout hint."""
    out: list[RawBlock] = []
    buf = _Buffer("paragraph", 0.0)
    _walk(root, buf, False, out)
    _flush(buf, out)
    return out


def score_block(block: RawBlock) -> float:
    """Roughly 0..1: how much this block reads like article prose rather than page furniture."""
    text, n = block.text, len(block.text)
    link_density = block.link_chars / max(1, n)
    if block.kind == "heading":
        return 0.6 + block.hint - link_density * 0.5
    if block.kind == "table" and " | " in text:
        return round(0.6 + block.hint - link_density * 0.5, 4)  # a data row is content unless the page chrome holds it
    length = min(1.0, n / 150)
    if cjk_ratio(text) > 0.3:
        prose = min(1.0, len(_CJK_PUNCT.findall(text)) / max(1.0, n / 40))
    else:
        words = _WORDS.findall(text.lower())
        stops = sum(1 for w in words if w in STOP_WORDS)
        prose = min(1.0, (stops / max(1, len(words))) / 0.25)
    ends = 1.0 if _SENTENCE_END.search(text) else 0.0
    score = 0.15 + 0.35 * length + 0.35 * prose + 0.15 * ends - 0.9 * link_density + block.hint
    if n < 400 and _BOILER_TEXT.search(text):
        score -= 0.4
    return round(score, 4)


def _section_has_content(blocks: list[RawBlock], keep: list[bool], i: int) -> bool:
    """Whether heading i's section (up to the next heading of the same or higher rank) kept any prose."""
    for j in range(i + 1, len(blocks)):
        if blocks[j].kind == "heading" and blocks[j].level <= blocks[i].level:
            return False
        if keep[j] and blocks[j].kind != "heading":
            return True
    return False


def remove_boilerplate(blocks: list[RawBlock], threshold: float = 0.45) -> list[RawBlock]:
    """Blocks scoring at least `threshold`, minus headings left over a removed section ("Related")."""
    scored = [b.model_copy(update={"score": score_block(b)}) for b in blocks]
    keep = [b.score >= threshold for b in scored]
    return [
        b
        for i, b in enumerate(scored)
        if keep[i] and (b.kind != "heading" or _section_has_content(scored, keep, i))
    ]
