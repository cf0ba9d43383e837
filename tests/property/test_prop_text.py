"""Properties of text normalisation, block offsets, chunking and quote location: offsets are the contract.

Every chunk and block is an exact slice of the stored text, chunking loses no character of it, and a quote
taken from the text is found again at offsets whose slice is that quote (or, across a re-wrapped line, the
same words): a quote stays verbatim by its offsets.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from prop_budget import budget

from openresearch.agents.extract.extract_llm import locate
from openresearch.ingest.chunk import chunk_text, sentence_spans
from openresearch.ingest.documents import normalise_plain, split_header
from openresearch.ingest.textnorm import collapse, join_blocks, tokens

# Words, CJK runs, digits with units, punctuation that ends sentences, and every kind of whitespace.
_PIECES = st.sampled_from(["Kafka", "did", "605", "MB/s", "on", "3", "brokers", "北京", "的", "吞吐量", "。", "！",
                           ".", "?", "!", ",", ";", "”", ")", "e.g.", "v3.2", "12万", "1.2M", "—", "é", "𝔘"])
_SPACE = st.sampled_from([" ", "  ", "\n", "\n\n", "\t", "\u00a0", "\u3000", "\u200b", "\r\n", " \n \n "])
TEXT = st.lists(st.one_of(_PIECES, _SPACE, st.text(max_size=8)), max_size=120).map("".join)


@budget()
@given(TEXT)
def test_collapse_is_idempotent_and_clean(raw: str) -> None:
    once = collapse(raw)
    assert collapse(once) == once
    assert "\x00" not in once and once == once.strip()
    assert not re.search(r"[\s\u00a0\u3000]{2,}", once)


@budget()
@given(TEXT)
def test_collapse_keeps_every_visible_character(raw: str) -> None:
    def visible(s: str) -> str:
        return re.sub(r"[\s\u00a0\u3000\u200b\ufeff\x00]", "", s)
    assert visible(collapse(raw)) == visible(raw)


@budget()
@given(st.lists(st.tuples(st.sampled_from(["heading", "paragraph", "list_item"]), TEXT,
                          st.floats(0, 1)), max_size=12))
def test_join_blocks_offsets_slice_the_text(items: list[tuple[str, str, float]]) -> None:
    text, blocks = join_blocks(items)  # type: ignore[arg-type]
    assert all(text[b.start:b.end] == b.text and b.text for b in blocks)
    assert "\n\n".join(b.text for b in blocks) == text


@budget()
@given(TEXT, st.integers(20, 400), st.data())
def test_chunks_are_exact_slices_and_lose_nothing(text: str, target: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, target - 1))
    chunks = chunk_text(text, "S-x", target_chars=target, overlap_chars=overlap)
    covered = [False] * len(text)
    for i, c in enumerate(chunks):
        assert c.index == i and text[c.start:c.end] == c.text and c.text == c.text.strip()
        assert len(c.text) <= target
        for k in range(c.start, c.end):
            covered[k] = True
    # every non-space character of the text is in some chunk
    assert all(covered[k] for k, ch in enumerate(text) if not ch.isspace())
    starts = [c.start for c in chunks]
    assert starts == sorted(set(starts))  # moves forward, never repeats a chunk
    assert [c.id for c in chunk_text(text, "S-x", target, overlap)] == [c.id for c in chunks]  # stable ids


@budget()
@given(TEXT, st.integers(1, 300))
def test_sentence_spans_are_trimmed_and_bounded(text: str, limit: int) -> None:
    for s, e, _first in sentence_spans(text, limit):
        assert 0 <= s < e <= len(text) and e - s <= limit
        assert not text[s].isspace() and not text[e - 1].isspace()


@budget()
@given(TEXT, st.data())
def test_a_quote_taken_from_the_text_is_located_verbatim(raw: str, data: st.DataObject) -> None:
    text = normalise_plain(raw)
    if not text:
        return
    s = data.draw(st.integers(0, len(text) - 1))
    e = data.draw(st.integers(s + 1, len(text)))
    quote = text[s:e]
    found = locate(text, quote, 0, len(text), [])
    if isinstance(found, str):
        assert found in {"too short", "cuts a word in two"}, (found, quote)
        return
    fs, fe = found
    # the offsets give back the quote itself, or the same words where whitespace runs differ
    assert text[fs:fe] == quote.strip() or text[fs:fe].split() == quote.split()


@budget()
@given(TEXT)
def test_normalise_plain_paragraphs_are_collapsed(raw: str) -> None:
    text = normalise_plain(raw)
    for para in text.split("\n\n") if text else []:
        assert para and collapse(para) == para


@budget()
@given(st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z_-]{0,10}", fullmatch=True),
                       st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), min_size=1, max_size=30)
                       .filter(lambda v: v.strip() == v and v), min_size=1, max_size=5), TEXT)
def test_front_matter_round_trips(fields: dict[str, str], body: str) -> None:
    front = "---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\n"
    got, rest = split_header(front + body)
    # the body comes back whole; only blank lines right after the closing --- may go with it
    assert body.endswith(rest) and not body[:len(body) - len(rest)].strip()
    expect = {k.lower(): v.strip('"').strip("'") for k, v in fields.items()}
    assert {k: v for k, v in got.items() if k in expect} == {k: v for k, v in expect.items() if k in got}


@budget()
@given(TEXT)
def test_tokens_are_lower_case_and_in_the_text(raw: str) -> None:
    lowered = raw.lower()
    # (a hyphenated compound is also the word written whole: "bug-fix" gives "bugfix")
    assert all(t == t.lower() and (t in lowered or t in lowered.replace("-", "")) for t in tokens(raw))
