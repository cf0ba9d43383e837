"""What a research run is asked to do, and the hard caps it must respect."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from openresearch.models import Style


class Caps(BaseModel):
    """Hard limits. When one trips the run finishes from what it has and the report says it is limited."""

    reflect_rounds_per_question: int = 3
    reflect_rounds_total: int = 12
    reflect_wall_s: float = 600.0
    wall_s: float = 1800.0
    searches_total: int = 200
    llm_calls: int | None = None
    llm_tokens: int | None = None
    llm_cost_usd: float | None = None


class RunOptions(BaseModel):
    question: str
    sources: list[str] = Field(default_factory=lambda: ["local:examples/corpus"],
                               description="web | arxiv | scholar | local:PATH | github:OWNER/REPO | "
                                           "worldbank:INDICATOR[:COUNTRIES] | who:INDICATOR[:COUNTRIES]")
    style: Style = "report"
    budget: int = Field(default=15, ge=3, le=40, description="sum of sub-question depths")
    max_sub_questions: int = Field(default=8, ge=1, le=12)
    language: Literal["auto", "en", "zh"] = "auto"
    offline: bool = False
    workers: int = Field(default=4, ge=1, le=16)
    out: Path = Path("out")
    sources_per_query: int = 6
    evidence_per_section: int = 12
    caps: Caps = Field(default_factory=Caps)
    # monitoring: ask the search APIs only for what appeared since this date (None: no date restriction)
    since: date | None = None

    def local_paths(self) -> list[str]:
        return [s.split(":", 1)[1] for s in self.sources if s.startswith("local:")]

    def source_types(self) -> list[str]:
        """The planner's source types for the chosen sources."""
        kinds: list[str] = []
        for s in self.sources:
            kind = "internal" if s.startswith("local:") else "academic" if s in {"arxiv", "scholar"} else "web"
            if kind not in kinds:
                kinds.append(kind)
        return kinds

