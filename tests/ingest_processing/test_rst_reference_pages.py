"""reStructuredText reference pages read as their rendered page reads: a heading's tilde underline is no code fence
(everything after it was lost), literal blocks are code, object entries head their descriptions, version notes
read as Sphinx renders them, a field of a described object is an entry, and a change log's headings written as
references ("`1.17.0`_ -- 2024-05-09") are dated releases. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.releases import change_log_notes, release_heading
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.rst import rst_blocks
from openresearch.ingest.settings_lines import fence_at

CHANGELOG = """Changelog
=========

`Unreleased`_
-------------

`2.0.0`_ -- 2025-11-18
----------------------

Breaking Changes
^^^^^^^^^^^^^^^^

Major Breaking Changes
~~~~~~~~~~~~~~~~~~~~~~

* The ``fail_fast`` argument now defaults to True.
  (`#739`_, `@someone`_)

.. _#739: https://example.org/zorbq/issues/739

`1.17.0`_ -- 2024-05-09
-----------------------

Added
^^^^^

* Hooks for worker thread boot. (`#619`_)

`0.5.2`_ -- 2017-06-29
----------------------

Changed
^^^^^^^

* Changed the default max retries value from ``None`` to ``20``, meaning tasks are now retried for up to
  about 30 days before they're dead-lettered by default.
"""

REFERENCE = """Task options
============

You can also set these options in class-based tasks:

.. code-block:: python

    class BaseTaskWithRetry(Task):
        max_retries = 5
        retry_backoff_max = 700

.. attribute:: Task.max_retries

    A number. Maximum number of retries before giving up. By default, this option is set to ``3``.

.. attribute:: Task.default_retry_delay

    Default time in seconds before a retry of the task should be executed.
    Default is a three minute delay.

.. setting:: zorbq_soft_shutdown_timeout

``zorbq_soft_shutdown_timeout``
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
.. versionadded:: 5.5

Default: 0.0.

Storage options:

    :param int expire_time: Expire time in seconds, default is 86400 (1 day).
    :param bool blocking: Use blocking-pop when reading from the queue. Default is true.

If the task failed, reading the result raises::

    >>> res.get(retries=9)
    Traceback (most recent call last):

.. toctree::
   :maxdepth: 2

The end.
"""


def test_a_tilde_underline_is_no_fence_and_a_changelogs_reference_headings_are_dated_releases() -> None:
    lines = CHANGELOG.splitlines()
    at = lines.index("~~~~~~~~~~~~~~~~~~~~~~")
    assert fence_at(lines, at) is None  # "Major Breaking Changes" over it: an underline
    assert fence_at(["Some text", "", "~~~", "code", "~~~"], 2) is not None  # a Markdown fence stays one
    text = normalise_plain(CHANGELOG)
    assert "fail_fast argument now defaults to True" in text and "0.5.2 -- 2017-06-29" in text  # nothing lost
    heading = release_heading("1.17.0 -- 2024-05-09")
    assert heading is not None and heading.version == "1.17.0" and heading.date == "2024-05-09"
    notes = change_log_notes("Changed the default max retries value from None to 20, meaning tasks are now retried",
                             release_heading("0.5.2 -- 2017-06-29"), "Zorbq")
    assert notes is not None
    assert [(o.metric, o.value, o.unit, o.condition) for o in notes] == [
        ("max_retries", "0.5.2", "version", "default changed in"), ("max_retries", "20", None, "default since 0.5.2")]


def test_a_changelog_in_restructuredtext_gives_each_release_its_date(tmp_path: Path) -> None:
    path = tmp_path / "zorbq-changelog.rst"
    path.write_text(CHANGELOG, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "When were Zorbq 1.17.0 and 2.0.0 released?")
    dates = {(o.condition, str(o.value)) for u in doc.units for o in u.observations if o.metric == "release_date"}
    assert {("1.17.0", "2024-05-09"), ("2.0.0", "2025-11-18")} <= dates, dates


def test_directives_read_as_the_rendered_page() -> None:
    lines = rst_blocks(REFERENCE.splitlines())
    text = normalise_plain(REFERENCE)
    # code is code: an example's "max_retries = 5" is no paragraph to quote, nor is a doctest after "::"
    assert "BaseTaskWithRetry" not in text and "res.get" not in text
    assert "reading the result raises:\n" in "\n".join(lines) and "reading the result raises:" in text
    # an object's entry heads its description, without the class that qualifies it
    assert "max_retries\n\nA number. Maximum number of retries before giving up." in text
    assert "default_retry_delay\n\nDefault time in seconds" in text
    # an index target over the heading that names it adds no second heading; the version note reads as rendered
    assert text.count("zorbq_soft_shutdown_timeout") == 1 and "New in version 5.5." in text
    # a described object's field is an entry: its name over its description
    assert "expire_time\n\nExpire time in seconds, default is 86400 (1 day)." in text
    assert "toctree" not in text and "maxdepth" not in text and "The end." in text
    assert rst_blocks(["plain", "text"]) == ["plain", "text"]  # nothing of reStructuredText: unchanged


def test_a_reference_pages_entries_give_their_defaults(tmp_path: Path) -> None:
    path = tmp_path / "zorbq-tasks.rst"
    path.write_text(REFERENCE, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "What are Zorbq's default max_retries and expire_time?")
    obs = {(o.metric, str(o.value)) for u in doc.units for o in u.observations}
    assert ("max_retries", "3") in obs and ("expire_time", "86400") in obs, obs
    assert ("max_retries", "5") not in obs  # the example's value


WHATS_NEW = """***************************
 What's New in Zorbq 3.3
***************************

.. toctree::
   :maxdepth: 2

:Release:3.3
:Date: 2024-09-20

Summary -- Release highlights
=============================

What's new in Zorbq 3.3.9?
---------------------------
Release date: 2025-10-05

False Positives Fixed
---------------------

- Fix a false positive for type aliases.

What's new in Zorbq 3.3.8?
---------------------------
Release date: 2025-08-09

- Fix a crash.
"""


def test_a_whats_new_page_dates_each_release_it_heads_and_its_fields_date_the_page_release(tmp_path: Path) -> None:
    # "What's new in Zorbq 3.3.9?" heads a release; the labelled date under it is that release's, and the page's
    # own ":Release:" and ":Date:" fields date the release the page's title names. Dates of different releases
    # are no values of one quantity: each has its release as its condition
    assert "Release: 3.3\n\nDate: 2024-09-20" in normalise_plain(WHATS_NEW)
    heading = release_heading("What's new in Zorbq 3.3.9?")
    assert heading is not None and (heading.name, heading.version) == ("Zorbq", "3.3.9")
    assert release_heading("Is 3.3 out?") is None
    path = tmp_path / "whatsnew-index.rst"
    path.write_text(WHATS_NEW, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "When was Zorbq 3.3.9 released?")
    dates = {(o.entity, o.condition, str(o.value)) for u in doc.units for o in u.observations
             if o.metric == "release_date"}
    assert dates == {("Zorbq", "3.3", "2024-09-20"), ("Zorbq", "3.3.9", "2025-10-05"),
                     ("Zorbq", "3.3.8", "2025-08-09")}, dates
