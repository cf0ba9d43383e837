"""Parsing and embedding throughput: HTML pages/s, PDF pages/s, chunks/s embedded, cache effect.

Usage:
  python bench/bench_parse.py [--html-pages 200] [--pdf-pages 20] [--chunks 256] [--batch-size 64]
                              [--model all-MiniLM-L6-v2] [--skip-model] [--pdf-streams 1,10,50,200]
  python bench/bench_parse.py --only-pdf-streams [--pdf-streams 1,10,50,200]
  python bench/bench_parse.py --only-hostile      (bench/bench_hostile.py: link swaps, FIFOs, a planted --out link,
                                                   a full disk, numbers in every written form, a 10 MB attribute)

--pdf-streams: one-page PDFs whose single Flate stream inflates to each size in MiB (an image of zeros, then the
page's own content stream of drawing operators, "\r\n" before endstream), each parsed in a fresh interpreter
with the default limits: wall time, peak RSS (ru_maxrss), and the outcome (text, text cut at the deadline, or
the ParseError).

Inputs are generated here (HTML with nav/ads/cookie banners/footers, English and GBK-encoded Chinese;
two-column PDFs built with fpdf2). Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from fpdf import FPDF

from openresearch.errors import ParseError
from openresearch.ingest.chunk import chunk_text
from openresearch.ingest.embed import HashEmbedder, SentenceTransformerEmbedder
from openresearch.ingest.html import parse_html
from openresearch.ingest.pdf import parse_pdf
from openresearch.ingest.textnorm import words

EN = sorted(
    words(
        "graph database latency query index evidence source report model retrieval benchmark throughput "
        "the of and to in that is was for with measured over week team system results"
    )
)
ZH = list("图数据库检索增强生成知识图谱证据来源报告模型吞吐量延迟测试结果团队系统")


def _sentence(rng: random.Random, zh: bool) -> str:
    if zh:
        return "".join(rng.choice(ZH) for _ in range(rng.randint(12, 40))) + rng.choice("。！？")
    words = [rng.choice(EN) for _ in range(rng.randint(8, 30))]
    return " ".join(words).capitalize() + "."


def html_page(rng: random.Random, zh: bool) -> bytes:
    paras = "".join(
        "<p>" + " ".join(_sentence(rng, zh) for _ in range(rng.randint(2, 6))) + "</p>"
        for _ in range(rng.randint(5, 25))
    )
    nav = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(12))
    page = (
        f"<html lang='{'zh-CN' if zh else 'en'}'><head><meta charset='{'gb2312' if zh else 'utf-8'}'>"
        "<meta property='og:title' content='Bench page'><meta property='article:published_time' "
        "content='2024-01-02'></head><body>"
        "<div class='cookie-banner'><p>We use cookies. Accept all?</p></div>"
        f"<header><nav><ul>{nav}</ul></nav></header><main><article><h1>Bench page</h1>"
        "<div class='share'><a href='#'>Share on X</a></div>"
        f"{paras}<div class='ad-slot'><a href='//ads'>Buy now</a></div></article>"
        "<aside class='related'><ul><li><a href='/r'>Related</a></li></ul></aside></main>"
        "<footer><p>&copy; 2024 Bench. All rights reserved.</p></footer></body></html>"
    )
    return page.encode("gbk" if zh else "utf-8")


def pdf_doc(rng: random.Random, pages: int) -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=9)
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.set_xy(15, 10)
        pdf.cell(180, 5, "Bench Journal, Vol. 1", align="C")
        for x in (15.0, 110.0):
            pdf.set_xy(x, 25)
            for _ in range(5):
                pdf.set_x(x)
                pdf.multi_cell(85, 4.5, " ".join(_sentence(rng, False) for _ in range(4)))
                pdf.ln(3)
        pdf.set_xy(15, 285)
        pdf.cell(180, 5, str(page), align="C")
    return bytes(pdf.output())


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best wall time of `repeat` runs (the least disturbed by the machine), and the last result."""
    times, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - began)
    return min(times), result


def bench_html(n: int) -> list[str]:
    rng = random.Random(1)
    pages = [html_page(rng, zh=i % 4 == 0) for i in range(n)]
    per_page: list[float] = []
    texts: list[str] = []
    for page in pages:
        seconds, doc = timed(partial(parse_html, page))
        per_page.append(seconds * 1000)
        texts.append(doc.text)
    total = sum(per_page) / 1000
    mb = sum(len(p) for p in pages) / 1e6
    p95 = statistics.quantiles(per_page, n=20)[-1] if len(per_page) >= 20 else max(per_page)
    print(
        f"html   {n} pages ({mb:.1f} MB, 1 in 4 GBK Chinese): {n / total:7.1f} pages/s  "
        f"p50 {statistics.median(per_page):.1f} ms  p95 {p95:.1f} ms"
    )
    return texts


def bench_pdf(pages: int) -> None:
    data = pdf_doc(random.Random(2), pages)
    seconds, doc = timed(lambda: parse_pdf(data), repeat=2)
    print(
        f"pdf    {pages} two-column pages ({len(data) / 1e3:.0f} kB): {pages / seconds:7.1f} pages/s  "
        f"({len(doc.text)} chars, {len(doc.pages)} page spans)"
    )


def _stream_case(path: str) -> None:
    """Child side of bench_pdf_streams: parse one file, print seconds, peak RSS and the outcome."""
    with open(path, "rb") as f:
        data = f.read()
    warnings: list[str] = []
    start = time.perf_counter()
    try:
        doc = parse_pdf(data, warnings=warnings)
        outcome = f"text {len(doc.text)} chars" + (" (cut at the deadline)" if warnings else "")
    except ParseError as exc:
        outcome = f"ParseError: {str(exc)[:70]}"
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{seconds:6.2f} s  peak RSS {peak_mb:6.0f} MB  {outcome}")


def _make_stream_case(spec: str) -> None:
    """Child side of bench_pdf_streams: write one case (SIZE_MIB:KIND:PATH), so the parent never holds the
    hundreds of MB the generator needs (ru_maxrss survives fork and exec, and would count them in the parse)."""
    size, kind, path = spec.split(":", 2)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "ingest_processing"))
    from pdf_factory import flate_stream_pdf

    Path(path).write_bytes(flate_stream_pdf(int(size) << 20, eol=b"\r\n", content=kind == "content"))


def bench_pdf_streams(sizes: list[int]) -> None:
    baseline = subprocess.run([sys.executable, "-c", "import resource, openresearch.ingest.pdf;"
                               "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"],
                              capture_output=True, text=True, check=True).stdout.strip()
    print(f"pdf streams (fresh interpreter each; importing the parser alone peaks at {baseline} MB RSS)")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("image", "content"):
            for size in sizes:
                path = Path(tmp) / f"{kind}-{size}.pdf"
                subprocess.run([sys.executable, __file__, "--make-stream-case", f"{size}:{kind}:{path}"], check=True)
                label = f"  {kind:7} stream inflating to {size:4} MiB ({path.stat().st_size / 1e3:6.1f} kB file):"
                out = subprocess.run([sys.executable, __file__, "--stream-case", str(path)],
                                     capture_output=True, text=True, timeout=600)
                print(label, out.stdout.strip() or out.stderr.strip().splitlines()[-1], flush=True)

def bench_embed(
    texts: list[str], n_chunks: int, batch_size: int, model: str | None, skip_model: bool
) -> None:
    chunks = [c.text for i, t in enumerate(texts) for c in chunk_text(t, f"s{i}", 800, 120)]
    chunks = list(dict.fromkeys(chunks))[:n_chunks]
    print(f"chunks {len(chunks)} distinct, mean {statistics.mean(len(c) for c in chunks):.0f} chars")
    embedders: list[tuple[str, Callable[[str], Any]]] = [
        ("hash (baseline)", lambda d: HashEmbedder(cache_dir=d))
    ]
    if not skip_model:
        embedders.append(
            (
                f"sentence-transformers {model or 'all-MiniLM-L6-v2'}",
                lambda d: SentenceTransformerEmbedder(model, batch_size=batch_size, cache_dir=d),
            )
        )
    for name, make in embedders:
        with tempfile.TemporaryDirectory() as cache_dir:
            emb = make(cache_dir)
            if isinstance(emb, SentenceTransformerEmbedder):
                load_s, _ = timed(
                    partial(getattr, emb, "dim")
                )  # model load, kept out of the throughput figure
                print(f"embed  {name}: model load {load_s:.1f} s")
            cold, _ = timed(partial(emb.embed, chunks))
            computed_cold = emb.computed
            warm, _ = timed(partial(emb.embed, chunks))
            print(
                f"embed  {name}, batch {batch_size}: {len(chunks) / cold:8.1f} chunks/s cold "
                f"(computed {computed_cold}); second pass {len(chunks) / warm:8.1f} chunks/s "
                f"(computed {emb.computed - computed_cold}, cached {emb.cached}), {cold / warm:.0f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--html-pages", type=int, default=200)
    parser.add_argument("--pdf-pages", type=int, default=20)
    parser.add_argument("--chunks", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--model", default=None, help="model name or local path (default: bundled MiniLM)")
    parser.add_argument("--skip-model", action="store_true", help="only the hashing baseline, no torch")
    parser.add_argument("--pdf-streams", default="1,10,50,200", help="MiB each big Flate stream inflates to")
    parser.add_argument("--only-pdf-streams", action="store_true", help="only the big-stream PDF cases")
    parser.add_argument("--only-hostile", action="store_true",
                        help="only the hostile cases of bench_hostile.py (link swaps, FIFOs, --out link, full disk, "
                             "written numbers, a 10 MB attribute)")
    parser.add_argument("--stream-case", help=argparse.SUPPRESS)
    parser.add_argument("--make-stream-case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_stream_case:
        _make_stream_case(args.make_stream_case)
        return
    if args.stream_case:
        _stream_case(args.stream_case)
        return
    from bench_hostile import bench_hostile  # the script beside this one (its folder is on sys.path)

    sizes = [int(x) for x in args.pdf_streams.split(",") if x.strip()]
    if args.only_pdf_streams:
        bench_pdf_streams(sizes)
        return
    if args.only_hostile:
        bench_hostile()
        return
    texts = bench_html(args.html_pages)
    bench_pdf(args.pdf_pages)
    bench_pdf_streams(sizes)
    bench_hostile()
    bench_embed(texts, args.chunks, args.batch_size, args.model, args.skip_model)


if __name__ == "__main__":
    main()
