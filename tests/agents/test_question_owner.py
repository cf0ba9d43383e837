"""A question that names its product only as the owner of what it asks ("What are zorbd's default queue
settings for action queues?"), in lower case: the owner is the entity when no ordinary English word is; what is
asked is the owned phrase, and what follows "for" says of which. The names are made up."""

from __future__ import annotations

from openresearch.agents.plan.analysis import _owner, analyse
from openresearch.agents.plan.vocabulary import ordinary_word


def test_the_vocabulary_tells_ordinary_words_from_names() -> None:
    assert ordinary_word("world") and ordinary_word("Kernel") and ordinary_word("vector")
    assert not ordinary_word("zorbd") and not ordinary_word("quollsyslog")


def test_a_lower_case_owner_is_the_entity() -> None:
    a = analyse("What are quollsyslog's default queue settings for action and ruleset/main queues?")
    assert a.entities == ["quollsyslog"] and a.attributes == ["default queue settings"]
    a = analyse("What are quollsyslog's default queue settings (queue size, high watermark, enqueue timeout)?")
    assert a.entities == ["quollsyslog"]
    assert a.attributes == ["default queue settings", "queue size", "high watermark", "enqueue timeout"]
    a = analyse("What are Quux's write throughput and p99 latency on 3 nodes?")
    assert a.entities == ["Quux"] and a.attributes == ["write throughput", "p99 latency"]
    assert _owner("What are the kernel's default limits for open files?") is None  # an ordinary word
    assert _owner("What are zorbd2's limits?") == (9, "zorbd2")


def test_an_owned_list_of_settings_names_the_settings_and_one_entity() -> None:
    a = analyse("What are Quux's default settings for the development server (port, bind address, live-reload port), "
                "pagination page size, summary length, file-cache maxAge, and JPEG/WebP image encoding (quality, "
                "WebP method)?")
    assert a.entities == ["Quux"]  # the formats and the setting named in the list qualify what is asked
    assert a.attributes == ["port", "bind address", "live-reload port", "pagination page size", "summary length",
                            "file-cache maxAge", "quality", "WebP method"]


def test_a_compared_attribute_keeps_what_it_is_measured_under() -> None:
    from openresearch.agents.plan.attributes import attribute_head, metric_key

    a = analyse("How do Quux, Zorbly, Wexgen and Frob compare on build time for a 1,000-page site, peak memory use "
                "during the build, and the default port of their local development server?")
    assert a.entities == ["Quux", "Zorbly", "Wexgen", "Frob"]
    assert a.attributes == ["build time for a 1,000-page site", "peak memory use during the build",
                            "default port of their local development server"]
    assert attribute_head("build time for a 1,000-page site") == "build time"
    assert metric_key("build time for a 1,000-page site") == "build_time"
