"""HTML -> ParsedDocument: readability finds the article, boilerplate scoring cleans it up.

readability alone keeps share bars and "related" lists that sit inside the article container, and
on pages without a clear article (forums, Chinese portals built from <div>s and <br>s) it picks a
fragment or fails; so its output is filtered block by block, and compared with a filtered pass
over the whole page, which wins when readability kept too little.
"""

from __future__ import annotations

import logging
import re

from lxml import etree
from lxml import html as lxml_html
from readability import Document

from openresearch.errors import ParseError
from openresearch.ingest.boilerplate import RawBlock, extract_blocks, remove_boilerplate
from openresearch.ingest.encoding import decode_bytes
from openresearch.ingest.metadata import extract_meta
from openresearch.ingest.parsed import ParsedDocument
from openresearch.ingest.textnorm import guess_lang, join_blocks

log = logging.getLogger(__name__)

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>")
# readability's pick must hold this share of the whole page's prose, else it chose a fragment.
_MIN_SHARE = 0.4


def _parse_tree(markup: str) -> lxml_html.HtmlElement:
    # lxml refuses str input that still carries an encoding declaration; the text is already decoded.
    markup = _XML_DECL.sub("", markup, count=1)
    if not markup.strip():
        raise ParseError("empty HTML document")
    try:
        root = lxml_html.document_fromstring(markup)
    except (etree.ParserError, ValueError) as exc:
        raise ParseError(f"unparseable HTML: {exc}") from exc
    return root


def _readability_blocks(markup: str, url: str | None, threshold: float) -> list[RawBlock]:
    try:
        article = Document(markup, url=url).summary(html_partial=True)
        root = lxml_html.fragment_fromstring(article, create_parent="div")
    except Exception as exc:  # readability raises bare lxml/Unparseable errors on odd pages
        log.debug("readability failed, using the fallback: %s", exc)
        return []
    return remove_boilerplate(extract_blocks(root), threshold)


# an attribute value this long is inline data (a base64 image, a serialised state blob), never text to quote
HUGE_ATTRIBUTE_BYTES = 65_536
_HUGE_ATTR = re.compile(rb"""(=\s*)(?:"[^"]{%d,}"|'[^']{%d,}'|[^\s"'>=]{%d,})"""
                        % ((HUGE_ATTRIBUTE_BYTES,) * 3))


def drop_huge_attributes(data: bytes) -> bytes:
    """The markup with every attribute value over HUGE_ATTRIBUTE_BYTES emptied, so a 10 MB data: URI neither
    counts against the markup limit nor pushes the text after it past that limit."""
    if len(data) <= HUGE_ATTRIBUTE_BYTES:
        return data
    return _HUGE_ATTR.sub(rb'\1""', data)


def _chars(blocks: list[RawBlock]) -> int:
    return sum(len(b.text) for b in blocks)


def parse_html(
    data: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    threshold: float = 0.45,
    min_chars: int = 200,
) -> ParsedDocument:
    """Parse a page. `content_type` is the HTTP header (its charset is honoured for bytes input);
    `threshold` is the boilerplate score a block needs to be kept; readability's result is used
    when it holds at least `min_chars` characters (or all the page has)."""
    encoding = note = None
    if isinstance(data, bytes):
        decoded = decode_bytes(data, content_type)
        markup, encoding, note = decoded.text, decoded.encoding, decoded.note()
    else:
        markup = data
    root = _parse_tree(markup)
    meta = extract_meta(root)
    body = root.find("body")
    page_blocks = remove_boilerplate(extract_blocks(body if body is not None else root), threshold)
    article_blocks = _readability_blocks(_XML_DECL.sub("", markup, count=1), url, threshold)
    page_chars, article_chars = _chars(page_blocks), _chars(article_blocks)
    use_article = article_chars >= min(min_chars, page_chars) and article_chars >= _MIN_SHARE * page_chars
    chosen = article_blocks if use_article and article_chars else page_blocks
    text, blocks = join_blocks((b.kind, b.text, b.score) for b in chosen)
    if not text:
        raise ParseError(f"no readable text in {url or 'HTML document'}")
    return ParsedDocument(
        title=meta.title,
        authors=meta.authors,
        published_at=meta.published_at,
        text=text,
        blocks=blocks,
        lang=guess_lang(text, meta.lang),
        encoding=encoding,
        decode_note=note,
        method="readability" if chosen is article_blocks else "fallback",
    )
