"""Pages and notes in shapes of their own, whatever the product: a flat-file CMS's contents file (fields between "---"
lines) whose title announces a release dates that release; a Sphinx version note that says what it brought ("Changed
in version 3.3: added frob_limit parameter") dates the key it names; a field list's ":type x: float, default: 1 hour"
is x's default; and questions that own a class by its package ("For zorbq_pool's FrobPool, ..."), ask a later
sentence's attribute of the compared names ("What is the default cursor.arraysize in zorbq and in Blarg?"), or ask when
a setting appeared ("in which zorbq release did the itersize setting appear"). The names are made up."""

from __future__ import annotations

from pathlib import Path

from reading_fixtures import read_facts

from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.releases import release_heading, version_note
from openresearch.agents.plan.analysis import analyse
from openresearch.ingest.documents import split_header
from openresearch.ingest.local import parse_local_file

_ANNOUNCEMENT = """title: Zorbq 3.0 released
---
pub_date: 2021-10-13
---
author: A. Writer
---
_discoverable: yes
---
tags:

news
release
---
body:

Hello,

I am excited to announce the first stable release of Zorbq 3!

.. CUT-HERE

Zorbq 3 is a complete rewrite based on the experience accumulated with the development and maintenance of the
older releases. It targets all the current versions of Frob (3.6 to 3.10) and allows the use of modern development
techniques, such as asynchronous and statically typed code. A list of the new features is available in the
documentation, and the people who helped are thanked at the end of this post.

This was a long journey: I would like to thank the people who have helped to make this project what it is
with their ideas and their code, and the many who have tested, helped, discussed and cheered for us. Thank
you also to the companies that sponsored the work, and to everyone who reported a bug while it was in beta.
----
A line of dashes in the text is written with four.
"""


def test_a_field_page_is_read_as_its_fields_and_its_body() -> None:
    fields, body = split_header(_ANNOUNCEMENT)
    assert fields["title"] == "Zorbq 3.0 released" and fields["pub_date"] == "2021-10-13"
    assert body.lstrip().startswith("Hello,") and "---\nA line of dashes" in body and "tags" not in body
    # a page whose blocks are not all fields is no field page ("Summary: x" over a rule, then prose)
    prose = "Summary: x\n---\nsome prose\nmore prose\n"
    assert split_header(prose) == ({}, prose)


def test_an_announcement_dates_the_release_its_title_names_and_another_page_keeps_its_date_apart(
        tmp_path: Path) -> None:
    page = tmp_path / "zorbq-30-released_contents.lr"
    page.write_text(_ANNOUNCEMENT, encoding="utf-8")
    src = parse_local_file(page)
    assert src.title == "Zorbq 3.0 released" and str(src.published_at) == "2021-10-13"
    assert src.text.startswith("Zorbq 3.0 released\n\npub_date: 2021-10-13\n\nHello,")
    got = read_facts(page, "When was Zorbq 3.0 released?")
    assert ("Zorbq", "release_date", "2021-10-13", "date", "3.0") in got, got
    # a page that announces nothing has its date as the page's, never as a fact in its text
    other = tmp_path / "pool-design_contents.lr"
    other.write_text(_ANNOUNCEMENT.replace("Zorbq 3.0 released", "Designing a pool for Zorbq"), encoding="utf-8")
    src = parse_local_file(other)
    assert str(src.published_at) == "2021-10-13" and "pub_date" not in src.text and src.text.startswith("Hello,")
    assert not any(o[1] in ("pub_date", "release_date") for o in read_facts(other, "When was Zorbq 3.0 released?"))
    assert release_heading("Announcing Frob 2.0") is not None and release_heading("Frob 3.1 is out!") is not None


def test_a_version_note_that_says_what_it_brought_dates_the_key_it_names(tmp_path: Path) -> None:
    note = version_note("Changed in version 3.3: added frob_limit parameter to the constructor.", None, "zorbq_pool")
    assert [(o.metric, o.value, o.unit, o.condition) for o in note or []] == [
        ("frob_limit", "3.3", "version", "added in")]
    # (a note naming two keys, or none, says nothing of one)
    assert version_note("Changed in version 3.2: the class is generic.", None, "zorbq_pool") is None
    page = tmp_path / "pool.rst"
    page.write_text("``zorbq_pool`` -- Connection pools\n==================================\n\n"
                    ".. module:: zorbq_pool\n\nThe FrobPool class\n------------------\n\n.. autoclass:: FrobPool\n\n"
                    "   :param min_idle: The minimum number of idle connections. See `!max_idle` and\n"
                    "                    `~zorbq.Connection.close()`.\n"
                    "   :type min_idle: `!float`, default: 1 hour\n\n"
                    "   .. versionchanged:: 3.3\n        added `!frob_limit` parameter to the constructor.\n",
                    encoding="utf-8")
    text = parse_local_file(page).text
    assert "See max_idle and zorbq.Connection.close()." in text and "!" not in text and "~" not in text
    assert "Changed in version 3.3: added frob_limit parameter to the constructor." in text
    got = read_facts(page, "For zorbq_pool's FrobPool, what is the default min_idle? Which zorbq_pool release added "
                           "the frob_limit parameter?")
    assert any(o[1:] == ("frob_limit", "3.3", "version", "added in") for o in got), got
    assert any(o[1:] == ("min_idle", "1", "hour", "default, class FrobPool") for o in got), got


def test_a_typed_field_with_a_default_is_the_default() -> None:
    got = observations(":type zorb_lifetime: float, default: 1 hour", [], set(), "zorbq")
    assert [(o.metric, o.value, o.unit, o.condition) for o in got] == [("zorb_lifetime", "1", "hour", "default")]


def test_a_package_owns_its_class_and_later_sentences_ask_of_the_compared_names() -> None:
    a = analyse("For zorbq_pool's FrobPool (zorbq 3), what are the default values of min_size, timeout (how long "
                "getconn()/connection() waits), max_idle and num_workers? Which zorbq_pool release added the "
                "close_flag constructor parameter used for Blarg integration, and when was that release published?")
    assert a.entities == ["zorbq_pool"]
    assert a.attributes == ["min_size", "timeout", "max_idle", "num_workers", "close_flag added", "release date"]
    b = analyse("We are choosing between zorbq, frobdb and Blarg. Out of the box, how many rows per network round "
                "trip does a zorbq named cursor fetch when you iterate over it? What is the default cursor.arraysize "
                "(rows returned by fetchmany() with no argument) in zorbq and in Blarg? And in which zorbq release "
                "did the itersize setting appear?")
    assert b.entities == ["zorbq", "frobdb", "Blarg"]
    assert b.attributes == ["rows per network round trip", "default cursor.arraysize", "itersize added"], b.attributes
    c = analyse("For Quux, what are the default values of frob_size, zorb_limit and max_blargs? In which release was "
                "max_blargs added, and in which release did its default change?")
    assert c.attributes[-2:] == ["max_blargs added", "max_blargs default changed"], c.attributes


def test_an_entry_described_by_meaning_answers_the_attribute_its_words_say(tmp_path: Path) -> None:
    from openresearch.agents.extract.extract_rules import sentence_units
    from openresearch.agents.extract.metric_names import defines_attribute

    text = "Read/write attribute specifying the number of rows to fetch at each network roundtrip. The default is 2000."
    # "The default is 2000." gives the default of what the sentence before describes: one unit, one quote
    assert [(u.start, u.end) for u in sentence_units(text)] == [(0, len(text))]
    assert defines_attribute("itersize", text, "rows per network round trip")
    assert not defines_attribute("itersize", "The default is 2000.", "rows per network round trip")
    assert not defines_attribute("throughput", text, "rows per network round trip")  # (a known quantity: its own)
    page = tmp_path / "cursors.rst"
    page.write_text("``zorbq`` cursors\n=================\n\n.. class:: FrobCursor\n\n"
                    "    .. autoattribute:: itersize\n\n"
                    "        Number of records to fetch at time when iterating on the cursor. The default is 100.\n",
                    encoding="utf-8")
    assert "itersize\n\nNumber of records" in parse_local_file(page).text


def test_a_name_with_a_number_that_has_no_figure_is_said_in_a_gap_of_its_own() -> None:
    from openresearch.agents.write.answer import answer_section
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    src = SourceView(id="S-1", url="local:///docs/blarg-README.md", title="Blarg")
    obs = ObservationView(id="O-1", entity="Blarg", metric="arraysize", value=1.0, unit="", raw_value="1",
                          raw_unit="", condition="default")
    item = EvidenceView(id="E-000000000001", quote="The number of rows fetchmany() returns. It defaults to 1.",
                        type="statistic", score=0.5, source=src, entities=["Blarg"], observations=[obs])
    q = "What is the default arraysize in Blarg and in zorbq 3?"
    p = Plan(question=q, kind="comparison", entities=["Blarg", "zorbq 3"], attributes=["default arraysize"],
             metrics=["arraysize"], sub_questions=[SubQuestion(id="Q-1", text=q, role="core",
                                                               entities=["Blarg", "zorbq 3"])])
    texts = [s.text for s in answer_section(p, {"Q-1": [item]}, []).sentences]
    # (the "3" of "zorbq 3" beside Blarg's cited figure would be a number no quote holds: the figure would go)
    assert texts[:2] == ["Arraysize: Blarg 1 (default) [E-000000000001].",
                         "Arraysize: no figure found for zorbq 3."], texts


def test_a_class_documented_from_its_code_is_the_condition_of_its_entries(tmp_path: Path) -> None:
    page = tmp_path / "pool.rst"
    page.write_text("``zorbq_pool`` -- Connection pools\n==================================\n\n"
                    "Null pools\n----------\n\n.. autoclass:: zorbq_pool.NullFrobPool\n\n"
                    "   The pool keeps no idle connection.\n\n"
                    "   :param min_idle: Always 0, cannot be changed.\n   :type min_idle: `!int`, default: 0\n",
                    encoding="utf-8")
    assert "class NullFrobPool\n\n" in parse_local_file(page).text
    got = read_facts(page, "For zorbq_pool's FrobPool, what is the default min_idle?")
    assert ("zorbq_pool", "min_idle", "0", None, "default, class NullFrobPool") in got, got


def test_a_release_timeline_asks_dates_and_each_dropped_platform_version_and_no_list_fragments() -> None:
    from openresearch.agents.extract.releases import releases_asked_of

    q = ("Give me a release timeline for zorbq 3 and Blarg: when were Zorbq 3.0 and Zorbq 3.2 released, which Zorbq "
         "3 release dropped support for Frob 3.8 and 3.9 and when did it come out? For Blarg, when were versions "
         "1.30.0 and 1.31.0 released, and which Blarg release removed support for Quux 9.6, and on what date?")
    a = analyse(q)
    assert a.attributes == ["release date", "Frob 3.8 support dropped", "Frob 3.9 support dropped",
                            "Quux 9.6 support dropped"], a.attributes
    # "Frob 3.8 and 3.9": both Frob's, no release of Zorbq
    assert [r.written for r in releases_asked_of(q, "Zorbq", ["Zorbq", "Blarg"])] == ["3.0", "3.2"]


def test_the_release_an_event_happened_in_is_dated_by_another_source_that_dates_that_release() -> None:
    from openresearch.agents.write.answer import answer_section
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    log = SourceView(id="S-1", url="local:///docs/zorbq-news.rst", title="Release notes")
    post = SourceView(id="S-2", url="local:///site/zorbq-33-released/contents.lr", title="Zorbq 3.3 released")

    def ev(n: int, src: SourceView, quote: str, obs: list[ObservationView]) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=["Zorbq"], observations=obs)

    entry = ev(1, log, "Drop support for Frob 3.8.", [ObservationView(
        id="O-1", entity="Zorbq", metric="frob_version", value=3008000000.0, unit="version", raw_value="3.8",
        raw_unit="version", condition="dropped, Zorbq 3.3.0")])
    heading = ev(2, log, "Zorbq 3.3.0", [])
    dated = ev(3, post, "pub_date: 2025-12-01", [ObservationView(
        id="O-3", entity="Zorbq", metric="release_date", value=739586.0, unit="date", raw_value="2025-12-01",
        raw_unit="date", condition="3.3")])
    q = "Which Zorbq release dropped support for Frob 3.8, and when did it come out?"
    p = Plan(question=q, kind="overview", entities=["Zorbq"], attributes=["Frob 3.8 support dropped"],
             metrics=["frob_version"], sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    first = answer_section(p, {"Q-1": [entry, heading, dated]}, []).sentences[0]
    assert first.text.startswith("Frob 3.8 support dropped: Zorbq 3.3.0 (2025-12-01) ["), first.text
    assert set(first.citations) == {"E-000000000001", "E-000000000002", "E-000000000003"}


def test_a_blog_post_announcing_a_release_in_front_matter_dates_it_by_its_day(tmp_path: Path) -> None:
    post = tmp_path / "2023-04-05-frobnik-2.md"
    post.write_text("---\ntitle: \"Announcing Frobnik 2.0\"\ndate: 2023-04-05 10:00:00 +0000\nlayout: post\n---\n\n"
                    "We are happy to announce Frobnik 2.0, the fastest release so far. It brings a new parser.\n",
                    encoding="utf-8")
    assert parse_local_file(post).text.startswith("Announcing Frobnik 2.0\n\ndate: 2023-04-05\n\nWe are happy")
    assert ("Frobnik", "release_date", "2023-04-05", "date", "2.0") in read_facts(post,
                                                                                  "When was Frobnik 2.0 released?")


def test_a_parenthesised_default_after_words_that_name_no_quantity_is_the_entrys_default() -> None:
    said = ("After such time the connection can be closed and replaced by a new one (default: 30 minutes - 10% random "
            "factor to avoid mass evictions).")
    assert ("value", "30", "minutes", "default") in {(o.metric, o.value, o.unit, o.condition)
                                                      for o in observations(said, [], set(), "zorbq")}
    # (a phrase that names its quantity keeps it: "Sets the maximum depth (default 250)")
    assert [(o.metric, o.value) for o in observations("Sets the maximum depth (default 250).", [], set(), "zorbq")] \
        == [("max_depth", "250")]


def test_a_method_documented_from_its_code_owns_its_version_note(tmp_path: Path) -> None:
    page = tmp_path / "pool.rst"
    page.write_text("``zorbq_pool`` -- Connection pools\n==================================\n\n"
                    ".. autoclass:: FrobPool\n\n   :param max_idle: Seconds a connection may stay unused.\n"
                    "   :type max_idle: `!float`, default: 10 minutes\n\n"
                    "   .. automethod:: drain\n\n      Close every connection in the pool.\n\n"
                    "      .. versionadded:: 3.3\n", encoding="utf-8")
    got = read_facts(page, "For zorbq_pool's FrobPool, in which release did drain appear, and what is the default "
                      "max_idle?")
    assert ("zorbq_pool", "drain", "3.3", "version", "new in") in got, got
    assert not any(o[1] == "max_idle" and o[3] == "version" for o in got), got


def test_a_size_the_asker_glosses_as_counts_asks_each_count_and_a_count_is_no_time() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    a = analyse("We're deciding between zorbq, frobhttp and Quux. How big is the default connection pool (total "
                "connections / connections per host / number of host pools)?")
    assert {"total connections", "connections per host", "number of host pools"} <= set(a.attributes), a.attributes
    assert "default connection pool size" not in a.attributes
    # "total connections" counts connections: a connect timeout of 30 seconds shares a stem, not the quantity
    assert not answers_metric("sock_connect", "s", "total_connections")
    assert answers_metric("max_connections", None, "total_connections")
    assert answers_metric("keepalive_timeout", "s", "keep_alive_timeout")  # (a time asked stays a time)


def test_two_sources_dating_a_named_release_differently_crowd_out_no_other_named_release() -> None:
    from openresearch.agents.write.answer import answer_section
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    def dated(n: int, url: str, version: str, day: str, ordinal: float) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=f"{version} - {day}", type="statistic", score=0.5,
                            source=SourceView(id=f"S-{url}", url=f"local:///docs/{url}", title=url),
                            entities=["Quux"],
                            observations=[ObservationView(id=f"O-{n}", entity="Quux", metric="release_date",
                                                          value=ordinal, unit="date", raw_value=day,
                                                          raw_unit="date", condition=version)])

    versions = ["1.1.5", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "2.0.0"]
    items = [dated(i + 1, "CHANGELOG.md", v, f"202{i // 4}-0{i % 4 + 1}-10", 737800.0 + 40 * i)
             for i, v in enumerate(versions)]
    items += [dated(20, "blog.md", "1.1.5", "2020-01-09", 737799.0), dated(21, "blog.md", "1.2.0", "2020-02-09",
                                                                            737839.0)]
    q = f"When were Quux {', '.join(versions[:-1])} and {versions[-1]} released?"
    p = Plan(question=q, kind="overview", entities=["Quux"], attributes=["release date"], metrics=["released"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Quux"])])
    first = answer_section(p, {"Q-1": items}, []).sentences[0]
    assert all(f"Quux {v}:" in first.text for v in versions), first.text
    assert "2020-01-09" in first.text and "2020-01-10" in first.text


def test_a_package_whose_name_extends_another_by_an_identifier_join_is_another_thing() -> None:
    from openresearch.agents.write.answer import same_thing

    # "zorbq_pool" is its own package: Zorbq's release dates are not its own
    assert not same_thing("Zorbq", "zorbq_pool") and not same_thing("zorbq-lint", "zorbq")
    assert same_thing("Zorbq 3", "Zorbq") and same_thing("Osgood, Indiana", "Osgood")
