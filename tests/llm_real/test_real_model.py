"""End to end on a real model (Qwen2.5-Coder-0.5B-Instruct, Q4_K_M) behind llama.cpp's own server.

A tiny local corpus (two short documents that disagree on one number), tight caps and one request at a time
keep it to a few minutes on 2 cores. What a small model gets wrong is expected: the assertions are the
product's promises, which must hold whatever it answers, and the metrics that say how often each role's
answers were valid, repaired, re-asked or handed to the deterministic path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig, Role
from openresearch.agents.run.pipeline import run_research
from openresearch.agents.run.run_config import Caps, RunOptions
from openresearch.config import Settings
from openresearch.errors import LLMError
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.llm_local import RunningServer

pytestmark = [pytest.mark.llm_real, pytest.mark.integration, pytest.mark.timeout(1500)]
# two asks: the population goes to the answer-first opening, the economy to a section the LLM writes
QUESTION = "What is the population of Millbrook Township, and what is its main economic activity?"
DOCS = {
    "census.md": ("---\ntitle: Millbrook Township census notes\nurl: https://records.example/millbrook\n---\n\n"
                  "Millbrook Township is a civil township in Harlow County. At the 2010 census the population of "
                  "Millbrook Township was 1,624. The township contains two small lakes. Dairy farming is the main "
                  "economic activity of Millbrook Township.\n"),
    "gazetteer.md": ("---\ntitle: Harlow County gazetteer\nurl: https://gazetteer.example/harlow\n---\n\n"
                     "Millbrook Township is a rural township in Harlow County. According to the 2012 gazetteer, "
                     "the population of Millbrook Township was 2,500. Most residents of Millbrook Township work on "
                     "dairy farms or in the county seat.\n"),
}


def settings_for(server: RunningServer, tmp_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data", llm_base_url=server.base_url, llm_model=server.model, llm_timeout_s=300,
        llm_max_output_tokens=256, llm_temperature=0.0, llm_max_concurrency=1,
        # the claim judge's LLM path is measured by bench/bench_verifier.py --llm; this model is not recorded
        # as better there, so llm_judge=auto (the default) keeps the offline judge
        llm_judge="auto")


def test_research_run_on_a_real_model_keeps_every_invariant(
        local_llm: RunningServer, falkor_store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    opts = RunOptions(question=QUESTION, sources=[f"local:{corpus}"], out=tmp_path / "out", workers=1,
                      max_sub_questions=2, budget=3, evidence_per_section=4, caps=Caps(llm_calls=16))
    report = run_research(opts, falkor_store, settings_for(local_llm, tmp_path), embedder=embedder)
    m = report.metrics
    llm = m["llm"]
    print({role: {k: u[k] for k in ("calls", "valid_first", "repaired", "reask_ok", "fallbacks",
                                     "prompt_tokens", "completion_tokens")} for role, u in llm.items()})
    print("enforced:", m.get("enforcement"), "rejected quotes:", m.get("rejected_quotes"))
    # the LLM was asked for each role the run has (unless the hard budget stopped it first, which it says)
    asked = {role for role, u in llm.items() if role != "total" and u["calls"] > 0}
    assert {"planner", "rewrite", "extract"} <= asked
    assert "verify" not in asked and m["judge"].startswith("offline judge (llm_judge=auto")
    # the writer is asked for every section with evidence the answer-first opening did not already state
    left_for_writer = [sec.title for sec in report.sections[1:] if any(x.kind == "claim" for x in sec.sentences)]
    assert ("write" in asked or not left_for_writer
            or (report.low_precision is not None and "budget" in report.low_precision)), left_for_writer
    # every structured call ended in exactly one counted outcome
    for role in ("planner", "rewrite", "extract", "write"):
        u = llm.get(role)
        if u:
            assert u["valid_first"] + u["repaired"] + u["reask_ok"] + u["fallbacks"] >= 1
    # sub-questions are questions, whoever wrote them
    from openresearch.agents.plan.planner import is_question
    assert all(is_question(q.text) for q in report.plan.sub_questions)
    # no phantom citations: every citation resolves to evidence in the report, and to nothing else
    by_id = report.evidence_by_id()
    cited = {c for sec in report.sections for s in sec.sentences for c in s.citations}
    assert cited <= set(by_id) and report.verification.phantom_citations == 0
    # quotes are verbatim spans of the stored source text, by offsets
    docs = falkor_store.sources(sorted({e.source.id for e in by_id.values()}))
    for e in by_id.values():
        assert e.start is not None and e.end is not None
        assert docs[e.source.id].text[e.start:e.end] == e.quote
    # numbers verified: no sentence states a number that none of its cited quotes holds
    assert report.verification.numeric_faithfulness == 1.0
    assert not [v for v in report.verification.verdicts if not v.numbers_ok]
    # the two documents disagree on the population: the conflict is found in the graph and disclosed
    assert report.verification.undisclosed_conflicts == []
    md = (tmp_path / "out" / "report.md").read_text("utf-8")
    assert "1,624" in md and "2,500" in md


class Judgement(BaseModel):
    label: str
    score: float


def test_malformed_answers_are_repaired_or_reasked_then_handed_back(local_llm: RunningServer) -> None:
    """An output cap too small for the schema truncates every answer: the client repairs what it can, re-asks
    once, then raises LLMError for the deterministic path, and counts each step."""
    cfg = LLMConfig(base_url=local_llm.base_url, model=local_llm.model, timeout_s=300, max_output_tokens=5,
                    temperature=0.0)
    ask = [{"role": "user", "content": "Does the evidence 'It holds 40 crates.' support the claim 'It holds 40 "
                                       "crates.'? Give label SUPPORTS, REFUTES or NOT_ENOUGH_INFO and a score."}]
    with LLMClient(cfg, max_retries=0) as client:
        with pytest.raises(LLMError, match="after one re-ask"):
            client.complete_json(Role.VERIFY, ask, Judgement)
        u = client.usage_report()["verify"]
    print(u)
    assert (u["calls"], u["reasks"], u["fallbacks"], u["valid_first"]) == (2, 1, 1, 0)
    assert u["completion_tokens"] <= 2 * 5 + 2  # the cap was sent and honoured
