"""A change log's release headings: which release, of what, and when.

Change logs and NEWS files head each release's entries with its version and, usually, its date, in many shapes:
"0.28.2", "[1.3.8] - 2024-03-01", "4.7.0 (4/8/2016)", "Version 10.44 07-June-2024", "Changes in version 2.1
(released 2020-03-01)", "widget 3.2.0, 2021-05-06", "* Noteworthy changes in release 3.8.4 (2024-03-18) [stable]",
"= Acme 3.6.0 branch released 2024-03-28", "Changes with widget 1.31.3 15 Jul 2026", "## Release v1.19.0 -
2025/07/30", "## 3.5.0 / 2017-06-18", "1.17.0 -- 2024-05-09", "0.9.1 (28th November, 2024)", an announcement's title
("Frob 3.0 released", "Announcing Frob 3.0"), the date first, "2026/08/21 : 3.5-dev5", and a release's quoted title
after it, "2026-05-08 - Zorbd 1.4.2 - "The one with the fix"".
A dated heading is a fact of its own: the release's date (metric release_date, the version as written its
condition), of the product the heading names or else of the document's own subject. The heading's shape decides; no
product or vendor is named here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import dropwhile
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from openresearch.agents.plan.attributes import keyword_like, metric_key
from openresearch.agents.plan.vocabulary import short_name
from openresearch.identity import entity_key
from openresearch.ingest.documents import keyword_shape
from openresearch.ingest.metadata import ANNOUNCED, ANNOUNCING
from openresearch.models import ObservationIn
from openresearch.numbers import calendar_value, known_unit

if TYPE_CHECKING:
    from openresearch.agents.extract.extract_rules import Mention
    from openresearch.models import EvidenceView

# (a day may be written as an ordinal, "28th November, 2024", "March 15th, 2021")
DATE = (r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\w+ \d{1,2}(?:st|nd|rd|th)?,? \d{4}|"
        r"\d{1,2}(?:st|nd|rd|th)?[- ](?:of )?\w+,?[- ]\d{4})")
_VERSION = r"\[?(?P<version>v?\d+\.\d+(?:\.\d+){0,2}(?:[-.]?(?:alpha|beta|rc|dev|pre|a|b)(?:[-.]?\d+)?)?)" \
           r"(?:[.+](?=[0-9a-f]*[a-f])[0-9a-f]{7,40})?\]?"  # (a build's commit after it: "2.0.0-rc.3.b7e1c9d04a2f")
RELEASE_HEADING = re.compile(r"(?:[*=#]+\s+)?(?:(?P<first>" + DATE + r")\s*[:–—-]\s*)?"
                             r"(?:(?:noteworthy |notable |major )?(?:changes|news|what'?s new|change ?log) "
                             r"(?:in|for|with|of) |release notes for |" + ANNOUNCING + r" (?:the )?)?"
                             # (or the name joined to its version: "Zorbd-1.4.2 Release")
                             r"(?P<name>(?:[A-Za-z][\w+-]{0,30} ){1,2}(?=(?:version |release |v)?\[?v?\d)|"
                             r"(?P<joined>[A-Za-z][\w+]{0,30}-)(?=v?\d))?"
                             r"(?:version |release )?" + _VERSION + r"(?: branch)?(?:\s+" + ANNOUNCED + r"(?!\s*\?)|"
                             r"(?(joined)\s+release|(?!)))?"
                             r"(?:(?:\s*(?:--|[-–—,:/|])\s*|\s*[(\[]|\s+)\s*(?:released:? |released on )?"
                             # (in parentheses or brackets; a time of day may follow the day, and a smiley: "(2024-05-06
                             # 11:12:13 :-)")
                             r"(?P<date>" + DATE + r")(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:UTC|Z))?)?"
                             r"(?:\s+[:;]-?(?=\)))?[)\]]?)?(?:\s*\[[\w -]{1,20}\])?"
                             r"(?:\s*[:–—-]\s*(?:\"[^\"\n]{1,120}\"|“[^”\n]{1,120}”))?"
                             r"(?:(?<=[\w)\]\"”])\?)?", re.I)  # "What's new in Zorbq 3.3.9?"
# words a heading writes before its version that name no product ("Release v1.19.0", "Version 10.44")
_NOT_NAMES = frozenset({"release", "releases", "version", "versions", "changes", "changelog", "news", "new",
                        "notes", "in", "for", "with", "the", "of", "stable", "latest", "branch", "tag", "what's",
                        "whats", "noteworthy", "notable", "major", "minor", "patch", "announcing", "introducing"})


# a reference entry's note of the version that brought or changed it ("added in 0.1.7", "Deprecated since 2.3",
# "New in version 3.2"): no release of its own, and no product named "added"
NOTE_VERBS = r"(?:added|introduced|changed|deprecated|removed|available|new)\s+(?:in|since|on)"
VERSION_NOTE = re.compile(rf"^{NOTE_VERBS}\b(?:\s+version)?:?\s+v?\d+(?:\.\d+)+\S*\.?$", re.I)


# an entry heading with the version it is available from ("retry 0.32.3+", as a badge "<Badge>0.32.3+</Badge>"
# reads once its tags are gone, "connect_timeout V3.4 -" as an open range): the keyword, then the first version
ENTRY_SINCE = re.compile(r"(?P<term>[A-Za-z_][\w.:-]*[A-Za-z0-9_])\s+[vV]?(?P<version>\d+(?:\.\d+)+)(?:\+|\s*[-–~])")


def entry_since(text: str, entity: str | None) -> list[ObservationIn] | None:
    """The version an entry heading says its setting is available from: "retry 0.32.3+" on a page about zorbtool
    -> zorbtool, retry = 0.32.3 (version), condition "available since". None when `text` is no such heading."""
    m = ENTRY_SINCE.fullmatch(text.strip())
    if m is None or not entity or not keyword_shape(m.group("term")):
        return None  # ("Python 3.8+" heads a section on a platform, no setting's entry)
    from openresearch.agents.extract.definitions import term_metric  # late: definitions builds on this module

    return [ObservationIn(entity=entity, metric=term_metric(m.group("term")), value=m.group("version"),
                          unit="version", condition="available since")]


def version_note(text: str, term: str | None, entity: str | None) -> list[ObservationIn] | None:
    """A reference entry's version note as a fact of the entry's setting: "added in 0.1.7" under the heading
    "ZORB_HTTP_TIMEOUT" of a page about zorbtool -> zorbtool, zorb_http_timeout = 0.1.7 (version), condition
    "added in". None when `text` is no such note or the entry's term or subject is unknown."""
    from openresearch.agents.extract.definitions import term_metric  # late: definitions builds on this module

    if entity and (said := _NOTE_BODY.match(text.strip())):
        # "Changed in version 3.3: added frob_limit parameter to the constructor.": the key it names came then
        keys = list(dict.fromkeys(k for k in re.findall(r"[A-Za-z_][\w.-]*[A-Za-z0-9_]", said.group("body"))
                                  if keyword_like(k)))
        if len(keys) == 1:
            verb = next((v for v, p in _NOTE_EVENTS if re.match(p, said.group("body"), re.I)), "changed in")
            return [ObservationIn(entity=entity, metric=term_metric(keys[0]), value=said.group("version"),
                                  unit="version", condition=verb)]
    m = VERSION_NOTE.match(text.strip())
    if m is None or not term or not entity:
        return None

    version = re.search(r"v?\d+(?:\.\d+)+[\w.+-]*", text).group(0).rstrip(".")  # type: ignore[union-attr]
    verb = " ".join(text.strip().split()[:2]).lower()
    return [ObservationIn(entity=entity, metric=term_metric(term), value=version, unit="version", condition=verb)]


# a version note that says what changed: "Changed in version 3.3: added frob_limit parameter to the constructor."
_NOTE_BODY = re.compile(rf"^{NOTE_VERBS}\b(?:\s+version)?\s+(?P<version>v?\d+(?:\.\d+)+[\w+-]*):\s+(?P<body>\S.*)$",
                        re.I | re.S)
_NOTE_EVENTS = (("added in", r"(?:added|adds?|new|introduc\w*)\b"), ("removed in", r"(?:removed|dropped)\b"),
                ("deprecated in", r"deprecated\b"))


# a change-log entry that brings a setting: "Add client_idle_timeout setting.", "change the new
# max_prepared_statements setting to ...", "Introduced the frob.level option"
_SETTING_WORD = r"(?:config(?:uration)?\s+)?(?:settings?|parameters?|options?|flags?|knobs?|variables?)"
_ADDS_SETTING = re.compile(r"\b(?:add(?:s|ed)?|introduc(?:e|es|ed)|new)\s+(?:(?:an?|the|new)\s+)*"
                           rf"(?:(?P<key>[A-Za-z_-][\w.-]*[A-Za-z0-9])\s+{_SETTING_WORD}\b|"
                           rf"{_SETTING_WORD}\s+(?P<key2>[A-Za-z_-][\w.:-]*[A-Za-z0-9])|"
                           # "Added too-many-frobs to allow ...": a key alone, written as one (keyword_like decides)
                           r"(?P<key3>[a-z][\w-]*[-_][\w-]*[a-z0-9])(?=\s|[,.;:]|$))", re.I)
# what an option an entry adds is for: "... option to set number of parallel frobs"
_PURPOSE = re.compile(r"\s+(?:to\s+(?:set|control|choose|specify|change|limit|configure)\s+(?:the\s+)?|"
                      r"for\s+(?:the\s+)?)([^.;,()\n]{3,80}?)\s*(?=[.;,(]|$)")
# ... or brings a part or a behaviour: "Add a Frob plugin", "This release adds initial support for Quux3", "Start to
# verify peers by default, unless ..."
_ADDS_FEATURE = re.compile(r"\b(?i:add(?:s|ed)?|introduc(?:e|es|ed)|implement(?:s|ed)?|brings?)\s+"
                           r"(?i:(?:an?|the|new|initial|basic|experimental|preliminary|native|full)\s+)*(?:(?i:support)\s+for\s+(?:the\s+)?"
                           r"(?P<what>[A-Za-z][\w.+/-]*(?:\s+(?!(?:and|in|to|for|with|on|of|from|when|by)\b)[A-Za-z][\w.+/-]*){0,3}?)"
                           r"(?=\s*(?:[(,;]|\.(?:\s|$)|$|\s+(?:and|in|to|for|with|on|of|from|when|by)\b))|(?P<name>[A-Za-z][\w.+/-]*[\w+])\s+"
                           r"(?P<kind>(?i:plugin|module|extension|driver|backend|exporter|integration|adapter|"
                           r"connector|command|subcommand|support))\b)|"
                           r"^\W*(?i:start(?:s|ed)?)\s+(?:to\s+)?(?P<began>[a-z]+\s[^,;.()]{3,60}?)"
                           r"(?=\s*(?:[,;()]|\.(?:\s|$)|$|\s+but\b))|"
                           # ("added frob compression.", "Enh #31: Implement wibble command": an entry that
                           # is its verb and what it brought, named in a few words, "scope:" or number before it)
                           r"^\W*(?:[\w#./ -]{1,24}:\s+)?"
                           r"(?i:add(?:s|ed)?|introduc(?:e|es|ed)|implement(?:s|ed)?|new)\s+"
                           r"(?i:(?:an?|the|new)\s+)*(?P<thing>[A-Za-z][\w+/-]*(?:\.[\w+/-]+)*(?:\s+(?!(?:and|or|in|to|for|with|"
                           r"on|of|from|when|by|if|as)\b)[A-Za-z][\w+/-]*(?:\.[\w+/-]+)*){0,3})"
                           r"(?=\s*(?:[,;(!]|\.(?:\s|$)|$))")
# one that changes a setting's default: "max_prepared_statements is now set to 200 by default", "the default of
# frob.level is now 3", "Change the default for frob_level to 5"
_NEW_DEFAULT = re.compile(r"\b(?P<key>[A-Za-z_-][\w.-]*[A-Za-z0-9])\s+(?:is|are)\s+now\s+(?:set\s+to\s+)?"
                          r"(?P<value>-?\d[\d.,_]*)\s*(?P<unit>[A-Za-z%]{0,12})\s+by\s+default\b|"
                          r"\bdefault\s+(?:value\s+)?(?:of|for)\s+(?P<key2>[A-Za-z_-][\w.-]*[A-Za-z0-9])\s+"
                          r"(?:is\s+now(?:\s+set\s+to)?|(?:is|was)\s+set\s+to|changed\s+to|to|from\s+\S+\s+to)\s+"
                          r"(?P<value2>-?\d[\d.,_]*)|"
                          # ("frob_strict is set to True by default", "frob_strict is now enabled by default": a
                          # switch's new default, a release's fact without a figure)
                          r"\b(?P<key3>[A-Za-z_-][\w.-]*[A-Za-z0-9])\s+(?:is|are)\s+(?:now\s+)?(?:set\s+to\s+)?"
                          r"(?P<flag>true|false|enabled|disabled|on|off)\s+by\s+default\b|"
                          # ("frob_delay default changed from None to 0.25", "Defaults zorb frob_size for clients to
                          # 16MB": the key before its default, or after "Defaults" as the entry's verb)
                          r"\b(?P<key4>[A-Za-z_-][\w.-]*[A-Za-z0-9])\s+default\s+(?:value\s+)?(?:changed|changes|"
                          r"was\s+changed|is\s+now)\s+(?:from\s+\S+\s+)?(?:to\s+)?(?P<value4>-?\d[\d.,_]*)\s*"
                          r"(?P<unit4>[A-Za-z%]{0,12})|"
                          r"^\W*defaults?\s+(?:the\s+)?(?:[a-z]+\s+)?(?P<key5>[A-Za-z_-][\w.-]*[_.-][\w.-]*[A-Za-z0-9])\s+"
                          r"(?:[\w.]+\s+){0,3}?to\s+(?P<value5>-?\d[\d.,_]*)\s*(?P<unit5>[A-Za-z%]{0,12})", re.I)
# ... or names the setting in words: "Changed the default max retries value from None to 20", "the default
# worker count is now 8" (one to four lower-case words after "default")
_NEW_DEFAULT_WORDS = re.compile(r"\b(?i:chang(?:e|es|ed)|rais(?:e|es|ed)|lower(?:s|ed)?|increas(?:e|es|ed)|"
                                r"decreas(?:e|es|ed)|bump(?:s|ed)?|set(?:s)?)\s+(?i:the\s+)?default\s+"
                                r"(?P<words>[a-z][a-z_-]*(?:\s+[a-z][a-z_-]*){0,3}?)\s+(?:value\s+|setting\s+)?"
                                r"(?:from\s+\S+\s+)?(?:back\s+)?to\s+(?P<value>-?\d+(?:[.,_]\d+)*)\s*"
                                r"(?P<unit>(?!rather\b|instead\b)[A-Za-z%]{0,12})|"
                                r"\b(?i:the)\s+default\s+(?P<words2>[a-z][a-z_-]*(?:\s+[a-z][a-z_-]*){0,3}?)\s+"
                                r"(?:is|are)\s+now\s+(?P<value2>-?\d+(?:[.,_]\d+)*)\s*(?P<unit2>[A-Za-z%]{0,12})|"
                                # ("Zorbq now uses a target frame size of 4 MiB by default")
                                r"\bnow\s+uses\s+(?i:an?|the)\s+(?P<words3>[a-z][a-z_-]*(?:\s+[a-z][a-z_-]*){0,3}?)\s+"
                                r"of\s+(?P<value3>-?\d+(?:[.,_]\d+)*)\s*(?P<unit3>[A-Za-z%]{0,12})\s+by\s+default\b")


# a release's bare version, as a condition names the release an entry sits under ("2.53.0", "v1.4.0-rc1")
BARE_VERSION = re.compile(r"v?\d+(?:\.\d+)+\S*")
# the label of a release's list of what it brought ("New Features", "Added", "New commands", "Enhancements")
ADDED_SECTION = re.compile(r"(?:new(?:\s+[a-z]+){0,2}|(?:new\s+|major\s+)?features?|added|additions|"
                           r"enhancements?)\s*:?", re.I)
# what an entry of such a list names: its words up to a colon, a full stop or its author's parenthesis, at most six
_ENTRY_NAME = re.compile(r"^\W*(?:add(?:s|ed)?\s+|new\s+)?(?P<what>[^:.;()\n]{3,80}?)\s*(?:[:.;(]|$)", re.I)


def brought_entry(text: str, release: Release | None, entity: str | None) -> list[ObservationIn] | None:
    """An entry of a release's list of what it brought ("Multi threaded downloads to local storage (A. Author)"
    under "New Features"): that the release added it, named by its first words."""
    if release is None or not entity or not release.version or not (m := _ENTRY_NAME.match(text.strip())):
        return None
    words = m.group("what").split()
    if not 1 <= len(words) <= 6:
        return None
    metric = metric_key(f"{' '.join(words)} added")
    return [ObservationIn(entity=entity, metric=metric, value=release.version, unit="version",
                          condition="added in")] if metric else None


def adds_feature(entry: str) -> bool:
    """Whether a change log's entry says it brings something ("Add Frob2 support", "Introduce the wibble command")."""
    return _ADDS_FEATURE.search(entry) is not None


def change_log_notes(text: str, release: Release | None, entity: str | None) -> list[ObservationIn] | None:
    """What a change-log entry under a release heading says of a setting: that the release brought it ("Add
    zorb_idle_timeout setting." under "1.24.0" -> zorb_idle_timeout = 1.24.0 (version), condition "added in"), or
    changed its default ("zorb_cache is now set to 200 by default" -> zorb_cache = 1.24.0 (version), condition
    "default changed in", and zorb_cache = 200, condition "default since 1.24.0"). None when it says neither."""
    if release is None or not entity or not (release.version or release.date):
        return None
    # (an entry of a dated log, under the day it was written, names no release: the day it changed on)
    when, kind, at = (release.version, "version", "in") if release.version else (release.date or "", "date", "on")

    from openresearch.agents.extract.definitions import help_term, term_metric  # late: definitions builds on this

    out: list[ObservationIn] = []
    text = re.sub(r"`([^`\n]+)`", r"\1", text)  # ("Add `--frob` option": what is quoted is named as it is)
    for m in _ADDS_SETTING.finditer(text):
        key = (m.group("key") or m.group("key2") or m.group("key3")).split("::")[-1]
        if re.fullmatch(r"-\w", key) and (purpose := _PURPOSE.match(text, m.end())):
            # "Added -p option to set number of parallel QXP/2 frobs": a letter names nothing; what it sets does
            out.append(ObservationIn(entity=entity, metric=metric_key(f"{help_term(key, purpose.group(1))} added"),
                                     value=when, unit=kind, condition=f"added {at}"))
        elif keyword_shape(key) and keyword_like(key):  # a key is written as one ("zorb_cache_size", "maxRetries")
            out.append(ObservationIn(entity=entity, metric=term_metric(key), value=when,
                                     unit=kind, condition=f"added {at}"))
    for m in _ADDS_FEATURE.finditer(text):
        # "This release introduces a new Frob plugin", "Add basic support for Quux3", "Start to verify peers by
        # default": what the release brought, named as a question words it ("Frob plugin added")
        what = f"{m.group('name')} {m.group('kind')}" if m.group("name") else f"{m.group('what')} support" \
            if m.group("what") else m.group("thing") or m.group("began")
        if m.group("thing") and out:
            continue  # ("added FROB_DIR environment variable": the key it added, above)
        metric = metric_key(f"{what} {'introduced' if m.group('began') else 'added'}")
        if metric and not any(o.metric == metric for o in out):
            out.append(ObservationIn(entity=entity, metric=metric, value=when, unit=kind,
                                     condition=f"introduced {at}" if m.group("began") else f"added {at}"))
    changes: list[tuple[str, str, str | None]] = []
    for m in _NEW_DEFAULT.finditer(text):
        if m.group("flag"):
            if keyword_shape(key := m.group("key3")) and keyword_like(key):
                out.append(ObservationIn(entity=entity, metric=term_metric(key), value=when, unit=kind,
                                         condition=f"default changed {at}"))
            continue
        key = m.group("key") or m.group("key2") or m.group("key4") or m.group("key5")
        value = m.group("value") or m.group("value2") or m.group("value4") or m.group("value5")
        if keyword_shape(key) and keyword_like(key):
            changes.append((key, value.rstrip(".,"), m.group("unit") or m.group("unit4") or m.group("unit5")))
    for m in _NEW_DEFAULT_WORDS.finditer(text):
        words = m.group("words") or m.group("words2") or m.group("words3")
        if words.split()[-1] not in {"value", "setting", "option"}:
            changes.append((words, m.group("value") or m.group("value2") or m.group("value3"),
                            m.group("unit") or m.group("unit2") or m.group("unit3")))
    for key, value, written in changes:
        metric = term_metric(key)
        unit = written if written and known_unit(written) else None  # "to 20, meaning ..." has no unit
        out.append(ObservationIn(entity=entity, metric=metric, value=when, unit=kind,
                                 condition=f"default changed {at}"))
        out.append(ObservationIn(entity=entity, metric=metric, value=value.rstrip(".,"), unit=unit or None,
                                 condition=f"default since {when}"))
    return out or None


# a dated log's heading: the day its entries were written, and who wrote them ("12 March 2024: A. Writer",
# "2024-11-22  A. Writer  <a@example.org>")
_DAY_HEADING = re.compile(rf"(?P<date>{DATE})(?:\s*:\s*[^\n;:]{{0,59}}[^\n;:.]|\s{{2,}}[^\n]{{1,80}})?")
# a log entry that tags a release ("Tag for 2.4.0rc1.", "Tagged release 2.4") or says which tag became the release
# ("This became the release of 2.4.0 on 30 May 2025")
_TAGGED = re.compile(r"^\W*Tag(?:ged)?\s+(?:for\s+)?(?:the\s+)?(?:release\s+)?"
                     r"v?(?P<v>\d+(?:\.\d+)+(?:[-.]?(?:rc|alpha|beta|a|b)\.?\d*)?)\b")
_BECAME = re.compile(rf"\bbecame\s+(?:the\s+)?(?:release\s+(?:of\s+)?)?v?(?P<v>\d+(?:\.\d+)+)(?:\s+release)?\s+on\s+"
                     rf"(?P<d>{DATE})")


_T = TypeVar("_T")
# a pre-release's version ("2.4.0rc1", "2.0-beta.2", "3.1a2"): no final release
# (the match is its tail: "-alpha2" of "4.1.0-alpha2", "rc1" of "2.4.0rc1")
PRE_RELEASE = re.compile(r"(?<=\d)[-.]?(?:rc|alpha|beta|a|b|dev|pre)\.?\d*$", re.I)


def first_releases(dated: Sequence[_T], day: int, when: Callable[[_T], int | None],
                   version: Callable[[_T], str]) -> list[_T]:
    """Of releases with their days, the first on or after `day` (the one that shipped a change made that day), and
    the first final release after it when that one is a pre-release ("2.4.0rc1" then "2.4.0")."""
    after = sorted(((d, r) for r in dated if (d := when(r)) is not None and d >= day), key=lambda dr: dr[0])
    first = [r for _, r in after[:1]]
    if first and PRE_RELEASE.search(version(first[0])):
        first += [r for _, r in after if not PRE_RELEASE.search(version(r))][:1]
    return first


def records_tag(piece: str) -> bool:
    """Whether a log entry records a release's tag ("Tag for 2.4.0rc1."): a fact however short."""
    return bool(_TAGGED.match(piece))


def day_heading(para: str) -> str | None:
    """The day a dated log's heading opens its entries with, as written ("12 March 2024" of "12 March 2024:
    A. Writer"); None when `para` is no such heading."""
    m = _DAY_HEADING.fullmatch(para.strip())
    return m.group("date") if m and calendar_value(m.group("date"), "date") is not None else None


def dates_entries(ev: EvidenceView) -> bool:
    """Whether an evidence item dates the entries under it: a release's heading ("Zorbq-3.7.0 Release"), its date
    line, or a dated log's day heading ("12 March 2024: A. Writer")."""
    quote = ev.quote.strip()
    return any(o.metric == "release_date" for o in ev.observations) or (len(quote) <= 120 and (
        release_heading(quote) is not None or day_heading(quote) is not None))


def tag_notes(text: str, day: str | None, entity: str | None) -> list[ObservationIn] | None:
    """The release dates a dated log's entry states: the tag it records, dated by its heading ("Tag for 2.4.0rc1."
    under "8 May 2025: ..." -> release_date 8 May 2025 of 2.4.0rc1), and the release a tag became on a day it
    names. None when it states none."""
    if not entity:
        return None
    out = [ObservationIn(entity=entity, metric="release_date", value=on, unit="date", condition=version)
           for version, when in tagged_releases(text) if (on := when or day)]
    return out or None


def tagged_releases(text: str) -> list[tuple[str, str | None]]:
    """The releases a dated log's entry records: (version, the day it names or None for its heading's day)."""
    out: list[tuple[str, str | None]] = [(m.group("v"), None) for m in [_TAGGED.match(text)] if m]
    return out + [(m.group("v"), m.group("d")) for m in _BECAME.finditer(text)]


class Release(NamedTuple):
    name: str | None  # the product the heading names, as written ("zorbd"), if it names one
    version: str  # as written ("v1.19.0", "1.27.2")
    date: str | None  # the date as written
    date_at: int  # where the date starts in the heading (-1 without one)


@lru_cache(maxsize=4096)
def release_heading(text: str) -> Release | None:
    """The release a heading line announces, or None when `text` is no release heading (cached: a definition
    entry's term is looked for from every unit, past the same short paragraphs again and again)."""
    stripped = text.strip()
    m = RELEASE_HEADING.fullmatch(stripped)
    if m is None or VERSION_NOTE.match(stripped):
        return None
    lead = len(text) - len(text.lstrip())
    words = [w for w in (m.group("name") or "").rstrip("-").split() if w.lower() not in _NOT_NAMES]
    group = "date" if m.group("date") else "first" if m.group("first") else None
    return Release(" ".join(words) or None, m.group("version"), m.group(group) if group else None,
                   lead + m.start(group) if group else -1)


def condition_release(condition: str | None) -> Release | None:
    """The release a fact's condition places it under, after its own words or as the whole condition when dated
    ("dropped, 0.25.0 (2023-09-11)", "0.25.0 (2023-09-11)": a change-log entry's heading), or None ("default since
    0.5.2" says what the value is, not where it was read)."""
    parts = (condition or "").split(", ")
    # (the release is the condition's last words: "supported, Formal, Quux 2.7.0 (2026-02-22)")
    for k in range(1, len(parts)):
        if (release := release_heading(", ".join(parts[k:]))) is not None:
            return release
    return dated_release(condition or "")


def dated_release(text: str) -> Release | None:
    """The release a heading announces with a date that reads one way ("2025/07/30", not "4/8/2016")."""
    release = release_heading(text)
    if release is None or release.date is None or calendar_value(release.date, "date") is None:
        return None
    return release


def heading_observations(heading: str, mentions: Sequence[Mention],
                         context_entity: str | None) -> list[ObservationIn] | None:
    """A dated release heading's one fact: the release's date, of the product the heading names (a recognised
    name inside it, else the words it writes before the version), else of the document's subject. None when
    `heading` is no dated release heading or its date reads two ways ("4/8/2016")."""
    if (release := dated_release(heading)) is None or release.date is None:
        return None
    named = next((m.canonical for m in mentions if m.start < release.date_at or release.date_at < 0), None)
    entity = named or release.name or context_entity
    if not entity or entity_key(entity) == entity_key(release.version):
        return None
    return [ObservationIn(entity=entity, metric="release_date", value=release.date, unit="date",
                          condition=release.version)]


_SHORT_PARAGRAPH = re.compile(r"(?:^|\n\n)([^\n]{3,80})(?=\n\n|$)")


@lru_cache(maxsize=64)
def heading_name(text: str) -> str | None:
    """The product a change log's release headings name, when two or more name the same one and no other
    ("Changes with zorbd 1.27.2 ..." over each release): what the whole log is about."""
    named = [r.name for m in _SHORT_PARAGRAPH.finditer(text)
             if (r := release_heading(m.group(1))) is not None and r.name]
    if not named:
        return None
    (top, n), *rest = Counter(name.lower() for name in named).most_common(2)
    if n < 2 or (rest and rest[0][1] * 2 > n):
        return None
    return next(name for name in named if name.lower() == top)


# the releases a question names: "0.19 to 0.22.1" (a range), "4.3.x" (a series), "v3.1.0", "3.10", "1.2.0rc1"
_PRE = r"(?:[-.]?(?:alpha|beta|rc|dev|pre|a|b)[-.]?\d*)"
_ASKED_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.(?:\d+|x))+)(" + _PRE + r")?(?:\s*(?:to|-|–|through|until)\s*"
                            r"v?(\d+(?:\.\d+)+))?(?![\w.])", re.I)
_PRE_TAG = re.compile(r"\d(" + _PRE + r")(?![\w.])", re.I)


class AskedRelease(NamedTuple):
    low: tuple[int, ...]
    high: tuple[int, ...]
    pre: str | None  # a pre-release the question names ("rc1" of "1.2.0rc1"), normalised; None for a release
    written: str = ""  # as the question writes it ("1.2.0rc1", "0.19 to 0.22.1")


def _parts(version: str) -> tuple[int, ...]:
    """A version's release numbers, without build metadata or pre-release tag: "1.2.0rc1" -> (1, 2, 0)."""
    core = version.split("+")[0]
    m = _PRE_TAG.search(core)
    core = core[:m.start(1)] if m else core.split("-")[0]
    return tuple(int(p) for p in re.findall(r"\d+", core)[:4])


def _pre(version: str) -> str | None:
    """A version's pre-release tag, normalised: "1.2.0rc1", "1.2.0-rc.1", "1.2.0.rc1" -> "rc1"; None for a release."""
    m = _PRE_TAG.search(version)
    return re.sub(r"[-.]", "", m.group(1)).lower() if m else None


def asked_releases(question: str) -> list[AskedRelease]:
    """The version ranges a question names, each as (lowest, highest) parts: "0.19 to 0.22.1" -> ((0, 19), (0, 22,
    1)); "4.3.x" -> ((4, 3), (4, 3)); "v3.1.0" -> ((3, 1, 0), (3, 1, 0)); "1.2.0rc1" -> ((1, 2, 0), (1, 2, 0),
    "rc1")."""
    out = []
    for m in _ASKED_VERSION.finditer(question):
        low = _parts(m.group(1).lower().replace(".x", ""))
        pre = re.sub(r"[-.]", "", m.group(2)).lower() if m.group(2) else None
        out.append(AskedRelease(low, _parts(m.group(3)) if m.group(3) else low, pre, m.group(0)))
    return out


def releases_asked_of(question: str, entity: str, names: Sequence[str]) -> list[AskedRelease]:
    """The releases a question names of one of the products it names (`names`): those written after that product's
    name and before another's ("When were Zorb 1.0.0 and 2.0.0 released, and Quux 1.0 and 1.16?": Zorb's are 1.0.0
    and 2.0.0). Every release it names when it writes none after the product's name."""
    # a version another name owns ("added Frob 3.14 support", "the Frob-3.14-capable release") is no release of
    # the products asked about ("Zorb 1.2" is ZorbBackup's: the name it goes by)
    names = [*names, *(s for n in names if (s := short_name(n)))]
    shorter = short_name(entity)
    asked = [a for a, m in zip(asked_releases(question), _ASKED_VERSION.finditer(question), strict=True)
             if not _owned_by_other(question[:m.start()], {entity, *names})]
    marks = sorted((m.start(), n) for n in {entity, *names} for m in re.finditer(
        rf"(?<!\w){re.escape(n)}(?!\w)", question, re.I))
    if not marks:
        return asked
    starts = [at for at, _ in marks] + [len(question)]
    own_names = {entity.lower(), (shorter or entity).lower()}
    spans = [(at, starts[i + 1]) for i, (at, n) in enumerate(marks) if n.lower() in own_names]
    others = [(at, starts[i + 1]) for i, (at, n) in enumerate(marks) if n.lower() not in own_names]
    placed = [(a, m.start()) for a, m in zip(asked_releases(question), _ASKED_VERSION.finditer(question), strict=True)
              if a in asked]
    own = [a for a, at in placed if any(s <= at < e for s, e in spans)]
    # (none after its name: those written after no other name's either)
    return own or [a for a, at in placed if not any(s <= at < e for s, e in others)]


# the words that may stand between a product and its release numbers ("Quux 1.0, 1.16 and 2.0", "Quux release 2.0")
# (or a possessive that stands for the product: "when did Zorb put out its 1.0 and 2.0 releases")
_RELEASE_GLUE = frozenset({"and", "or", "to", "through", "until", "release", "releases", "version", "versions", "v",
                           "of", "than", "from", "between", "the", "vs", "versus", "its", "their",
                           # (the verb a question asks a release with: "when did Zorb ship v4.0.0")
                           "ship", "shipped", "released", "publish", "published", "tag", "tagged", "cut", "reach",
                           "reached", "put", "out"})


def _owned_by_other(before: str, names: set[str]) -> bool:
    """Whether the word right before a version is another name's ("Frob 3.14", "Frob-3.14"): not one of `names`,
    no word that joins a product to its releases; a version listed after another is the same name's ("Frob 3.8 and
    3.9")."""
    if listed := re.search(r"(?<![\w.])v?\d+(?:\.\d+)*(?:[-.]?[A-Za-z]+[-.]?\d*)?\s*(?:,|\band\b|\bor\b|&)\s*"
                           r"(?:and\s+|or\s+)?$", before):
        return _owned_by_other(before[:listed.start()], names)
    m = re.search(r"([A-Za-z][\w.+#]*)[\s-]*$", before)
    if m is None:
        return False
    word = m.group(1).lower()
    return word not in _RELEASE_GLUE and not any(word == n.lower() for n in names)


def exact_releases(versions: Sequence[str], asked: Sequence[AskedRelease]) -> list[str]:
    """Of releases in the series a question names, the ones it names exactly, where a source has them: asked
    "1.16", "1.16" and "1.16.0" are it, not "1.16.1"; a series without its own release ("4.3.x") keeps them all."""
    def padded(parts: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(reversed(tuple(dropwhile(lambda p: p == 0, reversed(parts)))))

    keep: list[str] = []
    for a in asked:
        members = [v for v in versions if release_asked(v, [a])]
        exact = [v for v in members if a.low == a.high and padded(_parts(v)) == padded(a.low) and _pre(v) == a.pre]
        keep += exact or members
    return list(dict.fromkeys(keep))


def release_asked(version: str, asked: Sequence[AskedRelease]) -> bool:
    """Whether a release ("0.19.2", "v3.1.0") is one a question names: inside a named range, in a named series
    ("4.3.x", "0.19" cover 4.3.4, 0.19.2), or the named version itself. A pre-release ("1.2.0rc1") is asked only
    where the question names it; a named pre-release is that one alone."""
    parts = _parts(version)
    if not parts:
        return False
    pre = _pre(version)
    return any(parts[:len(a.low)] >= a.low and parts[:len(a.high)] <= a.high and pre == a.pre and
               (a.pre is None or parts == a.low) for a in asked)
