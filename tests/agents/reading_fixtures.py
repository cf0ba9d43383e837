"""Reading a document on disk as a run would, for the extraction tests: the facts its units hold."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

Fact = tuple[str, str, str, str | None, str | None]  # entity, metric, value as written, unit, condition


def read_facts(path: Path, question: str) -> set[Fact]:
    """Every observation the units of the document at `path` hold, read for `question`."""
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return {(o.entity, o.metric, o.value, o.unit, o.condition) for u in doc.units for o in u.observations}
