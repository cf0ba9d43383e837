"""A digest's lines (pure): each with its figure and citation, in the order a reader acts on them (new figures,
changed figures, new conflicts, resolved conflicts, values that left); the first digest says what is known; an
equal value restated is no news; Markdown under section titles, HTML with links."""

from __future__ import annotations

from openresearch.monitor.digest import NOTHING, build, to_html, to_markdown
from openresearch.monitor.models import ConflictItem, Digest, SourceItem, ValueChange, ValueItem

FEB = 1_770_681_600_000  # 2026-02-10


def value(entity: str, v: str, ev: str, src: str = "S-1") -> ValueItem:
    return ValueItem(entity=entity, metric="throughput", unit="msg/s", value=v, evidence=ev, source_id=src,
                     title=f"{entity} notes", url=f"https://{entity.lower()}.example/notes")


def change(old: str, new: str) -> ValueChange:
    return ValueChange(entity="Quorbit", metric="throughput", unit="msg/s", old_observation="O-1", old_value=old,
                       old_evidence="E-old", old_date=FEB, new_observation="O-2", new_value=new,
                       new_evidence="E-new", new_date=FEB)


def conflict(cid: str) -> ConflictItem:
    return ConflictItem(id=cid, entity="Plindex", metric="throughput", unit="msg/s", values=["5", "9"],
                        evidence_ids=[["E-5"], ["E-9"]])


def digest(first: bool = False, **kw: object) -> Digest:
    args: dict[str, object] = {"new_sources": [], "removed_sources": [], "new_evidence": [], "supersessions": [],
                               "new_conflicts": [], "resolved_conflicts": [], **kw}
    return build(digest_id="D-1", topic_id="T-1", run_id="r1", question="Broker throughput?", at=FEB, first=first,
                 **args)  # type: ignore[arg-type]


def test_lines_state_figures_in_the_readers_order() -> None:
    gone = SourceItem(id="S-gone", url="https://mervane.example/x", title="Mervane sizing")
    d = digest(new_values=[value("Quorbit", "70 msg/s", "E-q")], supersessions=[change("10 msg/s", "20 msg/s")],
               new_conflicts=[conflict("C-new")], resolved_conflicts=[conflict("C-old")], removed_sources=[gone],
               values_left=[value("Mervane", "40 msg/s", "E-m", "S-gone")])
    assert [s.section for s in d.sentences] == ["new", "changed", "new_conflicts", "resolved", "left"]
    assert d.sentences[0].text == "Quorbit throughput: 70 msg/s [E-q] (Quorbit notes)."
    assert "from 10 msg/s" in d.sentences[1].text and "[E-old]" in d.sentences[1].text
    assert "40 msg/s [E-m]" in d.sentences[4].text
    md = to_markdown(d)
    titles = ["## New figures", "## Changed figures", "## New conflicts", "## Resolved conflicts",
              "## Values that left"]
    assert [md.index(t) for t in titles] == sorted(md.index(t) for t in titles)
    html = to_html(d, base="https://research.example")
    assert "<a href='https://quorbit.example/notes'>Quorbit notes</a>" in html
    assert "[<a href='https://research.example/ui/evidence/E-q'>E-q</a>]" in html


def test_the_first_digest_says_what_is_known_and_a_restated_value_is_no_news() -> None:
    first = digest(first=True, new_values=[value("Quorbit", "70 msg/s", "E-q")])
    assert first.sentences[0].section == "known" and "## What is known" in to_markdown(first)
    same = digest(supersessions=[change("20 msg/s", "20 msg/s")])
    assert same.nothing_changed and [s.text for s in same.sentences] == [NOTHING]
    assert "##" not in to_markdown(same)


def test_a_value_reads_as_its_source_writes_it_without_its_unit_twice() -> None:
    from openresearch.monitor.delta import raw_value

    assert raw_value({"raw_value": "October 2028", "raw_unit": "year", "value": 2028.0}) == "October 2028"
    assert raw_value({"raw_value": "six months", "raw_unit": "months", "value": 182.6}) == "six months"
    assert raw_value({"raw_value": "605", "raw_unit": "MB/s", "value": 605.0}) == "605 MB/s"
    assert raw_value({"raw_value": None, "raw_unit": None, "value": 30.0}) == "30"
