from __future__ import annotations

import itertools
import random

import pytest

from openresearch.ingest.chunk import chunk_id, chunk_text, sentence_spans

WORDS = ["graph", "node", "edge", "quote", "source", "offset", "evidence", "model", "query", "index"]
WORDS += ["latency", "数据", "图谱", "检索"]
ENDS = [". ", "! ", "? ", "。", "！", "？", "; ", ", "]


def random_text(rng: random.Random) -> str:
    paragraphs = []
    for _ in range(rng.randint(0, 8)):
        sentences = []
        for _ in range(rng.randint(1, 12)):
            n = rng.choice([1, 3, 8, 20, 60, 200])  # includes sentences longer than any target
            sentences.append(" ".join(rng.choice(WORDS) for _ in range(n)) + rng.choice(ENDS))
        paragraphs.append("".join(sentences).strip())
    sep = rng.choice(["\n\n", "\n\n", "\n \n", "\n\n\n"])
    return rng.choice(["", " ", "\n"]) + sep.join(paragraphs) + rng.choice(["", "\n"])


@pytest.mark.parametrize("seed", range(300))
def test_offsets_are_exact_and_cover_the_text(seed: int) -> None:
    rng = random.Random(seed)
    text = random_text(rng)
    target = rng.choice([40, 120, 300, 1000])
    overlap = rng.choice([0, target // 10, target // 3])
    chunks = chunk_text(text, "src-1", target_chars=target, overlap_chars=overlap)
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert all(c.text and c.text == c.text.strip() for c in chunks)
    assert all(len(c.text) <= target for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    # Progress and coverage: starts and ends strictly increase, every non-space char is in a chunk.
    assert all(a.start < b.start and a.end < b.end for a, b in itertools.pairwise(chunks))
    covered: set[int] = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())
    # Overlap never exceeds what was asked for.
    assert all(max(0, a.end - b.start) <= overlap for a, b in itertools.pairwise(chunks))


def test_ids_are_stable_and_depend_on_source_and_offsets() -> None:
    text = "One sentence. Two sentence. Three sentence."
    first = chunk_text(text, "s", target_chars=20, overlap_chars=0)
    again = chunk_text(text, "s", target_chars=20, overlap_chars=0)
    assert [c.id for c in first] == [c.id for c in again]
    assert first[0].id == chunk_id("s", first[0].start, first[0].end)
    assert chunk_text(text, "other", target_chars=20, overlap_chars=0)[0].id != first[0].id
    assert len({c.id for c in first}) == len(first)


def test_chinese_sentences_split_on_full_stops() -> None:
    text = "第一句话说明背景。第二句话给出数据！第三句话提出问题？最后一句。"
    spans = [text[s:e] for s, e, _ in sentence_spans(text, 1000)]
    assert spans == ["第一句话说明背景。", "第二句话给出数据！", "第三句话提出问题？", "最后一句。"]
    chunks = chunk_text(text, "zh", target_chars=20, overlap_chars=10)
    assert [c.text for c in chunks] == [
        "第一句话说明背景。第二句话给出数据！",
        "第二句话给出数据！第三句话提出问题？",
        "第三句话提出问题？最后一句。",
    ]


def test_overlap_repeats_whole_trailing_sentences() -> None:
    text = "Alpha is first. Beta is second. Gamma is third. Delta is fourth."
    chunks = chunk_text(text, "s", target_chars=35, overlap_chars=16)
    assert [c.text for c in chunks] == [
        "Alpha is first. Beta is second.",
        "Beta is second. Gamma is third.",
        "Gamma is third. Delta is fourth.",
    ]


def test_prefers_paragraph_boundaries() -> None:
    para = "This paragraph has a sentence. And another one here."
    text = f"{para}\n\n{para}\n\n{para}"
    chunks = chunk_text(text, "s", target_chars=80, overlap_chars=0)
    assert [c.text for c in chunks] == [para, para, para]


@pytest.mark.parametrize(("target", "overlap"), [(0, 0), (100, 100), (100, -1)])
def test_bad_sizes_are_rejected(target: int, overlap: int) -> None:
    with pytest.raises(ValueError):
        chunk_text("text", "s", target_chars=target, overlap_chars=overlap)


def test_empty_text_has_no_chunks() -> None:
    assert chunk_text("", "s") == []
    assert chunk_text(" \n\n ", "s") == []
