"""Parallel sub-questions against a scripted OpenAI-compatible endpoint that adds a fixed latency per call.

Six independent sub-questions (one per broker) over the example corpus; extraction, section writing and
verification go to the endpoint (1 s per call), planning and query rewriting are deterministic so the run's
shape is the same at every worker count. Prints wall time for --workers 1 and 6 and the critical path of LLM
calls: latency x (the longest chain of sequential extraction steps of any sub-question + 1 write + 1 verify).
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from openresearch.agents.extract.extractor import DeterministicExtractor, LLMExtractor
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig
from openresearch.agents.plan.planner import PlanBudget
from openresearch.agents.plan.rewrite import rewrite
from openresearch.agents.run.components import Components
from openresearch.agents.run.pipeline import default_embedder, run_research
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.verify.judge import EmbeddingJudge, LLMJudge
from openresearch.agents.write.writer import DeterministicWriter, LLMWriter
from openresearch.config import Settings
from openresearch.graph.connect import open_store
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.identity import AliasResolver, question_id
from openresearch.models import Plan, SubQuestion

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "agents"))
from llm_server import RecordedRequest, Reply, ScriptedLLMServer, answer  # noqa: E402

LATENCY = 1.0
BROKERS = ["Apache Kafka", "RabbitMQ", "Apache Pulsar", "NATS", "Redis Streams", "Amazon SQS"]
SOURCE = re.compile(r"<source>\n(.*?)\n</source>", re.S)


class SixQuestions:
    """Six independent sub-questions: the shape the parallel scheduler is measured on."""

    def plan(self, question: str, *, budget: PlanBudget) -> Plan:
        texts = {b: f"What throughput and latency does {b} reach?" for b in BROKERS}
        subs = [SubQuestion(id=question_id(t), text=t, role="core", keywords=["throughput", "latency"],
                            entities=[b], source_types=["internal"], depth=1) for b, t in texts.items()]
        return Plan(question=question, kind="comparison", entities=BROKERS, sub_questions=subs)


def responder(req: RecordedRequest) -> Reply:
    if req.role == "extract":
        m = SOURCE.search(req.last_user)
        text = m.group(1) if m else ""
        sents = [s for s in re.split(r"(?<=[.!?])\s+", text) if 40 < len(s) < 300 and "<" not in s][:2]
        return answer({"quotes": [{"quote": s, "type": "claim"} for s in sents]})
    if req.role == "write":
        return Reply(status=500)  # the deterministic writer takes each section: one round trip per section
    if req.role == "verify":
        return answer({"label": "SUPPORTS", "score": 0.9})
    return Reply(status=400)


def parallel(cache: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="orbench-") as tmp, ScriptedLLMServer() as server:
        server.responder = responder
        server.latency_s = LATENCY
        settings = Settings(data_dir=Path(tmp) / "data")
        (Path(tmp) / "data").mkdir()
        (Path(tmp) / "data" / "cache").symlink_to(cache, target_is_directory=True)
        store = open_store(settings)
        embedder = default_embedder(settings)
        try:
            store.init_schema()
            timings = {}
            for workers in (1, 6):
                store.backend.clear()
                store.init_schema()
                llm = LLMClient(LLMConfig(base_url=server.base_url, model="scripted"), max_retries=0)
                det_x = DeterministicExtractor(embedder, AliasResolver.load())
                comps = Components(
                    planner=SixQuestions(), rewrite=lambda q, p: rewrite(q, p, embedder=embedder),
                    extractor=LLMExtractor(llm, det_x), fallback_extractor=det_x,
                    writer=LLMWriter(llm, DeterministicWriter(), workers=workers),
                    fallback_writer=DeterministicWriter(),
                    judge=LLMJudge(llm, EmbeddingJudge(embedder), workers=workers * 4), llm=llm)
                opts = RunOptions(question="How do six message brokers compare on throughput and latency?",
                                  sources=[f"local:{REPO / 'examples/corpus'}"], workers=workers,
                                  out=Path(tmp) / f"out{workers}", sources_per_query=3)
                opts.caps.reflect_rounds_per_question = 1
                embedder.embed(["warm-up"])
                n0 = len(server.requests)
                t0 = time.perf_counter()
                result = run_research(opts, store, settings, embedder=embedder, components=comps)
                wall = time.perf_counter() - t0
                m = result.metrics
                steps = m["max_sequential_extraction_steps"]
                critical = LATENCY * (steps + 2)
                timings[workers] = wall
                per_role = ", ".join(f"{k}: {v['calls']}" for k, v in m["llm"].items() if k != "total")
                print(f"--workers {workers}: wall {wall:.1f} s, LLM calls {len(server.requests) - n0} "
                      f"(per role {per_role}), "
                      f"critical path of LLM calls {critical:.0f} s ({steps} extraction steps + write + verify), "
                      f"wall / critical path {wall / critical:.2f}")
            print(f"speed-up --workers 6 vs 1: {timings[1] / timings[6]:.2f}x")
        finally:
            store.close()
            EmbeddedFalkor(Path(tmp) / "data").stop()
