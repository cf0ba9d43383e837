"""`Report`: the single source of `report.json`, the API's report route and the Markdown/HTML renderers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from openresearch.models import ConflictGroup, DraftSection, EvidenceView, Plan, Style, Verification


class Report(BaseModel):
    run_id: str
    question: str
    style: Style = "report"
    title: str
    verified: bool = Field(description="every key sentence PASSed and no conflict is undisclosed")
    method: Literal["llm", "deterministic"] = "deterministic"
    limited: dict[str, str] = Field(default_factory=dict, description="sub-question id -> why its evidence is limited")
    low_precision: str | None = Field(None, description="why the run finished in deterministic mode, if it did")
    sections: list[DraftSection] = Field(default_factory=list)
    evidence: list[EvidenceView] = Field(default_factory=list, description="every cited item, by id")
    verification: Verification = Field(default_factory=Verification)
    conflicts: list[ConflictGroup] = Field(default_factory=list)
    metrics: dict[str, Any] = Field(default_factory=dict)
    plan: Plan

    def evidence_by_id(self) -> dict[str, EvidenceView]:
        return {e.id: e for e in self.evidence}
