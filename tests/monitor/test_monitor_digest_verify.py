"""Digest sentences through the report verifier's checks (pure: the evidence views are built here, as
`GraphStore.evidence` returns them; the timeline test runs the same checks against real graphs)."""

from __future__ import annotations

from datetime import date

from openresearch.models import EvidenceView, ObservationView, SourceView
from openresearch.monitor import digest as digests
from openresearch.monitor.digest_verify import verify
from openresearch.monitor.models import ConflictItem, Digest, EvidenceItem, SourceItem, ValueChange, ValueItem

DAY = 86_400_000
JAN = 1_768_003_200_000  # 2026-01-10
FEB = 1_770_681_600_000  # 2026-02-10


def view(eid: str, value: str, title: str, published: date) -> EvidenceView:
    quote = f"AcmeDB reaches a write throughput of {value} rows per second on a single node."
    return EvidenceView(id=eid, quote=quote, type="benchmark",
                        source=SourceView(id=f"S-{eid}", url=f"https://acme.example/{eid}", title=title,
                                          published_at=published),
                        observations=[ObservationView(id=f"O-{eid}", entity="AcmeDB", metric="ingest_throughput",
                                                      value=float(value.replace(",", "")), unit="rows/s",
                                                      raw_value=value, raw_unit="rows per second",
                                                      condition="a single node")])


OLD = view("E-old", "120,000", "AcmeDB 1.4 release notes", date(2026, 1, 10))
NEW = view("E-new", "150,000", "AcmeDB 1.5 release notes", date(2026, 2, 10))
EVIDENCE = {v.id: v for v in (OLD, NEW)}


def change(new_value: str = "150,000 rows per second", new_evidence: str = "E-new") -> ValueChange:
    # the dates the digest files the values under: 2026-01-03 is no date in any quote or source (a learned-at
    # time, say), so only excluding the digest's metadata lets the sentence pass
    return ValueChange(entity="AcmeDB", metric="ingest_throughput", unit="rows/s", condition="a single node",
                       old_observation="O-E-old", old_value="120,000 rows per second", old_evidence="E-old",
                       old_date=JAN - 7 * DAY, new_observation="O-E-new", new_value=new_value,
                       new_evidence=new_evidence, new_date=FEB)


def digest(changes: list[ValueChange], **kw: object) -> Digest:
    args: dict[str, object] = {"new_sources": [], "removed_sources": [], "new_evidence": [], "new_conflicts": [],
                               "resolved_conflicts": [], **kw}
    return digests.build(digest_id="D-1", topic_id="T-1", run_id="r1", question="AcmeDB throughput?", at=FEB,
                         supersessions=changes, **args)  # type: ignore[arg-type]


def test_a_digest_built_from_its_quotes_passes() -> None:
    src = SourceItem(id="S-E-new", url="https://acme.example/E-new", title="AcmeDB 1.5 release notes",
                     published_at=FEB)
    figure = ValueItem(entity="AcmeDB", metric="ingest_throughput", unit="rows/s", condition="a single node",
                       value="150,000 rows per second", evidence="E-new", source_id="S-E-new",
                       title="AcmeDB 1.5 release notes", url="https://acme.example/E-new")
    d = verify(digest([change()], new_sources=[src], new_values=[figure],
                      new_evidence=[EvidenceItem(id="E-new", quote=NEW.quote, source_id="S-E-new")]), EVIDENCE)
    assert d.verification is not None
    assert (d.verification.checked, d.verification.passed, d.verification.failed) == (2, 2, 0)
    # the new figure first, stated with its value and citation; then the changed one
    assert d.sentences[0].text == ("AcmeDB ingest_throughput (a single node): 150,000 rows per second [E-new] "
                                   "(AcmeDB 1.5 release notes).")
    assert "(as of 2026-01-03)" in d.sentences[1].text  # a date of the digest's own, not checked as a claim
    assert "Verification: 2 sentences checked, 2 passed, 0 failed." in digests.to_markdown(d)


def test_a_wrong_number_fails_and_is_withheld() -> None:
    d = verify(digest([change(new_value="160,000 rows per second")]), EVIDENCE)
    v = d.verification
    assert v is not None and (v.checked, v.passed, v.failed) == (1, 0, 1)
    assert v.sentences[0].status == "FAIL" and not v.sentences[0].published
    assert v.sentences[0].reasons == ["numbers not in any cited quote: 160,000"]
    assert d.sentences == [] and d.evidence_ids == []  # not published, not cited by the stored digest
    md, page, data = digests.to_markdown(d), digests.to_html(d), digests.to_json(d)
    assert "1 failed (withheld)" in md and "## Withheld: failed verification" in md and "160,000" in md
    assert "No sentence of this digest passed verification." in md
    assert "Withheld: failed verification" in page and '"failed": 1' in data and '"published": false' in data


def test_a_phantom_citation_fails() -> None:
    d = verify(digest([change(new_evidence="E-gone")]), EVIDENCE)
    v = d.verification
    assert v is not None and v.failed == 1 and v.phantom_citations == 1
    assert v.sentences[0].reasons == ["phantom citation: E-gone", "numbers not in any cited quote: 150,000"]


def test_only_failing_sentences_are_withheld() -> None:
    other = change().model_copy(update={"entity": "BetaDB", "new_value": "7 rows per second"})
    d = verify(digest([change(), other]), EVIDENCE)
    assert d.verification is not None and (d.verification.passed, d.verification.failed) == (1, 1)
    assert [s.text.split()[0] for s in d.sentences] == ["AcmeDB"]


def test_a_resolved_conflict_cites_only_evidence_still_stored() -> None:
    g = ConflictItem(id="C-1", entity="AcmeDB", metric="ingest_throughput", unit="rows/s",
                     condition="a single node", values=["150,000 rows per second", "90,000 rows per second"],
                     evidence_ids=[["E-new"], ["E-bench"]])
    d = verify(digest([], resolved_conflicts=[g], removed_sources=[SourceItem(id="S-b", url="https://b.example/1")],
                      gone={"E-bench"}), EVIDENCE)
    assert d.verification is not None and d.verification.failed == 0
    assert "E-bench" not in d.sentences[0].text and "90,000" not in d.sentences[0].text
    assert d.sentences[0].text.endswith("the source of the 1 other value is no longer available.")
    everything_gone = verify(digest([], resolved_conflicts=[g], gone={"E-bench", "E-new"}), EVIDENCE)
    assert everything_gone.verification is not None and everything_gone.verification.failed == 0
    assert everything_gone.sentences[0].kind == "status"


def test_nothing_changed_passes() -> None:
    d = verify(digest([]), {})
    assert d.nothing_changed and d.verification is not None and d.verification.passed == 1
