"""Questions as engineers write them: owners' parts compared, clauses that gloss what is asked, wh-clauses in a row,
subjects listed before their verb, hyphenated names (names are made up)."""

from openresearch.agents.plan.analysis import analyse


def test_an_owners_part_compared_is_its_owner() -> None:
    a = analyse("How do zorbs' function decorators, Quux's FrobCache and Blarg-Wibble's DiskStore compare on the "
                "maximum size and the default timeout?")
    assert a.entities == ["zorbs", "Quux", "Blarg-Wibble"]
    assert a.attributes == ["maximum size", "default timeout"]


def test_how_big_a_thing_can_get_asks_its_largest_size_and_a_clause_aside_is_no_attribute() -> None:
    a = analyse("How do Zorbq, Quux and Frob compare on how big each cache can get before it starts evicting (max "
                "number of items or max size on disk) and on the default time-out (how long entries live before "
                "they expire, and how long Frob waits for a lock)?")
    assert a.entities == ["Zorbq", "Quux", "Frob"]
    assert a.attributes == ["max number of items", "max size on disk", "default time-out"]
    b = analyse("How big can a Zorbq queue grow, and what is its default timeout?")
    assert b.attributes[0] == "maximum queue size"  # (the name is the owner, not part of the size)


def test_subjects_listed_before_their_verb_are_compared_and_stopping_support_is_a_drop() -> None:
    a = analyse("When did zorbq and frob.cache stop supporting Quux 3.8 (requiring Quux 3.9), in which release and "
                "on what date?")
    assert a.entities == ["zorbq", "frob.cache"]
    assert a.attributes == ["Quux 3.8 support dropped"]  # (its date is the release's: no separate row)
    b = analyse("When did Zorbq and Wibble drop Blarg 8 and first support Blarg 21?")
    assert b.entities == ["Zorbq", "Wibble"]
    assert b.attributes == ["Blarg 8 support dropped", "Blarg 21 support added"]
    c = analyse("When did zorbq drop 2 workers?")  # a whole number after a word in lower case is no platform
    assert not any("support" in x for x in c.attributes)


def test_wh_clauses_in_a_row_each_ask_their_noun_phrase() -> None:
    a = analyse("I'm choosing between Zorbq, Quux and Frob. For each, what is the default per-job run time limit, how "
                "long are outputs kept before they expire, how many times is a failed job retried, and what is the "
                "default worker parallelism and batch size?")
    assert a.entities == ["Zorbq", "Quux", "Frob"]
    assert a.attributes == ["outputs expiry time", "job retries", "default per-job run time limit",
                            "default worker parallelism", "batch size"]


def test_a_list_after_differ_in_and_after_what_are_the_defaults_for() -> None:
    a = analyse("How do Zorbq, Quux and Frob differ in their default idle timeout, drain timeout and accept() queue "
                "length?")
    assert a.attributes == ["default idle timeout", "drain timeout", "accept queue length"]
    b = analyse("For Zorbq specifically: what are the current defaults for --frob-limit, --backlog and --quux-delay?")
    assert b.entities == ["Zorbq"]
    assert b.attributes == ["frob-limit", "backlog", "quux-delay"]
    c = analyse("For Zorbq (py-zorbq): what is the default run timeout, the default output TTL, and how many workers "
                "does `zorbq pool` start?")
    assert c.attributes == ["workers per pool", "default run timeout", "default output TTL", "workers"]


def test_a_hyphenated_name_is_one_name_but_a_word_after_a_hyphen_is_not_part_of_it() -> None:
    a = analyse("What are Zorbq-Caching's documented configuration defaults for the default timeout, the item "
                "threshold, the Frob port and the cache-key hash method?")
    assert a.entities == ["Zorbq-Caching"]
    assert a.attributes == ["default timeout", "item threshold", "Frob port", "cache-key hash method"]
    b = analyse("Give the Frob-version support timeline of Zorbq and Quux: when did each drop Frob 3.8?")
    assert b.entities == ["Zorbq", "Quux"]


def test_two_classes_a_slash_offers_as_alternatives_are_no_repository() -> None:
    from openresearch.ingest.records.spec import routed_specs

    assert routed_specs("What is the ZorbCache/QuuxCache item threshold, and is that version released yet?") == []
    assert [s.target for s in routed_specs("How many releases did zorbq/QuuxLib publish in 2024?")] == ["zorbq/QuuxLib"]


def test_a_later_sentence_that_asks_to_compare_names_what_is_compared_and_its_clause_items_are_no_attributes() -> None:
    a = analyse("Before I choose a store for a Zorbq app: how large can each of these stores get before old "
                "entries go, and what default lifetime/TTL applies to keys set without one? Compare quuxkits' "
                "quuxkits.memo helpers (memo/timed_memo), FrobStore's Store/ShardedStore (disk limit, number of "
                "shards and how the limit is shared between them, and what its 'lease' option really does), "
                "and Blarg-Store's MemoryStore/FileStore kinds.")
    assert a.entities == ["quuxkits", "FrobStore", "Blarg-Store"]
    assert a.attributes == ["maximum store size", "disk limit", "number of shards", "lease", "default lifetime/TTL"]


def test_two_names_that_share_only_what_their_quantities_are_of_answer_nothing_of_each_other() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    assert not answers_metric("zorb_prefetch_factor", None, "default zorb concurrency")
    assert not answers_metric("frob_protocol", None, "frob retries")
    assert answers_metric("frob_ttl", "s", "frob expiry time")  # (a synonym of the head is the head)
    assert answers_metric("zorb_threads", None, "zorb threads per process")
    assert answers_metric("keep_alive_timeout", "seconds", "idle keep-alive connection is kept open duration")


def test_a_later_compare_sentence_makes_a_comparison_and_a_written_unit_is_not_repeated() -> None:
    from openresearch.agents.extract.metric_names import answers_metric
    from openresearch.numbers import written_with_unit

    a = analyse("Before I choose a store for a Zorbq app: how large can each of these stores get? Compare quuxkit, "
                "FrobStore and Blarg.")
    assert a.kind == "comparison"  # (not a choice made for the asker)
    assert written_with_unit("one gigabyte", "gigabytes") == "one gigabyte"
    assert answers_metric("maxsize", None, "max size on disk")  # ("maxsize" is a size)


def test_release_questions_in_the_plural_with_coordinated_changes_and_lists_ask_each_one() -> None:
    a = analyse("For Zorbq: what is the default --frob-delay, and in which releases (with dates) did the frob_delay "
                "default change to 0.25 and the Quux max_size default become 16MB?")
    assert a.attributes == ["default --frob-delay", "frob_delay changed", "max_size changed"]
    b = analyse("For Zorbq (py-zorbq): what is the default run timeout? Also, according to CHANGES.md, in which Zorbq "
                "releases (with dates) were automatic cleanup of stale locks (LockRegistry), automatic retrying of "
                "failed runs, and FrobPool introduced?")
    assert b.attributes == ["default run timeout", "automatic cleanup of stale locks (LockRegistry) introduced",
                            "automatic retrying of failed runs introduced", "FrobPool introduced"]
    c = analyse("According to their changelogs, in which release and on what date did Zorbq and Quux each drop "
                "support for Frob 3.8 and for Frob 3.9, and when did each first declare support for Frob 3.14?")
    assert c.attributes == ["Frob 3.8 support dropped", "Frob 3.9 support dropped", "Frob 3.14 support added"]


def test_a_chinese_item_is_asked_once_and_prefetch_has_its_english_word() -> None:
    a = analyse("对 Zorbq、Quux 和 Frob 每一个：默认的单个任务执行时间限制是多少？"
                "默认的 worker 并发数和预取（prefetch）是多少？")
    assert "默认的单个任务执行时间限制是多少" not in a.attributes and "单个任务执行时间限制" in a.attributes
    assert "prefetch" in a.metrics


def test_a_timeout_of_a_thing_answers_no_other_quantity_of_that_thing() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    assert not answers_metric("zorb_soft_shutdown_timeout", "ms", "default zorb concurrency")


def test_a_need_stated_for_an_owners_defaults_lists_the_settings_and_keys_joined_by_and() -> None:
    a = analyse("For a frobd deployment I need Zorbq's defaults for the main log rotation (frob_maxbytes and "
                "frob_backups), the default wibble descriptor floor, and the default quitcodes for a [job:x] "
                "section.")
    assert a.entities == ["Zorbq"]
    assert a.attributes[:4] == ["frob_maxbytes", "frob_backups", "default wibble descriptor floor", "default quitcodes"]
