from __future__ import annotations

from lxml import html as lxml_html

from openresearch.ingest.boilerplate import RawBlock, extract_blocks, remove_boilerplate, score_block

PROSE = (
    "The team measured the latency of the new index over a full week and found that it was stable, "
    "with the slowest one per cent of queries finishing within forty milliseconds."
)


def blocks(markup: str) -> list[RawBlock]:
    return extract_blocks(lxml_html.document_fromstring(markup))


def test_prose_scores_high_and_links_low() -> None:
    prose = RawBlock(kind="paragraph", text=PROSE)
    links = RawBlock(kind="paragraph", text="News Sport Weather Markets Travel", link_chars=33)
    assert score_block(prose) > 0.8
    assert score_block(links) < 0.1


def test_cookie_and_copyright_text_is_penalised_even_without_hints() -> None:
    cookie = RawBlock(kind="paragraph", text="We use cookies to improve your experience. Accept all cookies?")
    legal = RawBlock(kind="paragraph", text="© 2024 Example Media. All rights reserved.")
    assert score_block(cookie) < 0.45
    assert score_block(legal) < 0.45


def test_class_hints_match_whole_words() -> None:
    # "header-image" and "readmore" must not read as ads; "ad-slot" and "social-share" must.
    page = (
        f"<body><div class='header-image'><p>{PROSE}</p></div><div class='readmore'><p>{PROSE}</p></div>"
        f"<div class='ad-slot'><p>{PROSE}</p></div><div class='social-share'><p>{PROSE}</p></div></body>"
    )
    hints = [b.hint for b in blocks(page)]
    assert hints == [0.0, 0.0, -0.6, -0.6]


def test_nearest_hint_wins() -> None:
    page = f"<body><article><p>{PROSE}</p><div class='share'><p>{PROSE}</p></div></article></body>"
    assert [b.hint for b in blocks(page)] == [0.15, -0.6]


def test_hidden_and_script_content_is_never_text() -> None:
    page = (
        "<body><p>Visible text.</p><script>var x = 'code';</script><div hidden>secret</div>"
        "<div style='display: none'>also secret</div><p aria-hidden='true'>decor</p></body>"
    )
    assert [b.text for b in blocks(page)] == ["Visible text."]


def test_link_density_counts_only_anchor_text() -> None:
    (block,) = blocks("<body><p>Read <a href='/x'>this report</a> today</p></body>")
    assert block.text == "Read this report today"
    assert block.link_chars == len("this report")


def test_orphan_heading_is_dropped_with_its_section() -> None:
    page = (
        f"<body><h2>Results</h2><p>{PROSE}</p>"
        "<h2>Related stories</h2><ul><li><a href='/1'>One story</a></li>"
        "<li><a href='/2'>Another</a></li></ul>"
        "</body>"
    )
    assert [b.text for b in remove_boilerplate(blocks(page))] == ["Results", PROSE]
