"""A question that asks for a first-hand record, planned as one (pure).

"How have the releases and contributors of OWNER/REPO changed?" is about the repository (its entity) and asks
for the record's own quantities (release dates, contributions); "Compare SP.DYN.LE00.IN for Brazil, India and
Kenya" is about the countries, and the code names the quantity, not an entity. The code stands for the
indicator until the API says its name (`with_indicator_names`, after the records are read), so the answer's
rows are in the indicator's own words and meet both the record's figures and a page's restatement of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from openresearch.agents.plan.analysis import QuestionAnalysis
from openresearch.agents.plan.attributes import metric_key
from openresearch.ingest.records.spec import routed_specs
from openresearch.models import Plan

# a word of repository activity -> the record's own metric for it (github.py writes these names)
_ACTIVITY = (("release", "release published"), ("contribut", "contributions"), ("commit", "weekly commits"),
             ("star", "stars"), ("fork", "forks"), ("issue", "open issues"))
_DEFAULT = ("stars", "release published", "contributions")
_COMPARES = re.compile(r"\b(?:compar\w*|vs\.?|versus|differ\w*|between)\b", re.I)


def _slug(code: str) -> str:
    return re.sub(r"[^\w]+", "_", code.lower()).strip("_")


def with_records(a: QuestionAnalysis) -> QuestionAnalysis:
    specs = routed_specs(a.question)
    if not specs:
        return a
    repos = [s.target for s in specs if s.kind == "github"]
    codes = [s.target for s in specs if s.kind != "github"]
    skip = {c.lower() for c in codes} | {p.lower() for r in repos for p in (r, *r.split("/"))}
    entities = [*repos, *(e for e in a.entities if e.lower() not in skip)]
    attributes: list[str] = []
    if repos:
        words = a.question.lower()
        attributes += [name for stem, name in _ACTIVITY if re.search(rf"\b{stem}", words)] or list(_DEFAULT)
    attributes += codes
    metrics = [_slug(c) if c in codes else metric_key(c) for c in attributes]
    kind = a.kind
    if kind == "comparison" and len(entities) == 1 and not _COMPARES.search(a.question):
        kind = "lookup"  # it was two "entities" only because the code counted as one
    return a.model_copy(update={"entities": entities, "attributes": list(dict.fromkeys(attributes)),
                                "metrics": list(dict.fromkeys(metrics)), "kind": kind})


def with_indicator_names(plan: Plan, names: Mapping[str, str]) -> Plan:
    """The plan with each indicator code it asks about replaced by the indicator's own name."""
    if not any(a in names for a in plan.attributes):
        return plan
    attributes = [names.get(a, a) for a in plan.attributes]
    swapped = {_slug(code): metric_key(name) for code, name in names.items()}
    metrics = [swapped.get(m, m) for m in plan.metrics]
    return plan.model_copy(update={"attributes": list(dict.fromkeys(attributes)),
                                   "metrics": list(dict.fromkeys(metrics))})
