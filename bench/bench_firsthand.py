"""First-hand records end to end, offline: research runs over recorded GitHub, World Bank and WHO answers served by
a local HTTP server (tests/records_api.py; made-up repository and values), on an embedded FalkorDB in a temp dir.

  python bench/bench_firsthand.py

1. "How have the releases and contributors of quillhaven/tidepool changed over the last year?" (github: source)
2. "Compare SP.DYN.LE00.IN for Brazil, India and Kenya since 2015" (routed from the question's words)
3. the same World Bank figure restated differently by a blog (a local markdown file): the conflict, led by the
   first-hand figure
4. question 2 again on the same graph: every API answer from the cache

Prints per run: API requests made, cache hits, wall time, figures in the answer and how many are cited to a
first-hand record. Asserts nothing about time.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.pipeline import default_embedder, run_research
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.write.report_model import Report
from openresearch.config import Settings
from openresearch.graph.connect import open_store
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from records_api import RecordsApi  # noqa: E402

DUMP = "--dump" in sys.argv  # print each report's Markdown and the requests it made
CITE = re.compile(r"\[(E-[0-9a-f]{12})\]")
NUMBER = re.compile(r"(?<![\w.-])\d[\d,]*(?:\.\d+)?")
BLOG = """# Notes on population growth

Our team looked at how fast some large countries are growing.

Brazil's population reached 198.6 million in 2022, according to our own estimate.

Growth has slowed in the last decade, and cities keep growing faster than the countryside.
"""


def answer_figures(report: Report) -> tuple[int, int, int]:
    """(sentences with a figure in the answer, those citing only first-hand records, those citing any)."""
    kinds = {e.id: e.source.kind for e in report.evidence}
    answer = report.sections[0] if report.sections else None
    with_figures = first = cited = 0
    for s in answer.sentences if answer else []:
        text = CITE.sub("", s.text)
        if not NUMBER.search(text):
            continue
        with_figures += 1
        cited += bool(s.citations)
        first += bool(s.citations) and all(kinds.get(c) == "record" for c in s.citations)
    return with_figures, first, cited


def run(label: str, question: str, sources: list[str], api: RecordsApi, store: GraphStore, settings: Settings,
        embedder: Embedder, out: Path) -> Report:
    before = len(api.state.hits)
    opts = RunOptions(question=question, sources=sources, offline=False, out=out, budget=6, max_sub_questions=4)
    comps = Components.build(settings, embedder, offline=True, caps=opts.caps)  # no LLM: the deterministic roles
    t0 = time.perf_counter()
    report = run_research(opts, store, settings, embedder=embedder, components=comps)
    wall = time.perf_counter() - t0
    if DUMP:
        print((out / "report.md").read_text(encoding="utf-8")[:6000])
        print("requests:", api.state.hits[before:])
    figures, first, cited = answer_figures(report)
    m = report.metrics
    print(f"{label}: {question!r}")
    print(f"  API requests {len(api.state.hits) - before} (client: {m.get('network_requests')}), cache hits "
          f"{m.get('cache_hits')}, wall {wall:.1f} s; answer sentences with figures {figures}, cited {cited}, "
          f"citing only first-hand records {first}; conflicts {len(report.conflicts)}; "
          f"phantom citations {report.verification.phantom_citations}")
    for s in report.sections[0].sentences[:8] if report.sections else []:
        print("   |", s.text[:300])
    return report


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="orbench-fh-") as tmp, RecordsApi() as api:
        blog = Path(tmp) / "blog"
        blog.mkdir()
        (blog / "population-notes.md").write_text(BLOG, encoding="utf-8")
        # every base URL (and "web"'s search) points at the local server
        settings = Settings(_env_file=None, data_dir=Path(tmp), graph_url=None,  # type: ignore[call-arg]
                            **api.settings_overrides())
        store = open_store(settings)
        try:
            store.init_schema()
            embedder = default_embedder(settings)
            embedder.embed(["warm-up"])
            out = Path(tmp) / "out"
            run("1 repository", "How have the releases and contributors of quillhaven/tidepool changed over the "
                "last year?", ["github:quillhaven/tidepool"], api, store, settings, embedder, out)
            run("2 indicator (routed)", "Compare SP.DYN.LE00.IN for Brazil, India and Kenya since 2015", ["web"],
                api, store, settings, embedder, out)
            report = run("3 conflict", "What was the population (SP.POP.TOTL) of Brazil in 2022?",
                         ["worldbank:SP.POP.TOTL:BRA", f"local:{blog}"], api, store, settings, embedder, out)
            for g in report.conflicts:
                lead = g.values[0]
                print(f"  conflict {g.entity} / {g.metric} ({g.condition or '-'}): "
                      + " vs ".join(f"{v.raw_values[0] if v.raw_values else v.value}"
                                    f"{' [' + v.first_hand + ']' if v.first_hand else ''}" for v in g.values)
                      + f"; first-hand leads: {lead.first_hand is not None}")
            run("4 indicator again", "Compare SP.DYN.LE00.IN for Brazil, India and Kenya since 2015", ["web"],
                api, store, settings, embedder, out)
        finally:
            store.close()
            EmbeddedFalkor(Path(tmp)).stop()


if __name__ == "__main__":
    main()
