from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from openresearch.errors import ParseError
from openresearch.ingest.html import parse_html

HTML_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "html"

BOILERPLATE = [
    "We use cookies",
    "Accept all",
    "Share on Twitter",
    "Advertisement",
    "Upgrade your data stack",
    "Try CloudDB",
    "Related stories",
    "Why we left our document store",
    "Subscribe to our newsletter",
    "Most read",
    "All rights reserved",
    "Privacy policy",
    "Reviews",
    "Home",
]


def read(name: str) -> bytes:
    return (HTML_DIR / name).read_bytes()


def test_news_article_keeps_the_story_and_drops_the_furniture() -> None:
    doc = parse_html(read("news_article.html"), url="https://techdaily.example/a/graph")
    assert doc.title == "Graph databases in production: lessons from three teams"
    assert doc.authors == ["Dana Whitfield"]
    assert doc.author == "Dana Whitfield"
    assert doc.published_at == date(2024, 3, 12)  # article:published_time beats the JSON-LD date
    assert doc.lang == "en"
    assert doc.text.startswith("Three engineering teams")
    assert "fell from 2.3 seconds to 140 milliseconds" in doc.text
    assert "Where the pain was" in doc.text  # in-article headings survive
    assert doc.text.endswith("only then move further workloads across.")
    for phrase in BOILERPLATE:
        assert phrase not in doc.text, phrase


def test_text_is_normalised_and_blocks_index_into_it() -> None:
    doc = parse_html(read("news_article.html"))
    paragraphs = doc.text.split("\n\n")
    assert all(p == p.strip() and "  " not in p and "\n" not in p for p in paragraphs)
    assert [b.text for b in doc.blocks] == paragraphs
    for block in doc.blocks:
        assert doc.text[block.start : block.end] == block.text


def test_citation_meta_tags() -> None:
    doc = parse_html(read("scholarly_landing.html"))
    assert doc.title == "Sparse Retrieval Revisited: When Lexical Matching Beats Dense Vectors"
    assert doc.authors == ["Li, Wei", "Okafor, Chidi", "Schmidt, Anna"]
    assert doc.published_at == date(2023, 7, 9)
    assert "improves nDCG@10 by 4.1 points" in doc.text
    for phrase in ("Export BibTeX", "Log in", "Browse", "Hosted by"):
        assert phrase not in doc.text


def test_gbk_chinese_page_reads_correctly() -> None:
    # The fixture is stored as UTF-8 for editing; the site serves GBK bytes with a gb2312 label.
    raw = read("zh_news.html").decode("utf-8").encode("gbk")
    doc = parse_html(raw)
    assert doc.encoding == "gb18030"
    assert doc.title == "国产数据库市场份额持续增长"
    assert doc.authors == ["王晓明"]
    assert doc.published_at == date(2024, 5, 20)
    assert doc.lang == "zh"
    assert "图数据库是增长最快的细分领域，全年市场规模约为十二亿元，同比增长百分之四十一。" in doc.text
    for phrase in ("首页", "分享到", "广告", "相关新闻", "版权所有", "\u3000"):
        assert phrase not in doc.text, phrase
    assert len(doc.text.split("\n\n")) == 3


def test_br_separated_forum_post() -> None:
    doc = parse_html(read("forum_divs.html"))
    assert doc.text.split("\n\n")[0].startswith("I am building a bilingual search tool")
    assert len(doc.text.split("\n\n")) == 3
    for phrase in ("alice", "reply", "Rules", "Login"):
        assert phrase not in doc.text


def _prose(topic: str, n: int) -> str:
    return " ".join(
        f"The {topic} study reports that measurement {i} was stable over the week." for i in range(n)
    )


def test_fallback_when_readability_picks_a_fragment() -> None:
    # Prose split over unrelated wrappers: readability keeps only the biggest, which is too small a
    # share of the page, so the filtered whole-page pass is used and nothing is lost.
    wrappers = "".join(
        f"<div class='wrap-{t}'><div><p>{_prose(t, n)}</p></div></div>"
        for t, n in (("alpha", 5), ("beta", 4), ("gamma", 4))
    )
    page = f"<html><body><nav><a href='/'>Home</a> <a href='/x'>Index</a></nav>{wrappers}</body></html>"
    doc = parse_html(page)
    assert doc.method == "fallback"
    for topic in ("alpha", "beta", "gamma"):
        assert f"The {topic} study reports" in doc.text
    assert "Home" not in doc.text


def test_readability_output_is_still_filtered() -> None:
    # readability returns the whole body here (sections are equal); the nav inside it is still dropped.
    sections = "".join(
        f"<section class='card'><h2>Finding {i}</h2><p>{_prose(str(i), 2)}</p></section>" for i in range(1, 4)
    )
    page = f"<html><body><nav><a href='/'>Home</a></nav>{sections}<footer>© 2024</footer></body></html>"
    doc = parse_html(page)
    assert doc.method == "readability"
    assert doc.text.startswith("Finding 1\n\nThe 1 study reports")
    assert "Home" not in doc.text and "©" not in doc.text


def test_time_element_and_json_ld_dates() -> None:
    body = "<p>" + "A paragraph of real prose that is long enough to count as content here. " * 4 + "</p>"
    with_time = (
        f"<html><body><article><time datetime='2022-11-03T09:00'>3 Nov</time>{body}</article></body></html>"
    )
    assert parse_html(with_time).published_at == date(2022, 11, 3)
    graph = '{"@graph":[{"@type":"Article","datePublished":"2021-02-01"}]}'
    ld = f'<script type="application/ld+json">{graph}</script>'
    assert parse_html(f"<html><head>{ld}</head><body>{body}</body></html>").published_at == date(2021, 2, 1)


@pytest.mark.parametrize("markup", ["", "   ", "<html><body><nav><a href='/'>Home</a></nav></body></html>"])
def test_empty_pages_raise_parse_error(markup: str) -> None:
    with pytest.raises(ParseError):
        parse_html(markup)


def test_xml_declaration_with_encoding_is_accepted() -> None:
    page = '<?xml version="1.0" encoding="utf-8"?><html><body><p>' + "Plain prose sentence here. " * 10
    assert parse_html(page + "</p></body></html>").text.startswith("Plain prose sentence here.")
