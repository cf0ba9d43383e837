"""What a product needs to run and which versions of a platform it supports, as documentation states them.

"It requires Frob 3.10+ to run", "installable under any Frob version from 3.7 onwards", "Require frob >= 3.9",
"The latest version supports Frob 3.10.0 and above", "compatible with Frob 3.7 to 3.14", "Frob 3.14 compatibility",
"Added support for Frob 3.14": each is a bound on the platform's version, of the product the sentence is about. The
fact is the platform's version (metric "<platform>_version", unit "version") with the kind of bound as its condition:
"minimum" (the oldest it runs on), "maximum" (the newest of a stated range) or "supported" (one version it supports);
"Drop EOL frob 3.8" says a version it no longer supports ("dropped"), no bound: the oldest one left is not named.
The sentence's grammar decides; no platform or product is named here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from openresearch.identity import entity_key
from openresearch.models import ObservationIn

if TYPE_CHECKING:
    from openresearch.agents.extract.extract_rules import Mention

# a platform's name: one word, as written ("Frob", "frob", "Frob.js", "C++"), never a function word
_P = (r"(?P<p>(?!(?:version|versions|release|releases|the|a|an|any|all|every|and|or|to|of|on|in|for|from|with|by|at|"
      r"up|until|over|under|more|less|than|least|about|only|v)\b)[A-Za-z][\w.+#]*)")
# a version, never a quantity ("supported for 18 months", "up to 3 times")
_NOT_A_UNIT = (r"(?!\s*(?:%|[kmgtp]i?b\b|ms\b|s\b|secs?\b|seconds?|mins?\b|minutes?|hours?|days?|weeks?|months?|"
               r"years?|times?\b|x\b))")
# a version without a dot is one only where no noun follows it ("HTTP 308 Permanent Redirect" is a status code)
_WHOLE = (r"\d+(?!\s+(?!(?:and|or|to|on|in|with|for|support|supported|compatibility|through|thru|until|only|onwards|"
          r"upwards|onward|is|are|was|were|as|at|from|via|if|when|but|the|a|an|and|later|newer|above|higher|or|"
          r"up|lts|has|have|had|will|would|can|may|should|been)\b)[A-Za-z])")
_V = r"v?(?P<v>\d+(?:\.\d+){1,2}|" + _WHOLE + r")(?![\w.]*\d)" + _NOT_A_UNIT
_V2 = r"v?(?P<w>\d+(?:\.\d+){1,2}|" + _WHOLE + r")(?![\w.]*\d)" + _NOT_A_UNIT
_UP = r"(?:\+|\s+(?:or|and)\s+(?:later|newer|above|higher|up|upwards|greater)|\s+(?:onwards|upwards|onward))"
_NEEDS = r"(?:requires?|required|requiring|needs?|needed|depends\s+on|runs?\s+on|installable\s+(?:on|under|with))"
_SUPPORTS = r"(?:supports?|supported|compatible\s+with|works\s+with|tested\s+(?:on|with|against))"

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(p, re.I)) for kind, p in (
    # "supports Frob 3.8 through 3.12", "compatible with Frob 3.7 to 3.14", "from Frob 3.7 to 3.14": a range
    ("range", rf"\b(?:{_SUPPORTS}|{_NEEDS}|from)\s+(?:{_P}\s+)?(?:versions?\s+)?{_V}\s*(?:to|through|thru|until|-|–)\s*"
              rf"(?:[A-Za-z][\w.+#]*\s+)?{_V2}\b"),
    # "supports Frob 3.9, 3.10, 3.11 and 3.12": the versions it lists, the first its minimum, the last its maximum
    ("range", rf"\b(?:{_SUPPORTS}|{_NEEDS})\s+{_P}\s+{_V}(?:\s*,\s*v?\d+(?:\.\d+){{1,2}})*,?\s*(?:,|and|or)\s*"
              rf"v?(?P<w>\d+(?:\.\d+){{1,2}})(?![\w.]*\d)"),
    # "requires Frob 3.10+", "needs frob >= 3.9", "requires at least Frob 3.8", "Require frob >= 3.9"
    ("minimum", rf"\b{_NEEDS}\s+(?:at\s+least\s+)?{_P}\s*(?:version\s+)?(?:>=|≥|=>)?\s*{_V}"),
    # "supports Frob 3.10.0 and above", "supports Frob 3.8+"
    ("minimum", rf"\b{_SUPPORTS}\s+{_P}\s+(?:version\s+)?{_V}{_UP}"),
    # "any Frob version from 3.7 onwards", "Frob versions 3.9 and later"
    ("minimum", rf"\b{_P}\s+versions?\s+(?:from\s+)?{_V}{_UP}"),
    # "frob has been updated to >= 2.13.0, < 2.14.0" (a dependency's new bounds)
    ("minimum", rf"(?<![\w.]){_P}\s+(?:has\s+been\s+|have\s+been\s+|was\s+|is\s+)?(?:updated|bumped|pinned|raised)\s+"
                rf"to\s+(?:>=|≥)\s*{_V}"),
    # "frob >= 3.9", "frob_requires >= 3.8"
    ("minimum", rf"(?<![\w.]){_P}\s*(?:>=|≥)\s*{_V}"),
    # "the minimum version is now Frob 3.9" (the platform after it)
    ("minimum", rf"\b(?:minimum|oldest|lowest)\s+(?:supported\s+|required\s+)?versions?\s+(?:is|becomes|will\s+be)\s+"
                rf"(?:now\s+)?{_P}\s+{_V}"),
    # "the minimum supported Frob version is 1.70", "oldest supported Frob version: 3.9"
    ("minimum", rf"\b(?:minimum|oldest|lowest|earliest)\s+(?:supported\s+|required\s+)?{_P}\s+versions?"
                rf"(?:\s*\([^()]*\))?\s*(?:is|:|=)\s*{_V}"),
    # "Frob 3.14 compatibility", "Frob 3.14 support" (a feature list's item, a change log's headline)
    ("supported", rf"(?<![\w.]){_P}\s+{_V}\s+(?:compatibility|support)\b"),
    # "Added support for Frob 3.14", "supports Frob 3.13", "including Frob 3.13"
    ("supported", rf"\b(?:support\s+for|{_SUPPORTS}|including)\s+{_P}\s+{_V}(?!\s*(?:\+|or\s|and\s|onwards|to\b))"),
    # "Add Frob 3.14 to the test matrix and classifiers", "Added Frob 3.13 wheels": a change log's new platform
    # (a version with a dot: "Add JSON 2 output" adds no platform)
    ("supported", rf"^[\s*+•-]*add(?:s|ed)?\s+{_P}\s+v?(?P<v>\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)"
                  rf"(?!\s*(?:\+|or\s|onwards))"),
))
# support dropped or removed states no bound: the oldest version left is not named ("Dropped support for Frob 3.8"),
# only that one ("Drop EOL frob 3.8", "Remove support for launching quux with Frob 3.9")
_DROPS = re.compile(r"\b(?:drop(?:s|ped|ping)?|remov(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|no\s+longer)\b", re.I)
# (words may stand between only after "support for": "Remove support for launching quux with Frob 3.9"; "Remove
# handling of frob 2 strings" drops no support)
_DROPPED = re.compile(rf"\b(?:drop(?:s|ped|ping)?|remov(?:e|es|ed|ing))\s+(?:(?:official\s+)?support\s+for\s+"
                      rf"(?:[\w-]+\s+){{0,3}}?(?:with\s+|on\s+|for\s+)?|(?:the\s+)?(?:eol|end-of-life)\s+)?"
                      rf"{_P}\s+{_V}", re.I)
# ... or in the passive: "Support for Frob 3.8 has been dropped", "Frob 3.8 support was removed"
_DROPPED_PASSIVE = re.compile(rf"(?<![\w.]){_P}\s+{_V}(?:\s+support)?\s+(?:has\s+been|have\s+been|was|were|is|are)\s+"
                              rf"(?:now\s+)?(?:dropped|removed|discontinued)\b", re.I)


def _drops(sentence: str) -> list[re.Match[str]]:
    return sorted([*_DROPPED.finditer(sentence), *_DROPPED_PASSIVE.finditer(sentence)], key=lambda m: m.start())


_DIGIT = re.compile(r"\d")


def says_dropped(sentence: str) -> bool:
    """Whether a sentence says support for a platform's version was dropped ("Drop support for Frob 3.8")."""
    return bool(_drops(sentence))


def states_requirement(piece: str) -> bool:
    """Whether a line states a bound on a platform's version ("Require frob >= 3.9", "Frob 3.14 compatibility") or
    that support for one was dropped: a fact however few its words or however much it looks like code."""
    # (no digit, no version); "Removed support for the end-of-life Frob 3.7" states one too
    return bool(_DIGIT.search(piece)) and (any(rx.search(piece) for _, rx in _RULES) or bool(_drops(piece)))


def platform_metric(platform: str) -> str:
    """The metric of a platform's version: "Frob" -> "frob_version", "Frob.js" -> "frob_js_version"."""
    return re.sub(r"\W+", "_", platform.lower()).strip("_") + "_version"


def requirement_observations(sentence: str, mentions: Sequence[Mention],
                             context_entity: str | None) -> list[ObservationIn] | None:
    """The bounds a sentence states on a platform's version, of the product it is about: the first name it opens with
    that is not the platform (a mention before the bound), else the document's subject. None when it states none,
    or when it says support was dropped ("Dropped support for Frob 3.8": the bound is the next version, not said)."""
    if _DROPS.search(sentence):
        return _dropped(sentence, mentions, context_entity)
    return _bounds(sentence, mentions, context_entity)


def _bounds(sentence: str, mentions: Sequence[Mention], context_entity: str | None) -> list[ObservationIn] | None:
    out: list[ObservationIn] = []
    taken: list[tuple[int, int]] = []
    for kind, rx in _RULES:
        for m in rx.finditer(sentence):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            platform = m.group("p") if "p" in rx.groupindex and m.group("p") else None
            if platform is None:
                platform = _platform_before(sentence, m.start())
            if platform is None or platform[:1].isdigit():
                continue
            entity = _subject(sentence, m.start(), mentions, platform) or context_entity
            if not entity or entity_key(entity) == entity_key(platform):
                continue
            taken.append(m.span())
            metric = platform_metric(platform)
            # (the words before a noun "support for" qualify the support, not a part: "Official support for Frob 3.14")
            scope = None if re.match(r"support\s+for\b", m.group(), re.I) else _scope(sentence[:m.start()], entity,
                                                                                     mentions)
            bounds = [("minimum", m.group("v")), ("maximum", m.group("w"))] if kind == "range" else [
                (kind, m.group("v"))]
            out += [ObservationIn(entity=entity, metric=metric, value=value, unit="version",
                                  condition=", ".join(filter(None, [bound, scope]))) for bound, value in bounds]
    return out or None


# (an issue reference may follow each: "Drop support for Frob 3.8 (#976) and 3.9 (#1056)")
_MORE_VERSIONS = re.compile(r"(?:\s*\(#?\d+\))?(?:\s*(?:,|and|&|or)\s*v?\d+(?:\.\d+){1,2}(?:\s*\(#?\d+\))?)*")


def _dropped(sentence: str, mentions: Sequence[Mention], context_entity: str | None) -> list[ObservationIn] | None:
    """The platform versions a sentence says support was dropped for ("Drop EOL frob 3.8": frob_version 3.8,
    condition "dropped")."""
    out = []
    end = 0
    owner = context_entity  # (whose the drops are: the support stated after them is too)
    for m in _drops(sentence):
        entity = _subject(sentence, m.start(), mentions, m.group("p")) or context_entity
        if entity and entity_key(entity) != entity_key(m.group("p")):
            owner = entity
            # ("Dropped support for Frob 3.7 and 3.8": each one)
            more = _MORE_VERSIONS.match(sentence, m.end())
            more_text = more.group(0) if more else ""
            for version in [m.group("v"), *re.findall(r"\d+(?:\.\d+){1,2}", more_text)]:
                out.append(ObservationIn(entity=entity, metric=platform_metric(m.group("p")), value=version,
                                         unit="version", condition="dropped"))
            end = m.end() + len(more_text)
            # "Drop Frob 3.8, 3.9 and support 3.13, 3.14": what the rest supports, of the same platform
            rest = _SUPPORTS_MORE.match(sentence, end)
            if rest is not None:
                out += [ObservationIn(entity=entity, metric=platform_metric(m.group("p")), value=version,
                                      unit="version", condition="supported")
                        for version in re.findall(r"\d+(?:\.\d+){1,2}", rest.group("vs"))]
                end = rest.end()
    # ("Drop EOL Frob 3.8; add Frob 3.13 support": a bound stated after the drop, read as any)
    after = _bounds(sentence[end:], [], owner) if 0 < end < len(sentence) and out else None
    return [*out, *(after or [])] or None


# the platform's versions a drop's sentence goes on to support, its name not repeated ("... and support 3.13, 3.14")
_SUPPORTS_MORE = re.compile(r"\s*(?:,|;)?\s*(?:and\s+)?(?:add(?:s|ed)?\s+support\s+for|support(?:s|ed)?|"
                            r"add(?:s|ed)?)\s+(?P<vs>v?\d+\.\d+(?:\.\d+)?(?:\s*(?:,|and|&)\s*v?\d+\.\d+(?:\.\d+)?)*)"
                            r"(?![\w.]*\d)", re.I)


# words of a subject that name the product itself or a release of it, not a part of it
_SELF = frozenset({"it", "they", "this", "the", "a", "an", "its", "our", "latest", "current", "newest", "new",
                   "version", "versions", "release", "releases", "package", "library", "project", "tool", "now", "also",
                   "still", "currently", "only", "officially", "and", "can", "be", "is", "are", "will", "was",
                   "which", "that"})


# where a subject ends: its verb
_VERB = re.compile(r"\b(?:is|are|was|were|can|could|will|may|must|should|has|have|had|requir\w*|need\w*|support\w*|"
                   r"add\w*|run\w*|install\w*|depend\w*|work\w*|test\w*|compatib\w*|target\w*)\b", re.I)


def _scope(before: str, entity: str, mentions: Sequence[Mention]) -> str | None:
    """The part of the product a bound holds for, when the sentence's subject names one ("Brokers, Connect and
    tools now require Frob 17"; "Clients require Frob 11 or later"): a condition, so two parts' bounds are two
    facts. None when the subject is the product itself ("It", "Quux", "The latest version")."""
    subject = re.split(r"[.;:!?]\s+", before.strip())[-1]
    subject = _VERB.split(re.sub(r"^[\s*+•-]+", "", subject), maxsplit=1)[0]
    subject = re.sub(r"\s+(?:now|also|still|currently|only|officially)\s*$", "", subject.strip(), flags=re.I)
    words = [w for w in re.findall(r"[A-Za-z][\w.+#-]*", subject)
             if w.lower() not in _SELF and entity_key(w) not in {entity_key(entity), *(entity_key(x.surface) for x in
                                                                                     mentions)}]
    if not words or len(subject.split()) > 8 or re.search(r"\b(?:if|when|while|because|to)\b", subject, re.I):
        return None
    return subject


def _platform_before(sentence: str, at: int) -> str | None:
    """The platform a range names before it ("for any Frob version from 3.7 to 3.14")."""
    m = re.search(r"([A-Za-z][\w.+#]*)\s+versions?\s*$", sentence[:at])
    return m.group(1) if m else None


def _subject(sentence: str, at: int, mentions: Sequence[Mention], platform: str) -> str | None:
    """The product a bound is of: the last name before it that is not the platform."""
    before = [m for m in mentions if m.end <= at and entity_key(m.canonical) != entity_key(platform)
              and entity_key(m.surface) != entity_key(platform)]
    return before[-1].canonical if before else None
