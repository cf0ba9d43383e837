"""A question of several sentences asks in its asking sentence; a context sentence before it ("I'm choosing between
A, B and C.") names what is compared, not what kind of answer is wanted. Pre-release versions written with a dash
("2.0.0-beta-1") are one version everywhere: in the question, in a change log's headings and in the answer. The
names are made up."""

from __future__ import annotations

from openresearch.agents.extract.releases import asked_releases, release_asked, release_heading
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.write.answer import answer_section, figure_words
from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

CHOOSING = ("I'm choosing between Quux, Zorb, Blarg and FRB. Out of the box, with no configuration, what is each "
            "tool's default per-request timeout, its default timeout for retries (first/second/last), and the "
            "threshold above which a request is reported as 'slow'? Give units, and say where a tool uses other "
            "defaults (e.g. in proxy mode).")


def test_the_asking_sentence_decides_the_kind_and_names_the_attributes() -> None:
    a = analyse(CHOOSING)
    assert a.kind == "comparison"  # figures of each, not a recommendation
    assert a.entities == ["Quux", "Zorb", "Blarg", "FRB"]  # the slash list glosses the retries: no names
    assert a.attributes == ["default per-request timeout", "default timeout for retries", "threshold (slow)"]
    # the same context sentence before a question that asks to choose
    assert analyse("I'm choosing between Quux, Zorb and Blarg. Which should I use for small teams?").kind == \
        "selection"
    # a relative clause after a preposition asks nothing ("above which"), and the owner may be "each one's"
    b = analyse("What is each library's maximum depth, and the size above which a document is streamed?")
    assert b.kind != "selection"


def test_release_dates_asked_without_when_and_pre_releases_written_with_dashes() -> None:
    a = analyse("What were the release dates of Quux 10.0.0, 10.4.0, 12.0.0-beta-1 and 12.0.0-rc.1?")
    assert a.entities == ["Quux"] and a.attributes == ["release date"] and a.metrics == ["released"]
    heading = release_heading("12.0.0-beta-1 (2025-11-25)")
    assert heading is not None and heading.version == "12.0.0-beta-1" and heading.date == "2025-11-25"
    named = asked_releases(a.question)
    assert release_asked("12.0.0-beta-1", named) and release_asked("12.0.0-rc.1", named)
    assert not release_asked("12.0.0-beta-2", named)
    # a version's parts are no figures the question asks under ("for 1,000 pages" is one)
    assert figure_words("Quux 12.0.0-beta-1 and 12.0.0-rc.1 for 1,000 pages") == {"#1000"}


def test_every_named_release_is_answered_whatever_digits_its_version_shares() -> None:
    def heading(n: int, version: str, date: str) -> EvidenceView:
        eid = f"E-{n:012d}"
        return EvidenceView(id=eid, quote=f"{version} ({date})", type="statistic", score=0.5,
                            source=SourceView(id="S-log", url="local:///docs/CHANGELOG.md", title="Changelog"),
                            entities=["Quux"],
                            observations=[ObservationView(id=f"O-{n}", entity="Quux", metric="release_date",
                                                          value=float(date.replace("-", "")), unit="date",
                                                          raw_value=date, raw_unit="date", condition=version)])

    q = "What were the release dates of Quux 10.4.0, 11.0.0 and 12.0.0-beta-1?"
    p = Plan(question=q, kind="overview", entities=["Quux"], attributes=["release date"], metrics=["released"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Quux"])])
    items = [heading(1, "12.0.0-beta-1", "2025-11-01"), heading(2, "12.0.0-beta-2", "2025-11-26"),
             heading(3, "11.0.0", "2024-11-11"), heading(4, "10.4.0", "2024-03-26")]
    first = answer_section(p, {"Q-1": items}, []).sentences[0]
    # "-1" of the question asks no figure "1": the dates whose heading writes no "01" stay
    assert first.text == ("Release date: Quux 10.4.0: 2024-03-26 [E-000000000004]; Quux 11.0.0: 2024-11-11 "
                          "[E-000000000003]; Quux 12.0.0-beta-1: 2025-11-01 [E-000000000001].")


def test_keys_listed_for_their_defaults_are_attributes_not_names() -> None:
    a = analyse("For Zorbly (current docs), what are the default values of retryDelay and idleTimeout (both in "
                "Frobnode and in proxy mode), max_open_files, retry and clearCache? In which Zorbly version was the "
                "retry option added? And what minimum Frobnode and Blarg versions does Zorbly 5.0 require?")
    assert a.entities == ["Zorbly"]  # where the figures hold and what it needs are no names compared with it
    # (and the release that added one of them, a later sentence asks)
    assert a.attributes == ["retryDelay", "idleTimeout", "max_open_files", "retry", "clearCache", "retry added"]
    assert a.metrics == ["retry_delay", "idle_timeout", "max_open_files", "retry", "clear_cache"]  # as entries read
    assert a.kind != "selection"  # "in which version" asks when, nothing to choose
    # a lower-case name whose first part is no word is a name ("macOS", "jQuery")
    assert "jQuery" in analyse("What are the default settings of jQuery and Zorbly?").entities


def test_a_row_of_a_key_holds_that_keys_figures_each_with_the_unit_its_entry_gives() -> None:
    def default(n: int, metric: str, raw: str, value: float) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=f"Default: {raw}", type="statistic", score=0.5,
                            source=SourceView(id=f"S-{n}", url=f"local:///docs/{metric}.md", title=metric),
                            entities=["Zorbly"],
                            observations=[ObservationView(id=f"O-{n}", entity="Zorbly", metric=metric, value=value,
                                                          unit="ms", raw_value=raw, raw_unit="milliseconds",
                                                          condition="default")])

    q = "For Zorbly, what are the default values of connectTimeout, idleTimeout and drainTimeout?"
    p = Plan(question=q, kind="overview", entities=["Zorbly"],
             attributes=["connectTimeout", "idleTimeout", "drainTimeout"],
             metrics=["connect_timeout", "idle_timeout", "drain_timeout"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbly"])])
    items = [default(1, "connect_timeout", "250", 250.0), default(2, "idle_timeout", "5_000", 5000.0)]
    text = " ".join(s.text for s in answer_section(p, {"Q-1": items}, []).sentences)
    # each row its own key's figure (not every delay or timeout), with the unit its entry's description gave
    assert "ConnectTimeout: Zorbly 250 milliseconds (default) [E-000000000001]." in text
    assert "IdleTimeout: Zorbly 5_000 milliseconds (default) [E-000000000002]." in text
    assert "DrainTimeout: no figure found for Zorbly." in text  # a key asked by name is no other key's timeout


def test_how_many_and_how_long_clauses_with_their_own_subjects_are_attributes() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("I'm comparing Zorbd, Quuxpool and Frobnode as they come out of the box. By default, how many server "
                "(backend) connections can one pool hold, how long may a server connection live before the pooler "
                "closes and replaces it, and how long does each pooler wait for a new backend connection to be "
                "established before giving up? Please give the units.")
    assert a.entities == ["Zorbd", "Quuxpool", "Frobnode"]
    assert a.attributes == ["server connections per pool", "server connection lifetime",
                            "backend connection wait timeout"]
    # the compared thing is no subject of the attribute; a passive "how long is ... supported" reads as before
    assert analyse("How many downloads does Quux run at once, and how long does it wait before retrying?"
                   ).attributes == ["downloads", "retry delay"]  # a wait before retrying is a retry's delay
    assert analyse("Compare Zork, Quux and Frob: how long is a release supported?").attributes[:1] == \
        ["support duration"]


def test_of_several_defaults_sharing_a_word_the_row_keeps_the_key_that_says_its_words_best() -> None:
    def default(n: int, entity: str, metric: str, value: float, unit: str | None) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=f"Default: {value}", type="statistic", score=0.5,
                            source=SourceView(id=f"S-{n}", url=f"local:///docs/{entity}.md", title=entity),
                            entities=[entity],
                            observations=[ObservationView(id=f"O-{n}", entity=entity, metric=metric, value=value,
                                                          unit=unit or "", raw_value=str(value),
                                                          raw_unit=unit or "", condition="default")])

    q = ("Comparing Zorbd and Quuxpool by default: how many server (backend) connections can one pool hold, and how "
         "long does each wait for a new backend connection to be established before giving up?")
    p = Plan(question=q, kind="comparison", entities=["Zorbd", "Quuxpool"],
             attributes=["server connections per pool", "backend connection wait timeout"],
             metrics=["server_connections_per_pool", "backend_connection_wait_timeout"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbd", "Quuxpool"])])
    items = [default(1, "Zorbd", "query_wait_timeout", 120.0, "s"),
             default(2, "Zorbd", "server_connect_timeout", 15.0, "s"),
             default(3, "Zorbd", "cancel_wait_timeout", 10.0, "s"),
             default(4, "Zorbd", "default_pool_size", 20.0, None),
             default(5, "Zorbd", "min_pool_size", 0.0, None), default(6, "Quuxpool", "pool_size", 9.0, None),
             default(7, "Quuxpool", "server_round_robin", 0.0, None)]
    text = " ".join(s.text for s in answer_section(p, {"Q-1": items}, []).sentences)
    # "server (backend)": the asker's gloss joins the words; the count per pool is the pool's size
    assert "Zorbd 15" in text and "120" not in text and "Zorbd 10" not in text, text
    assert "Zorbd 20" in text and "Quuxpool 9" in text and "Zorbd 0" not in text, text


def test_the_release_a_change_log_entry_is_under_is_cited_with_its_heading() -> None:
    src = SourceView(id="S-news", url="local:///docs/NEWS.md", title="Zorbd changelog")

    def ev(n: int, quote: str, obs: list[ObservationView]) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=["Zorbd"], observations=obs)

    def version(n: int, raw: str, condition: str) -> ObservationView:
        return ObservationView(id=f"O-{n}", entity="Zorbd", metric="zorb_cache_size", value=0.0, unit="version",
                               raw_value=raw, raw_unit="version", condition=condition)

    entry = ev(1, "To benefit you need to change the new zorb_cache_size setting to a non-zero value.",
               [version(1, "1.21.0", "added in")])
    default = ev(3, "Default: 200", [ObservationView(id="O-3", entity="Zorbd", metric="zorb_cache_size", value=200.0,
                                                      unit="", raw_value="200", raw_unit="", condition="default")])
    heading = ev(2, '2023-10-16 - Zorbd 1.21.0 - "The one with caching"', [])
    q = "For Zorbd, what is the default of zorb_cache_size, and in which release was it added?"
    p = Plan(question=q, kind="overview", entities=["Zorbd"], attributes=["zorb_cache_size"],
             metrics=["zorb_cache_size"], sub_questions=[SubQuestion(id="Q-1", text=q, role="core",
                                                                     entities=["Zorbd"])])
    text = " ".join(s.text for s in answer_section(p, {"Q-1": [entry, default, heading]}, []).sentences)
    assert "added in 1.21.0 [E-000000000001][E-000000000002]" in text, text
    # without a gathered quote that writes the release, the release is not said
    text = " ".join(s.text for s in answer_section(p, {"Q-1": [entry, default]}, []).sentences)
    assert "1.21.0" not in text and "Zorbd 200" in text, text


def test_a_timeline_question_of_two_products_asks_each_ones_named_releases() -> None:
    q = ("For an upgrade timeline I need release dates. When were Zorbq 1.0.0, 1.17.0 and 2.0.0 released? Which "
         "Zorbq release changed the default max retries to 20? And on the Quux side, when were Quux 1.0, 1.16 and "
         "2.5 released?")
    a = analyse(q)
    # the products, not seven "entities"; "the Quux side" and the "20" of a default are no attribute or release
    assert a.entities == ["Zorbq", "Quux"] and a.attributes == ["release date", "default max retries changed"]
    from openresearch.agents.extract.releases import exact_releases, releases_asked_of

    zorbq = releases_asked_of(q, "Zorbq", a.entities)
    quux = releases_asked_of(q, "Quux", a.entities)
    assert [r.written for r in zorbq] == ["1.0.0", "1.17.0", "2.0.0"] and [r.written for r in quux] == \
        ["1.0", "1.16", "2.5"]
    # the release named exactly where a source dates it: "1.16", not 1.16.1; "2.0.0" is "2.0"
    assert exact_releases(["1.16.2", "1.16.1", "1.16", "2.5.0", "1.0"], quux) == ["1.0", "1.16", "2.5.0"]

    def heading(n: int, entity: str, version: str, date: str) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=f"{version} ({date})", type="statistic", score=0.5,
                            source=SourceView(id=f"S-{entity}", url=f"local:///docs/{entity}.md", title=entity),
                            entities=[entity],
                            observations=[ObservationView(id=f"O-{n}", entity=entity, metric="release_date",
                                                          value=float(date.replace("-", "")), unit="date",
                                                          raw_value=date, raw_unit="date", condition=version)])

    p = Plan(question=q, kind="comparison", entities=["Zorbq", "Quux"], attributes=["release date"],
             metrics=["released"], sub_questions=[SubQuestion(id="Q-1", text=q, role="core",
                                                              entities=["Zorbq", "Quux"])])
    items = [heading(1, "Zorbq", "2.0.0", "2025-11-18"), heading(2, "Zorbq", "1.16.0", "2024-01-25"),
             heading(3, "Zorbq", "1.0.0", "2018-03-31"), heading(4, "Quux", "1.16.1", "2024-03-09"),
             heading(5, "Quux", "1.16", "2024-02-24"), heading(6, "Quux", "1.0", "2019-04-06")]
    first, gap = answer_section(p, {"Q-1": items}, []).sentences[:2]
    # each product's named releases, whole; not the other product's "1.16" in Zorbq's cell, nor 1.16.1
    assert first.text == ("Release date: Zorbq 1.0.0: 2018-03-31 [E-000000000003]; Zorbq 2.0.0: 2025-11-18 "
                          "[E-000000000001]; Quux 1.0: 2019-04-06 [E-000000000006]; Quux 1.16: 2024-02-24 "
                          "[E-000000000005].")
    assert gap.kind == "gap" and gap.text == "No figure found for Zorbq 1.17.0, Quux 2.5."


def test_passive_and_verbless_clauses_of_a_list_are_attributes_and_a_later_sentence_asks_one_more() -> None:
    a = analyse("We're choosing a job runner and comparing Zorbq, Quux, Frob and Blarg as they behave out of the "
                "box. For each one: how long is a single job allowed to run before the worker kills it, how many "
                "times is a failing job retried automatically and how long does it wait before retrying, and how "
                "long are a job's results kept before they expire?")
    assert a.entities == ["Zorbq", "Quux", "Frob", "Blarg"]  # "a job runner" is none; "each one" no attribute
    assert a.attributes == ["job run time limit", "job retries", "retry delay", "job results expiry time"]
    b = analyse("We run Zorbq with Quux (and are evaluating Frob) as the broker. What are the defaults for: the "
                "prefetch multiplier, the timeout for establishing a broker connection, how long a worker waits for "
                "missing results, and the visibility timeout on Quux and on Frob? Also, what is the default "
                "shutdown timeout for workers, and in which release was that setting introduced?")
    assert b.entities == ["Zorbq"]  # what it runs with, and an aside, are no compared names
    assert b.attributes == ["worker missing results wait duration", "prefetch multiplier",
                            "timeout for establishing a broker connection", "visibility timeout on Quux",
                            "visibility timeout on Frob", "default shutdown timeout for workers"]
