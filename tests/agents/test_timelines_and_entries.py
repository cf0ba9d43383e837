"""A release timeline asked in any words ("when did each drop Frob 3.8 and Frob 3.9, and first support Frob 3.14?"),
a switch's new default in a change log ("frob_strict is set to True by default"), a drop and a support in one entry
("Drop Frob 3.8, 3.9 and support 3.13, 3.14"), a name after a figure in a clause about the figure ("which is the max
recommended default in the Zorbq settings"), and reference entries written as an option tag and its description in
one paragraph, or with a one-word paragraph ("or") between two examples. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.definitions import defined_term
from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extract_rules import Mention
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.releases import Release, change_log_notes
from openresearch.agents.extract.requirements import requirement_observations, says_dropped
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.plan.attributes import asks_release_dates
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file


def test_a_timeline_question_asks_each_event_of_each_product_and_the_platform_is_no_product() -> None:
    a = analyse("Give the Frob-version support timeline of Zorbq and Quux: in which releases, published on which "
                "dates, did each drop Frob 3.8 and Frob 3.9, and when did each first support Frob 3.14?")
    assert a.entities == ["Zorbq", "Quux"]
    # (each event is answered with its release and that release's date: no list of release dates besides)
    assert a.attributes == ["Frob 3.8 support dropped", "Frob 3.9 support dropped", "Frob 3.14 support added"], \
        a.attributes
    # a release the question names itself is asked its date
    a = analyse("When were Zorbq 2.0.0 and 2.1.0 released, and which of them dropped Frob 3.7?")
    assert a.attributes == ["release date", "Frob 3.7 support dropped"], a.attributes
    a = analyse("When did Zorbq drop Frob 3.8 and Frob 3.9, and when did it first support Frob 3.14?")
    assert a.entities == ["Zorbq"]
    assert a.attributes == ["Frob 3.8 support dropped", "Frob 3.9 support dropped", "Frob 3.14 support added"]
    # a yes-or-no question asks no release
    assert not any("support" in x for x in analyse("Does Zorbq support Frob 3.14?").attributes)


def test_the_release_a_switch_became_the_default_in_is_asked_and_read_from_the_change_log() -> None:
    q = ("What are Zorbq's default values for frob_limit and frob_window, and in which Zorbq release (and on what "
         "date) did frob_strict become True by default?")
    assert asks_release_dates(q, "en")
    assert "frob_strict changed" in analyse(q).attributes
    assert not asks_release_dates("On what date was Zorbq founded?", "en")  # no release asked
    release = Release(None, "3.0.0", "2024-02-04", 7)
    got = change_log_notes("frob_strict is set to True by default. See the docs.", release, "Zorbq") or []
    assert [(o.metric, o.value, o.unit, o.condition) for o in got] == [
        ("frob_strict", "3.0.0", "version", "default changed in")]
    # "back to" a value is the value it was set to, no part of the setting's name
    got = change_log_notes("Set default frob_limit back to 100 for compatibility.", release, "Zorbq") or []
    assert {(o.metric, o.value) for o in got} == {("frob_limit", "3.0.0"), ("frob_limit", "100")}


def test_a_drop_and_a_support_in_one_entry_are_both_read_of_the_same_platform() -> None:
    got = [(o.metric, o.value, o.condition) for o in
           requirement_observations("Drop Frob 3.8, 3.9 and support 3.13, 3.14", [], "Zorbq") or []]
    assert got == [("frob_version", "3.8", "dropped"), ("frob_version", "3.9", "dropped"),
                   ("frob_version", "3.13", "supported"), ("frob_version", "3.14", "supported")]
    got = [(o.value, o.condition) for o in
           requirement_observations("Drop EOL Frob 3.8; add Frob 3.13 support", [], "Zorbq") or []]
    assert got == [("3.8", "dropped"), ("3.13", "supported")]
    assert says_dropped("Drop support for Frob 3.8 (#12)") and not says_dropped("Support for Frob 3.8")


def test_a_name_in_a_clause_about_the_figure_does_not_own_it() -> None:
    s = ("The default value for the keep alive timeout is 5 seconds which is the max recommended default in the "
         "Zorbq settings.")
    at = s.index("Zorbq")
    got = observations(s, [Mention(at, at + 5, "Zorbq", "Zorbq")], set(), context_entity="Quux")
    assert [(o.entity, o.value, o.unit) for o in got] == [("Quux", "5", "seconds")], got
    # a name that owns it is still read
    s = "The Zorbq keep alive timeout is 5 seconds by default."
    got = observations(s, [Mention(0, 5, "Zorbq", "Zorbq")], set(), context_entity="Quux")
    assert {o.entity for o in got} == {"Zorbq"}


def test_an_option_tag_and_its_description_in_one_paragraph_head_the_entry() -> None:
    text = ("Tuning options:\n\n--frob-limit=INT Sets the number of frobs kept. Default is 8.\n\n"
            "--frob-window=INT A window, in seconds. Default is 30.\n\n"
            "--frob-count=INT How many frobs we trust. For example,\n\nX-Frob: 1, 2\n\nor\n\nFrob: for=1\n\n"
            "means two frobs.\n\nDefault: 1\n")
    assert defined_term(text, text.index("Default is 8")) == "--frob-limit"
    assert defined_term(text, text.index("Default is 30")) == "--frob-window"
    assert defined_term(text, text.index("Default: 1")) == "--frob-count"


def test_a_number_other_than_one_inside_a_paragraph_goes_on_with_it() -> None:
    text = "If there are two frobs in the path, this value should be set to\n2. If there are more, set it higher.\n"
    assert normalise_plain(text) == ("If there are two frobs in the path, this value should be set to 2. If there are "
                                     "more, set it higher.")
    # a list's items stay items
    assert normalise_plain("Steps:\n1. install it\n2. run it\n") == "Steps:\n\ninstall it\n\nrun it"


def test_an_option_entry_of_one_paragraph_takes_its_unit_from_itself_not_from_its_neighbours() -> None:
    from openresearch.agents.extract.definitions import entry_unit

    text = ("--frob-bytes=INT Number of bytes to read at once. Default is 8192.\n\n"
            "--frob-limit=INT Stop creating new frobs when too many are active. Default is 100.\n\n"
            "--frob-timeout=INT Maximum number of seconds to keep an idle frob. Default is 120.\n")
    assert entry_unit(text, text.index("Default is 8192")) == "bytes"
    assert entry_unit(text, text.index("Default is 100")) is None  # neither the bytes above nor the seconds below
    assert entry_unit(text, text.index("Default is 120")) == "seconds"


def test_a_settings_list_with_dashed_option_entries_gives_each_default_to_the_documented_product(
        tmp_path: Path) -> None:
    page = tmp_path / "settings.md"
    page.write_text("# Settings\n\nUse these options to configure Zorbq. Zorbq reads them at start.\n\n"
                    "* `--frob-ping <float>` - Set the GraphQL ping interval, in seconds. **Default:** *20.0*.\n"
                    "* `--frob-queue <int>` - Maximum number of frobs to hold in the accept queue, passed to the "
                    "socket's `listen()` call. Relevant for heavy incoming traffic. **Default:** *2048*.\n"
                    "* `--frobs <int>` - Number of frob processes. Defaults to the `$FROB_COUNT` environment "
                    "variable if available, or 1. Not valid with `--reload`.\n", encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(page),
                        "What are Zorbq's default frob ping interval, frob queue and number of frobs?")
    got = {(o.entity, o.metric, o.value, o.condition) for u in doc.units for o in u.observations}
    assert {("Zorbq", "frob_ping", "20.0", "default"), ("Zorbq", "frob_queue", "2048", "default"),
            ("Zorbq", "frobs", "1", "default")} <= got, got


def test_an_entry_is_described_by_its_prose_not_by_its_labelled_lines() -> None:
    from openresearch.agents.extract.definitions import entry_description

    text = ("Settings\n\nfrob_queue\n\nCommand line: --frob-queue INT\n\nDefault: 2048\n\n"
            "The maximum number of pending frobs.\n\n"
            "frob_workers\n\nCommand line: --frob-workers INT\n\nDefault: 1\n\nThe number of frob workers.\n")
    q = text.index("Default: 2048")
    assert entry_description(text, q, "frob_queue") == "The maximum number of pending frobs."
    assert entry_description(text, text.index("Default: 1"), "frob_workers") == "The number of frob workers."


def test_a_time_after_which_something_times_out_is_a_timeout_and_a_bounded_count_names_what_it_counts() -> None:
    def read(s: str) -> list[tuple[str, str, str | None, str | None]]:
        return [(o.metric, o.value, o.unit, o.condition) for o in observations(s, [], set(), context_entity="Zorbq")]

    assert read("The default behavior is to raise a FrobTimeout after 5 seconds of network inactivity.") == [
        ("timeout", "5", "seconds", "default")]
    assert read("The request times out after 30 seconds.") == [("timeout", "30", "seconds", None)]
    assert read("Idle frobs are closed after 75 seconds of inactivity.") == [("idle_timeout", "75", "seconds", None)]
    assert read("Zorbq restarts after 5 seconds.") == []  # no time-out: nothing comparable
    assert read("By default, it will keep a maximum of 10 FrobPool instances.") == [
        ("max_frob_pool_instances", "10", "instances", "default")]
    assert read("By default it keeps at most 10 pools.") == [("max_pools", "10", "pools", "default")]


def test_a_time_allowed_a_number_restated_in_digits_and_an_expiry_are_read() -> None:
    def read(s: str) -> list[tuple[str, str, str | None, str | None]]:
        return [(o.metric, o.value, o.unit, o.condition) for o in observations(s, [], set(), context_entity="Zorbq")]

    assert read("By default, frobs should execute within 180 seconds.") == [("timeout", "180", "seconds", "default")]
    assert read("Most requests complete within 5 ms.") == []  # how fast, not how long it may take
    assert read("Specifies the frob timeout, defaulting to two (2) seconds (2000 milliseconds).") == [
        ("frob_timeout", "two", "seconds", "default, 2000 milliseconds")]
    assert read("Results expire after 1 day by default.") == [("expiry", "1", "day", "default")]


def test_a_time_limit_is_a_timeout_but_another_kind_of_time_or_a_timeout_of_something_else_is_not() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    assert answers_metric("timeout", "seconds", "frob run time limit")
    assert answers_metric("frob_timeout", "seconds", "frob run time limit")
    assert not answers_metric("visibility_timeout", "minutes", "frob run time limit")  # a timeout of something else
    assert not answers_metric("timeout", "seconds", "connection limit")
    assert answers_metric("expiry", "day", "frob results retention time")
    assert not answers_metric("dead_message_ttl", "ms", "frob results retention time")
    assert answers_metric("min_backoff", "seconds", "retry delay")
    assert not answers_metric("retry_duration", "days", "retry delay")  # how long retrying goes on: no delay
    # a question's "how long ... kept open" (a duration) is answered by a timeout
    assert answers_metric("keep_alive_timeout", "seconds", "idle keep-alive connection is kept open duration")


def test_a_default_given_for_what_a_thing_is_called_is_that_words_threshold() -> None:
    got = observations("Reporters flag frobs that are slow (default: 75ms), as shown here:", [], set(),
                       context_entity="Zorbq")
    assert [(o.metric, o.value, o.unit, o.condition) for o in got] == [("slow_threshold", "75", "ms", "default")]
    got = observations("It is closed and replaced by a new one (default: 30 minutes).", [], set(),
                       context_entity="Zorbq")
    assert [o.metric for o in got] == ["value"]  # no word says what it is: the value of what the passage defines


def test_a_timeline_asked_in_chinese_asks_the_same_events_and_a_clause_is_no_name() -> None:
    a = analyse("Zorbq 和 Quux 分别在哪个版本、哪一天放弃了对 Frob 3.8 和 3.9 的支持？又是何时首次支持 Frob 3.14 的？")
    assert a.entities == ["Zorbq", "Quux"]
    assert a.attributes == ["Frob 3.8 support dropped", "Frob 3.9 support dropped", "Frob 3.14 support added"]
    a = analyse("Zorbq 在哪个版本中增加了对 Frob 3.14 的支持，该版本何时发布？")
    assert a.entities == ["Zorbq"] and a.attributes == ["Frob 3.14 support added"]


def test_the_release_that_dropped_a_version_outranks_the_one_that_first_supported_it(tmp_path: Path) -> None:
    from openresearch.agents.extract.extract_rules import sentence_units
    from openresearch.agents.plan.plan_converge import PlanBudget
    from openresearch.agents.plan.planner import DeterministicPlanner

    log = tmp_path / "CHANGES.md"
    log.write_text("# Changes\n\n## 0.40.0 (December 21, 2025)\n\n- Drop support for Frob 3.9 (#12)\n\n"
                   "## 0.34.0 (December 15, 2024)\n\n- Drop support for Frob 3.8 (#10)\n\n"
                   "## 0.20.0 (May 1, 2021)\n\n- Added Frob 3.9 support (#8)\n\n"
                   "## 0.10.0 (October 29, 2019)\n\n- Support for Frob 3.8\n", encoding="utf-8")
    embedder = HashEmbedder()
    plan = DeterministicPlanner(embedder).plan("When did Zorbq drop Frob 3.8 and Frob 3.9?", budget=PlanBudget())
    x = DeterministicExtractor(embedder, AliasResolver({}))
    x.prepare_plan(plan)
    src = parse_local_file(log)
    units = sentence_units(src.text, x.max_sentence_chars)
    sq = plan.sub_questions[0]
    scores = dict(zip((src.text[u.start:u.end] for u in units),
                      x.score(src.text, units, x.mentions(src.text, units, sq, plan), sq, plan, None, src),
                      strict=True))
    # the version asked, but its first support: no answer to when it was dropped (the release bonus is the drop's)
    for drop, support in (("Drop support for Frob 3.8 (#10)", "Support for Frob 3.8"),
                          ("Drop support for Frob 3.9 (#12)", "Added Frob 3.9 support (#8)")):
        assert scores[drop] - scores[support] >= 0.2, scores


def test_the_name_a_default_is_given_for_is_kept_as_where_it_holds() -> None:
    # the figure is the asked product's, under the name it is given for (a broker, a platform): no disagreement
    # with the same setting's default elsewhere
    got = observations("The default visibility timeout for Blarg is 1 hour.", [], {"Zorbq"}, context_entity="Zorbq")
    assert [(o.entity, o.metric, o.value, o.condition) for o in got] == [
        ("Zorbq", "visibility_timeout", "1", "default, Blarg")]


def test_a_chinese_enumeration_is_read_item_by_item_with_the_english_words_it_writes() -> None:
    from openresearch.agents.plan.attributes import metric_key, with_english

    a = analyse("比较 Zorbq、Quux 和 Blarg 的三个默认值：(a) 空闲的 keep-alive 连接保持打开多久，(b) listen() 的待处理"
                "连接积压队列（backlog）大小，(c) 默认的工作进程数（Blarg 是单进程的，取默认工作线程数）。")
    assert a.entities == ["Zorbq", "Quux", "Blarg"]
    assert a.attributes == ["空闲的 keep-alive 连接保持打开多久", "listen 的待处理连接积压队列 (backlog) 大小",
                            "默认的工作进程数"], a.attributes
    # each keyed by the English words a source would name it with; a queue's size is its depth, never bytes
    assert a.metrics == ["keep_alive_idle_connection_keep_open_duration", "listen_backlog_connection_queue_depth",
                         "default_worker_process_number"], a.metrics
    assert with_english("解码性能") == "解码性能 decode performance"
    assert metric_key("表结构") == "max_columns" and metric_key("写入吞吐") == "ingest_throughput"  # known ones stay


def test_a_count_is_never_answered_by_a_time_nor_a_default_by_its_condition_alone() -> None:
    from openresearch.agents.extract.metric_names import answers_by_operation, answers_metric

    assert not answers_metric("retry_delay", "minutes", "frob default retry count")
    assert answers_metric("max_retries", None, "frob default retry count")
    assert not answers_metric("connect_timeout", "seconds", "pool default maximum number server")
    # a time whose condition is only "default" says no operation of the attribute
    assert not answers_by_operation("ms", "default", "frob default retry count")
    assert not answers_by_operation("ms", "default", "frob default wait")
    assert answers_by_operation("MB/s", "Decoder Generic", "解码性能 decode performance")


def test_a_chinese_comparison_list_names_what_is_compared_and_its_clauses_what_is_asked() -> None:
    a = analyse("我们在选 Frob 任务队列，比较 Zorbq、Quux、Blarg 和 Wibble 的开箱即用行为：失败的任务默认自动重试几次、"
                "每次重试前等待多久？任务结果默认保留多久后过期？")
    assert a.entities == ["Zorbq", "Quux", "Blarg", "Wibble"]  # "Frob" names the kind of thing, no product compared
    assert a.metrics == ["retention", "job_default_retry_count", "retry_wait_duration"], a.metrics
