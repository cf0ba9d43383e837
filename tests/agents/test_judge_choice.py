"""The LLM judges claims only where it was measured better than the offline judge (llm_judge=auto)."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.run_config import Caps
from openresearch.agents.verify.judge import EmbeddingJudge, LLMJudge
from openresearch.agents.verify.judge_choice import (
    VERDICTS_FILE,
    Verdict,
    load_verdicts,
    record_verdict,
    use_llm_judge,
)
from openresearch.config import Settings
from openresearch.ingest.embed import HashEmbedder

WORSE = Verdict(model="small.gguf", llm={"Climate-FEVER": 0.259, "SciFact": 0.7},
                offline={"Climate-FEVER": 0.368, "SciFact": 0.6}, pairs=120, measured="2026-12-02")
BETTER = Verdict(model="big-model", llm={"Climate-FEVER": 0.61, "SciFact": 0.8},
                 offline={"Climate-FEVER": 0.47, "SciFact": 0.6}, pairs=120, measured="2026-12-02")


def test_auto_asks_only_a_model_measured_better_on_every_set() -> None:
    verdicts = {v.model: v for v in (WORSE, BETTER)}
    assert not WORSE.better and BETTER.better  # better on one set of two is not better
    use, why = use_llm_judge("auto", "small.gguf", verdicts)
    assert not use and "judged worse" in why and "Climate-FEVER 0.259 vs 0.368" in why
    use, why = use_llm_judge("auto", "big-model", verdicts)
    assert use and "LLM judge big-model" in why
    use, why = use_llm_judge("auto", "never-measured", verdicts)
    assert not use and "no judge measurement for never-measured" in why and "llm_judge=llm" in why
    assert use_llm_judge("llm", "small.gguf", verdicts)[0]
    assert not use_llm_judge("offline", "big-model", verdicts)[0]


def test_a_verdict_without_all_its_sets_is_not_better() -> None:
    partial = Verdict(model="m", llm={"SciFact": 0.9}, offline={"SciFact": 0.6, "COVID-Fact": 0.5}, pairs=10,
                      measured="2026-12-02")
    assert not partial.better
    assert not Verdict(model="m", llm={}, offline={}, pairs=0, measured="2026-12-02").better


def test_verdicts_round_trip_and_bad_files_are_no_verdict(tmp_path: Path) -> None:
    path = tmp_path / "cache" / VERDICTS_FILE
    assert load_verdicts(path) == {}
    record_verdict(path, WORSE)
    record_verdict(path, BETTER)
    record_verdict(path, WORSE.model_copy(update={"pairs": 180}))  # a newer measurement replaces the old
    got = load_verdicts(path)
    assert set(got) == {"small.gguf", "big-model"} and got["small.gguf"].pairs == 180
    assert not list(path.parent.glob("*.tmp"))
    path.write_text('{"x": {"model": 3}, "big-model": ' + BETTER.model_dump_json() + "}", encoding="utf-8")
    assert set(load_verdicts(path)) == {"big-model"}  # the malformed row is skipped, the good one kept
    for text in ("not json", "[1, 2]", ""):
        path.write_text(text, encoding="utf-8")
        assert load_verdicts(path) == {}


def _components(tmp_path: Path, **llm: str) -> Components:
    settings = Settings(data_dir=tmp_path / "data", llm_base_url="http://127.0.0.1:9/v1",  # never called
                        **llm)  # type: ignore[arg-type]
    return Components.build(settings, HashEmbedder(), offline=False, caps=Caps())


def test_a_run_keeps_the_offline_judge_for_an_unmeasured_model_and_says_why(tmp_path: Path) -> None:
    comps = _components(tmp_path, llm_model="small.gguf")
    assert comps.llm is not None and isinstance(comps.judge, EmbeddingJudge)
    assert "no judge measurement for small.gguf" in comps.judge_choice
    record_verdict(Settings(data_dir=tmp_path / "data").cache_dir / VERDICTS_FILE, WORSE)
    comps = _components(tmp_path, llm_model="small.gguf")
    assert isinstance(comps.judge, EmbeddingJudge) and "judged worse" in comps.judge_choice


def test_a_run_asks_a_model_measured_better_unless_told_otherwise(tmp_path: Path) -> None:
    record_verdict(Settings(data_dir=tmp_path / "data").cache_dir / VERDICTS_FILE, BETTER)
    assert isinstance(_components(tmp_path, llm_model="big-model").judge, LLMJudge)
    assert isinstance(_components(tmp_path, llm_model="big-model", llm_judge="offline").judge, EmbeddingJudge)
    no_verify = _components(tmp_path, llm_model="big-model", llm_roles="planner,write")
    assert isinstance(no_verify.judge, EmbeddingJudge) and "not in llm_roles" in no_verify.judge_choice
    # the VERIFY role's own model is the one measured
    assert isinstance(_components(tmp_path, llm_model="small.gguf", llm_model_verify="big-model").judge, LLMJudge)
    assert isinstance(_components(tmp_path, llm_model="x", llm_judge="llm").judge, LLMJudge)
