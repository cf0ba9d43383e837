"""Deterministic question analysis: language, named entities, aspects, topic words and question kind.

Pure and offline: spaCy blank pipelines (no trained model ships offline) with an EntityRuler built
from the alias list and a curated list of technology names, plus surface heuristics for names the
lists do not know (CamelCase, acronyms, capitalised words mid-sentence, quoted names, Latin product
names inside Chinese text). Every entity is resolved to its canonical name through the aliases.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

import spacy
from pydantic import BaseModel, Field

from openresearch.agents.extract.asked import answer_kind
from openresearch.agents.extract.metric_names import canonical_metric, unit_kind
from openresearch.agents.plan.attributes import (
    asks_release_dates,
    attribute_list,
    brought_spans,
    gloss_by_sentence,
    keyword_like,
    lookup,
    metric_key,
    owner_key_gloss,
    zh_platform_events,
)
from openresearch.agents.plan.lexicon import (
    ASPECTS,
    EN_FILLER,
    EN_KIND_MARKERS,
    NOT_ENTITIES,
    TECH_NAMES,
    ZH_FILLER,
    ZH_KIND_MARKERS,
)
from openresearch.agents.plan.vocabulary import ordinary_word, short_name
from openresearch.identity import AliasResolver, entity_key
from openresearch.ingest.textnorm import STOP_WORDS, guess_lang
from openresearch.numbers import known_unit

Language = Literal["en", "zh"]
_QUOTED = re.compile(r"[\"“「《『]([^\"”」》』]{2,60})[\"”」》』]")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9+#._/-]*(?: [A-Z][A-Za-z0-9+#._/-]*)*")
_CAMEL = re.compile(r"^[A-Za-z]+[a-z][A-Z]\w*$|^[A-Z][a-z]*[A-Z]+\w*$")
_EN_WORD = re.compile(r"[a-z][a-z0-9'-]*")
_ZH_SPLIT = re.compile(r"[\s，。？！、；：,.?!;:（）()“”\"「」《》]+")


class QuestionAnalysis(BaseModel):
    question: str
    language: Language = "en"
    kind: str = "overview"  # lookup | selection | comparison | how | why | trend | overview
    entities: list[str] = Field(default_factory=list)  # canonical names, in order of appearance
    attributes: list[str] = Field(default_factory=list)  # what is asked, in the question's words ("population")
    metrics: list[str] = Field(default_factory=list)  # the attributes' canonical metric keys, same order
    aspects: list[str] = Field(default_factory=list)  # lexicon keys, in order of appearance
    topic: str = ""  # what the question is about besides its entities ("message broker", "消息队列")
    keywords: list[str] = Field(default_factory=list)


def _alias_table(extra: Mapping[str, Iterable[str]] | None) -> dict[str, list[str]]:
    text = resources.files("openresearch").joinpath("data/aliases.json").read_text("utf-8")
    table: dict[str, list[str]] = json.loads(text)
    for canonical, names in (extra or {}).items():
        table[canonical] = list(names)
    return table


def _pattern(nlp: Any, name: str, case_sensitive: bool) -> list[dict[str, str]]:
    attr = "ORTH" if case_sensitive else "LOWER"
    return [{attr: t.text if case_sensitive else t.text.lower()} for t in nlp.make_doc(name)]


class Analyzer:
    """Holds the two spaCy pipelines and the alias resolver; `analyse` is a pure function of the text."""

    def __init__(self, aliases: Mapping[str, Iterable[str]] | None = None) -> None:
        table = _alias_table(aliases)
        self.resolver = AliasResolver(table)
        names = [(n, len(n) <= 3) for canonical, alias in table.items() for n in (canonical, *alias)]
        # short aliases ("PG", "MSK") only as written, or every "pg" in a sentence becomes PostgreSQL
        names += [(n, True) for n in TECH_NAMES]
        self._nlp = {lang: self._pipeline(lang, names) for lang in ("en", "zh")}

    @staticmethod
    def _pipeline(lang: str, names: list[tuple[str, bool]]) -> Any:
        nlp = spacy.blank(lang)
        nlp.add_pipe("sentencizer")
        ruler: Any = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
        ruler.add_patterns([{"label": "TECH", "pattern": _pattern(nlp, n, cs)} for n, cs in names])
        return nlp

    def analyse(self, question: str) -> QuestionAnalysis:
        text = " ".join(question.split())
        language: Language = "zh" if guess_lang(text) == "zh" else "en"
        asked = lookup(text, language)
        doc = self._nlp[language](text)
        found = [(e.start_char, e.text) for e in doc.ents if language == "en" or _latin_bounded(text, e)]
        found += _quoted(text)
        found += _en_names(doc) if language == "en" else _zh_latin_names(text)
        found = _hyphen_joined(text, found)
        if asked is not None:
            # a look-up names one thing, qualifier and all ("Blue Lake Township, Michigan" is not two entities)
            at = text.find(asked.entity)
            found = [(at, asked.entity)]
        compared = _compared_list(text) if asked is None and language == "en" else []
        if compared and all(n.islower() and not _product_word(n) for _, n in compared):
            compared = []  # ("How do latency, throughput and memory compare for Zorbq?": what is compared of it)
        if len(compared) >= 2:
            # "Compare simdjson, yyjson, RapidJSON and nlohmann/json on ...": the list is what is compared, whatever
            # its case; other capitalised words of the question (README, JSON, January) are its context
            found = compared
        elif asked is None:
            found += _listed_names(text, [s for _, s in found])
            if language == "en":
                found += _bare_names(text, found)
            if language == "en" and (subject := _asked_subject(text)) is not None:
                # "What figures does wibblet publish for itself (decoding, GC pauses, ...)?": the question is
                # about its subject, whatever its case; the capitalised words of its aside are context (a name that
                # is another clause's subject, "... and when did Quux release 3.5.0?", is asked about too)
                found = [subject, *(f for f in found if f[0] > subject[0] and re.search(
                    r"\b(?:did|does|do|has|have|is|are|was|were)\s+$", text[:f[0]], re.I))]
        if language == "en" and asked is None and (owned := _OWNED_BY.match(text)):
            # "What are Quux's default settings for ... JPEG/WebP/AVIF image encoding ...?": one owner is asked
            # about; the names after it qualify what is asked of it
            found = [f for f in found if f[0] < owned.end("name") or re.match(r"['’]s\b", text[f[0] + len(f[1]):])]
        if language == "en" and asked is None and (owner := _owner(text)) and not any(
                s.lower() == owner[1].lower() for _, s in found):
            found.append(owner)  # "What are zorbd's default settings ...?": what owns what is asked
        if language == "en" and asked is None:
            # "For zorbq, which release dropped Frob 3.7?": what a sentence opens with asking about
            found += [f for f in _for_subjects(text) if not any(s.lower() == f[1].lower() for _, s in found)]
        if language == "en" and asked is None and len(compared) < 2:
            found = _owners_not_parts(text, found)
        if language == "zh":
            found = _zh_compared(text, found)
            # (a platform a release dropped or added support for is no product compared: "放弃了对 Frob 3.8 的支持")
            platforms = {entity_key(e.split()[0]) for e in zh_platform_events(text)}
            found = [f for f in found if entity_key(f[1]) not in platforms] or found
        if language == "en" and len(found) >= 2:
            # "the defaults for ... the DNS cache TTL", "what upper and lower TTL limits does each apply": an
            # abbreviation no list knows, inside the words of what is asked, is part of its name
            ruled = {e.start_char for e in doc.ents}
            kept = [f for f in found if f[0] in ruled or not _in_attribute(text, *f)]
            found = kept if kept else found
        if language == "en" and _ASKS_SETTINGS.search(text):
            # "the default values of requestTimeout, poolSize and retry_limit": keys of settings, not products
            # (one that owns what is asked is a package: "zorbq_pool's FrobPool")
            found = [f for f in found
                     if not _SETTING_KEY.fullmatch(f[1]) or re.match(r"['’]s\b", text[f[0] + len(f[1]):])]
        if language == "en" and len(found) >= 2:
            # "what minimum Frobnode and Zorb versions does Quux 5.0 require?": what Quux needs, not compared with it;
            # (a name an aside places the figures in, "(both in Frobnode and in proxy mode)", is a condition)
            required = [m.span("list") for m in _REQUIRED.finditer(text)]
            # "which release added Frob 3.14 support", "dropped Frob 3.8", "the Frob-3.14-capable release": a
            # platform a release supports, no product compared
            required += [m.span("x" if m.group("x") else "y") for m in _PLATFORM.finditer(text)]
            required += [(m.start(1), m.end(1)) for m in _PLACED_IN.finditer(text)]
            # "We run Quux with Zorb (and are evaluating Frob) as the broker": what it runs with, and an aside
            required += [m.span("x") for m in _USED_AS.finditer(text)]
            # "the frob_limit parameter used for Zorb integration": what it serves, no product compared
            required += [m.span("x") for m in _USED_FOR.finditer(text)]
            required += [m.span() for m in re.finditer(r"\([^()]*\)", text)]
            kept = [f for f in found if not any(s <= f[0] < e for s, e in required)]
            # (a platform named with a version once is the platform wherever else it is named: "the Frob-version
            # support timeline of A and B: when did each drop Frob 3.8 and Frob 3.9")
            platforms = {entity_key(text[m.start(g):m.end(g)].split()[0].split("-")[0])
                         for m in _PLATFORM.finditer(text) for g in ("x", "y") if m.group(g)}
            kept = [f for f in kept if entity_key(f[1]) not in platforms]
            found = kept if kept else found
        if language == "en" and len(found) >= 2:
            found = _acquired_parts(text, found)
        # ("defaulting to 4 MiB frames": a unit after its number is no name)
        found = [f for f in found if not (re.search(r"\d\s?$", text[:f[0]]) and known_unit(f[1]))] or found
        named = found
        found = _in_context(text, found)
        found = _versions(text, found, asks_release_dates(text, language))
        # ("when did Zorbq ship 4.0, the version that added QXP/2": a feature the release brought, no product)
        brought = brought_spans(text)
        found = [f for f in found if not any(s <= f[0] < e for s, e in brought)] or found
        entities = self._resolve(found)
        aspects = _aspects(text, language)
        topic, keywords = _topic(text, language, [s for _, s in found], aspects)
        kind = "lookup" if asked is not None else _kind(text, language, len(entities))
        # a name that only qualifies what is asked stays in its attribute in English ("per-CPU slab size"); in Chinese
        # it is no attribute of its own ("在 x86 上")
        surfaces = [*entities, *(s for _, s in (named if language == "zh" else found))]
        attributes = [asked.attribute] if asked is not None else gloss_by_sentence(
            text, attribute_list(text, language, surfaces), entities)
        if asked is not None:
            keywords = list(dict.fromkeys([*asked.attribute.split(), *keywords]))
        # a look-up's attribute is a metric only when it names a known quantity, or when the question asks for a
        # date or a count ("When was X elected to a public office?": a key of its own words, asked.py): "mascot"
        # or "sport" is answered by statements, and a made-up key would keep every statement that carries no
        # such observation out of it
        dated_or_counted = answer_kind(text, language) is not None
        # (and each compared product's own key an attribute is glossed with: "retry count (frob_limit / max_frobs)")
        metrics = [m for a in attributes if (m := canonical_metric(a) or (metric_key(a) if dated_or_counted else
                                                                           None))] if asked is not None else [
            m for a in attributes for m in (metric_key(a), *map(metric_key, owner_key_gloss(a)))]
        return QuestionAnalysis(question=text, language=language, kind=kind, entities=entities,
                                attributes=attributes, metrics=list(dict.fromkeys(metrics)),
                                aspects=aspects, topic=topic, keywords=keywords)

    def _resolve(self, found: list[tuple[int, str]]) -> list[str]:
        """Canonical names in order of first appearance; a name inside a longer one is dropped."""
        out: list[str] = []
        seen: set[str] = set()
        seen_words: list[set[str]] = []
        for _, surface in sorted(found, key=lambda f: (f[0], -len(f[1]))):
            # (a possessive is no part of the name: "does Zorbq's control API use" names Zorbq)
            surface = re.sub(r"['’]s$", "", surface.strip(" .,-/")) or surface
            name = self.resolver.canonical(surface)
            key = entity_key(name)
            words = set(re.findall(r"\w+", surface.lower()))
            # (a name joined to an ordinary word, "ZorbBackup", is "Zorb" too: a later "Zorb" names it shorter)
            if short := short_name(surface):
                words.add(short.lower())
            if not key or key in seen or name.lower() in NOT_ENTITIES:
                continue
            if any(words < w for w in seen_words):
                continue  # "Foo" after the heuristic "Apache Foo": the same thing, named shorter
            seen.add(key)
            seen_words.append(set(re.findall(r"\w+", name.lower())) | words)
            out.append(name)
        return out


def _latin_bounded(text: str, span: Any) -> bool:
    """Chinese is tokenised per character, so the ruler would find "Kafka" inside "Kafkaesque"."""
    before = text[span.start_char - 1] if span.start_char > 0 else " "
    after = text[span.end_char] if span.end_char < len(text) else " "
    return not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum())


def _quoted(text: str) -> list[tuple[int, str]]:
    return [(m.start(1), m.group(1)) for m in _QUOTED.finditer(text) if len(m.group(1).split()) <= 5]


def _name_like(token: Any) -> bool:
    t: str = token.text
    if not t[:1].isalpha() or t.lower() in NOT_ENTITIES:
        return False
    if _CAMEL.match(t) or (t.isupper() and len(t) >= 2) or (any(c.isdigit() for c in t) and t[0].isupper()):
        return True
    return t[0].isupper() and not token.is_sent_start  # a capital at a sentence start proves nothing


# the subject of a question's inverted auxiliary: "does wibblet publish", "is frobz faster", "has quux changed"
_AUX_SUBJECT = re.compile(r"^(?:what|which|how\b[^?]{0,40}?|where|why|when)\b[^?]{0,60}?"
                          r"\b(?:does|do|did|is|are|was|were|has|have|had|can|will)\s+"
                          r"(?P<name>[a-z][\w.+/-]*[a-z0-9])\s+(?P<verb>[a-z]+)\b", re.I)
# grammar, not a list of names: the words that are no subject of their own
_FUNCTION_WORDS = frozenset({"it", "its", "they", "them", "this", "that", "these", "those", "each", "every", "the", "a",
                             "an", "any", "all", "both", "either", "one", "there", "we", "you", "he", "she", "i",
                             "someone", "anyone", "anything", "something", "people", "users", "sources", "vendors"})


_OWNER = re.compile(r"^\s*(?:what|which|how|where|when|who)\b[^?]{0,40}?(?<![\w'’.-])"
                    r"(?P<name>[a-z][\w.+-]*[a-z0-9])['’]s\s+[a-z]", re.I)


_OWNED_BY = re.compile(r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<name>[\w.+-]+)['’]s\s+", re.I)


# words that make the noun after them a common one ("the kernel's", "each file's", "last year's")
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "each", "every", "its", "their", "our",
                          "your", "my", "his", "her", "last", "next", "previous", "current", "one", "any", "some",
                          "no", "another"})
# a possessive no name writes: "today's", "tomorrow's"
_DEICTIC = frozenset({"today", "tomorrow", "yesterday", "tonight", "year", "month", "week", "day", "everyone",
                      "nobody", "somebody", "other", "others", "world", "country", "nation", "company"})


def _owner(text: str) -> tuple[int, str] | None:
    """The owner a question asks about in lower case ("What are zorbd's default queue settings?"): a word no
    ordinary English word, or an ordinary one written bare as an owner ("What are uv's defaults?": a common noun
    takes a determiner, "the kernel's limit", "the world's largest ...", and owns nothing named)."""
    m = _OWNER.match(text)
    if m is None or not m.group("name").islower() or m.group("name") in _FUNCTION_WORDS:
        return None
    name = m.group("name")
    if ordinary_word(name) and not re.search(r"[\d.+]", name):
        before = re.findall(r"[\w'’]+", text[:m.start("name")])
        if not before or before[-1].lower() in _DETERMINERS or name in _DEICTIC or len(before) > 3:
            return None
    return m.start("name"), name


_FOR_LEAD = re.compile(r"(?:^|(?<=[.?!])\s+)(?:and\s+|also\s+)?for\s+(?P<name>[a-z][\w.+-]*[a-z0-9])\s*,\s*"
                       r"(?:what|which|how|when|where|is|are|does|do|did)\b", re.I)


def _for_subjects(text: str) -> list[tuple[int, str]]:
    """The lower-case names sentences open with as what they ask about ("For zorbq, which release ...?"): a word no
    ordinary English word and no setting's key."""
    return [(m.start("name"), m.group("name")) for m in _FOR_LEAD.finditer(text)
            if m.group("name").islower() and m.group("name") not in _FUNCTION_WORDS
            and _unknown_word(m.group("name"))]


def _unknown_word(word: str) -> bool:
    """A word that may name a product: no setting's key, and no ordinary English word unless it holds a digit, a
    dot or a plus ("py3", "node.js")."""
    return not _SETTING_KEY.fullmatch(word) and not keyword_like(word) and (
        not ordinary_word(word) or bool(re.search(r"[\d.+]", word)))


def _asked_subject(text: str) -> tuple[int, str] | None:
    """The one thing a question asks about when it names it after its auxiliary and in lower case ("does wibblet
    publish"): a single identifier-like word that is no function word."""
    m = _AUX_SUBJECT.match(text)
    if m is None or m.group("name").lower() in _FUNCTION_WORDS or not m.group("name").islower():
        return None
    if m.group("verb").lower() in ("of", "and", "or", "to", "in", "on", "for"):
        return None
    return m.start("name"), m.group("name")


def _en_names(doc: Any) -> list[tuple[int, str]]:
    """Runs of name-like tokens outside ruler matches: "Apache Pulsar", "ScyllaDB", "GPT-4"."""
    inside = {i for e in doc.ents for i in range(e.start, e.end)}
    out: list[tuple[int, str]] = []
    run: list[Any] = []
    for token in [*doc, None]:
        if token is not None and token.i not in inside and _name_like(token):
            run.append(token)
            continue
        if run:
            out.append((run[0].idx, doc.text[run[0].idx: run[-1].idx + len(run[-1].text)]))
            run = []
    return out


def _hyphen_joined(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A name joined to a word by a hyphen is one name ("Zorbq-Caching", "Frob-Quux"): the ruler or the name heuristic
    may have read only a part of it ("Zorbq" a known name, "Caching" a capitalised word)."""
    out: dict[int, str] = {}
    for pos, name in sorted(found, key=lambda f: (f[0], -len(f[1]))):
        start, end = pos, pos + len(name)
        # (a word that names no name after the hyphen is none of it: "the Frob-version timeline")
        while (m := re.match(r"-[A-Za-z][\w.]*[A-Za-z0-9]", text[end:])) and text[start:end][-1:].isalnum() and (
                m.group()[1].isupper() or not ordinary_word(m.group()[1:])):
            end += m.end()
        while (m := re.search(r"(?<![\w.-])[A-Za-z][\w.]*[A-Za-z0-9]-$", text[:start])) and \
                text[start:start + 1].isalpha() and (m.group()[:1].isupper() or not ordinary_word(m.group()[:-1])):
            start = m.start()
        if any(s <= start and end <= s + len(n) for s, n in out.items()):
            continue  # a part of a name read already
        out[start] = text[start:end]
    return list(out.items())


def _zh_latin_names(text: str) -> list[tuple[int, str]]:
    """In Chinese text any Latin word is a product-like name, unless it is an aspect word (TPS, API)."""
    aspect_words = {t for a in ASPECTS for t in a.en_terms}
    return [(m.start(), m.group()) for m in _LATIN_RUN.finditer(text)
            if m.group().lower() not in aspect_words and m.group().lower() not in NOT_ENTITIES]


def _aspects(text: str, language: Language) -> list[str]:
    lowered = text.lower()
    first: dict[str, int] = {}
    for aspect in ASPECTS:
        hits = [m.start() for t in aspect.en_terms for m in re.finditer(rf"(?<![a-z]){re.escape(t)}(?![a-z])",
                                                                        lowered)]
        if language == "zh":
            hits += [i for t in aspect.zh_terms if (i := lowered.find(t)) >= 0]
        if hits:
            first[aspect.key] = min(hits)
    return sorted(first, key=first.__getitem__)


def _strip(text: str, surfaces: list[str], aspects: list[str]) -> str:
    for surface in sorted(set(surfaces), key=len, reverse=True):
        text = re.sub(re.escape(surface), " ", text, flags=re.I)
    for aspect in ASPECTS:
        if aspect.key in aspects:
            for t in sorted((*aspect.zh_terms, *aspect.en_terms), key=len, reverse=True):
                # whole words only: stripping "throughput" out of "high-throughput" would leave "high-"
                text = re.sub(rf"(?<![A-Za-z0-9-]){re.escape(t)}(?![A-Za-z0-9-])", " ", text, flags=re.I)
    return text


def _topic(text: str, language: Language, surfaces: list[str], aspects: list[str]) -> tuple[str, list[str]]:
    """The first run of content words once entity names, aspect words and question scaffolding are gone."""
    rest = _strip(text, surfaces, aspects)
    if language == "zh":
        for filler in sorted(ZH_FILLER, key=len, reverse=True):
            rest = rest.replace(filler, " ")
        chunks = [c for c in _ZH_SPLIT.split(rest) if len(c) >= 2 and not c.isascii()]
        return (chunks[0] if chunks else ""), chunks[:5]
    runs: list[list[str]] = [[]]
    for word in re.findall(r"[A-Za-z][A-Za-z0-9'-]*|[^\sA-Za-z]", rest):
        lowered = word.lower().strip("-'")
        if _EN_WORD.fullmatch(lowered) and lowered not in EN_FILLER and lowered not in STOP_WORDS:
            runs[-1].append(lowered)
        elif runs[-1]:
            runs.append([])
    runs = [r for r in runs if r]
    keywords = list(dict.fromkeys(w for r in runs for w in r))[:6]
    return (" ".join(runs[0][:3]) if runs else ""), keywords


_NAME = r"[\w.+#/-]+(?: (?!(?:of|and|or)\b)[\w.+#/-]+){0,2}"  # one to three words, never across "of" or "and"
_LIST_OF_NAMES = re.compile(rf"(?:compare|comparing|between|of|among|:)\s+((?:{_NAME}, )+"
                            rf"(?:and |or )?{_NAME}(?: (?:and|or) {_NAME})?|[\w.+#/-]+ (?:and|vs\.?|versus) [\w.+#/-]+)"
                            r"(?=\s*(?:[:?.,;]|\bon\b|\bin\b|\bfor\b|$))", re.I)


_RELEASE_NOUN = r"(?:releases?|versions?|editions?)"
_RELEASE_VERB = r"(?:published|released|shipped|announced|tagged|cut|made available|out|ship|release|publish)"
_COMPARED = re.compile(
    r"^\s*(?:compare|contrast)\s+(?P<a>.+?)\s+(?:on|in terms of|by|across|regarding|with respect to|for)\s|"
    r"\bhow\s+(?:do|does|did)\s+(?P<b>.+?)\s+(?:compare|differ|stack up|perform)\b|"
    r"\b(?:between|among)\s+(?P<c>.+?)\s+(?:on|in terms of|regarding|for|when)\s|"
    # "I'm choosing between A, B and C.": the list ends the sentence
    r"\b(?:between|among)\s+(?P<e>[^.?!,]+(?:,[^.?!,]+)+?)\s*[.?!]?\s*$|"
    # "We're choosing a queue and comparing A, B, C and D as they behave out of the box.": a list of names, not
    # what is measured of them ("comparing the latency of A and B")
    r"\bcomparing\s+(?P<f>(?:(?!\bof\b)[^.?!,])+(?:,(?:(?!\bof\b)[^.?!,])+?)+?)"
    r"(?=\s+(?:as|on|in terms of|by|across|regarding|for|when|with respect to)\s|\s*[.?!]?\s*$)|"
    # "When were the A, B and C releases published?", "When did A and B ship their last versions?": the dates of
    # each one's releases, compared
    rf"^\s*when\s+(?:was|were|did|are|is)\s+(?:the\s+)?(?:(?:recent|latest|last|first|major|minor)\s+)?"
    rf"(?:{_RELEASE_NOUN}\s+of\s+)?(?P<d>.+?)\s+(?:{_RELEASE_NOUN}\s+)?{_RELEASE_VERB}\b", re.I)


_ZH_SETTING = re.compile(r"\s*(?:语言|平台|环境|生态|系统)?\s*(?:中|里|下)")


def _zh_compared(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """What a Chinese question compares: not a unit it asks in ("ns/op", "MB/s"), not a gloss of a name before it
    ("json-iterator（jsoniter）"), not the setting it is asked in ("在 Go 语言中") when two or more others are named."""
    def unit(name: str) -> bool:
        return "/" in name and unit_kind(name) is not None

    def gloss(at: int, name: str) -> bool:
        return bool(re.search(r"\S[（(]\s*$", text[:at])) and bool(re.match(r"\s*[）)]", text[at + len(name):]))

    def setting(at: int, name: str) -> bool:
        after = text[at + len(name):]
        return bool(re.search(r"在\s*$", text[:at])) and bool(_ZH_SETTING.match(after))

    kept = [(at, n) for at, n in found if not unit(n) and not gloss(at, n)]
    named = [(at, n) for at, n in kept if not setting(at, n)]
    if (listed := _ZH_COMPARE_LIST.search(text)) is not None:
        # "我们在选 Python 任务队列，比较 A、B、C 和 D": what the comparison lists, not the kind of thing it is
        names = {n.lower() for n in re.split(r"\s*[、，,和与及]\s*", listed.group(1)) if n}
        compared = [(at, n) for at, n in named if n.lower() in names]
        if len({n for _, n in compared}) >= 2:
            return compared
    return named if len({n for _, n in named}) >= 2 else kept


_ZH_NAME = r"[A-Za-z][\w.+#/-]*(?:\s[A-Za-z][\w.+#/-]*)?"
_ZH_COMPARE_LIST = re.compile(rf"(?:比较|对比|比一比)(?:一下)?\s*((?:{_ZH_NAME}\s*[、，,和与及]\s*)+{_ZH_NAME})")


# what a product needs ("minimum Frobnode and Zorb versions"), and the place an aside puts its figures in ("(both in
# Frobnode and in proxy mode)"): conditions of what is asked, no names compared
_REQUIRED = re.compile(r"\b(?:minimum|min\.?|required|supported|compatible|oldest)\s+"
                       r"(?P<list>(?:[^?.;]|\.(?=\w)){1,80}?)\s+versions?\b", re.I)
_PLATFORM_VERSION = r"[A-Za-z][\w.+#]*(?:[-\s]v?\d+(?:\.\d+)*\+?)+"
_PLATFORM = re.compile(rf"\b(?:add(?:s|ed|ing)?|drop(?:s|ped|ping)?|remov(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|"
                       rf"support(?:s|ed|ing)?|requir(?:e|es|ed|ing)|need(?:s|ed)?|compatible\s+with|"
                       rf"runs?\s+on|target(?:s|ed|ing)?)\s+(?:(?:support|compatibility)\s+(?:for|with)\s+)?"
                       rf"(?P<x>{_PLATFORM_VERSION})|"
                       rf"(?P<y>{_PLATFORM_VERSION})[-\s](?:support|compatibility|compatible|capable|ready)\b", re.I)
_USED_AS = re.compile(r"\bwith\s+(?P<x>[\w.+#/-]+(?:\s+[\w.+#/-]+)?)\s*(?:\([^()]*\)\s*)?"
                      r"as\s+(?:the|a|an|its|our|their)\s+\w+", re.I)
_USED_FOR = re.compile(r"\b(?:used|needed|meant|useful|required)\s+(?:for|with|by|in)\s+(?:the\s+)?"
                       r"(?P<x>[\w.+#/-]+)", re.I)
_PLACED_IN = re.compile(r"\([^()]*?\b(?:in|on|under|with)\s+([^()\s,]+)[^()]*\)", re.I)
# a question for settings by their keys, and a key's shape: lower camel case of words ("requestTimeout", not "macOS",
# "jQuery" or "iPhone", whose first part is no word) or snake case ("max_client_conn")
_ASKS_SETTINGS = re.compile(r"\bdefault(?:s|\s+values?|\s+settings?)?\b|\b(?:settings|options|parameters|"
                            r"configuration)\b", re.I)
_SETTING_KEY = re.compile(r"[a-z]{3,}(?:[A-Z][a-z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_VERSION = r"v?\d+(?:\.\d+){0,2}(?:\.x|[-.]?(?:alpha|beta|rc|dev|pre|post|a|b)(?:[-.]?\d+)?)?(?![\w.])"
_VERSIONS_AFTER = re.compile(rf"\s+({_VERSION}(?:\s*(?:,|and|or|&|vs\.?|versus|和|与|及|、)\s*{_VERSION})*)")


def _versions(text: str, found: list[tuple[int, str]], dated: bool) -> list[tuple[int, str]]:
    """Versions of one product asked about side by side are the things compared: "For Quillo 4.2 and 4.3" asks
    of Quillo 4.2 and Quillo 4.3, "Zorbly 20 and Zorbly 22" of both lines. One version alone stays the
    product's ("Brantex 3" may be the product's current name, and its figures are the product's). When the
    question asks when releases came out (`dated`) and names releases, not lines, they are the product's releases:
    "When were Quillo 1.1.5, 1.2.0rc1 and 2.0.0 released?" asks one product's release dates, each a condition."""
    # the releases the question names ("1.0", "1.2.0rc1"; a whole number, "... changed the default to 20", is none)
    named = [m.group() for m in re.finditer(rf"(?<![\w.]){_VERSION}", text) if re.search(r"\.|\d[-.]?[a-z]", m.group())]
    if dated and len(named) >= 2:
        # "Quillo 1.1.5, 1.2.0rc1 and 2.0.0", "Zorb 1.0, 1.16 and 2.5": the product, named once; its releases,
        # when they came out, are no names
        found = [(pos, re.sub(rf"\s+{_VERSION}$", "", name)) for pos, name in found if not re.fullmatch(_VERSION, name)]
        return list(dict.fromkeys((pos, name) for pos, name in found if name))
    out: list[tuple[int, str]] = []
    versions: dict[str, list[tuple[int, str]]] = {}
    for pos, name in found:
        m = _VERSIONS_AFTER.match(text, pos + len(name)) if text[pos:pos + len(name)] == name else None
        vs = re.findall(_VERSION, m.group(1)) if m else []
        versions.setdefault(name, []).extend((pos, v) for v in vs)
    for pos, name in found:
        vs = list(dict.fromkeys(v for _, v in versions.get(name, [])))
        if len(vs) >= 2:
            if (pos, name) == min(((p, name) for p, n in found if n == name), default=(pos, name)):
                out += [(pos + i, f"{name} {v}") for i, v in enumerate(vs)]
        else:
            out.append((pos, name))
    return out


def _in_context(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """What a question asks about, without the names that only qualify it: the owner in "Quux's Frobz" or "Quux 的
    Frobz" (the thing is Frobz), and, when the words before a colon name something, the names inside the list after it
    ("... of Frobz: the per-CPU cache size, the Linux kernel version needed"), which are parts of what is asked."""
    starts = {pos for pos, _ in found}
    ends = sorted(pos + len(name) for pos, name in found)
    owners = set()
    for pos, name in found:
        owned = re.match(r"['’]s\s+|\s*的\s*", text[pos + len(name):])
        # the last of a list of names ("A、B 和标准库 C 的 JSON 编码") shares its 的 with the others: no owner
        listed = any(e <= pos and pos - e <= 20 and re.search(r"[、,，]|和|与|及|\b(?:and|or)\b", text[e:pos])
                     for e in ends)
        if owned and pos + len(name) + owned.end() in starts and not listed:
            owners.add(pos)
    kept = [(pos, name) for pos, name in found if pos not in owners]
    colon = next((m.start() for m in re.finditer(r"[:：]", text)), -1)
    if colon > 0 and any(pos < colon for pos, _ in kept):
        kept = [(pos, name) for pos, name in kept if pos < colon]
    return kept


def _compared_list(text: str) -> list[tuple[int, str]]:
    """The things a comparison question lists ("Compare A, B, C and D on ...", "how do A, B and C compare",
    "between A and B on ..."), with their positions; a parenthesis after an item is its gloss, not an item."""
    first = re.split(r"(?<=[?!])\s|(?<=\.)\s+(?=[A-Z])", text, maxsplit=1)[0]
    # a gloss in parentheses ("nlohmann/json (JSON for Modern C++)") is blanked, offsets kept: its "for" ends nothing
    first = re.sub(r"\([^()]*\)", lambda p: " " * len(p.group(0)), first)
    if len(subjects := _auxiliary_subjects(first)) >= 2:
        return subjects
    m = _COMPARED.search(first)
    if not m:
        return _later_compared(text, len(first))
    group = next(g for g in ("a", "b", "c", "d", "e", "f") if m.group(g) is not None)
    return _list_items(m.start(group), m.group(group))


# a later sentence that asks to compare, its list ending the sentence or at what it compares them on
_COMPARE_LATER = re.compile(r"(?:compare|contrast)\s+(?P<a>.+?)(?:\s+(?:on|in terms of|regarding|by|across|"
                            r"with respect to)\s|\s*[.?!]?\s*$)", re.I)


def _later_compared(text: str, after: int) -> list[tuple[int, str]]:
    """The things a later sentence asks to compare ("Before I pick one: how big can each grow? Compare Quux's
    FrobCache, zorbs' decorators and Blarg."): the first sentence names none."""
    for s in re.finditer(r"(?:(?<=[?!])|(?<=\.))\s+(?=(?:compare|contrast)\b)", text, re.I):
        if s.start() < after:
            continue
        at = s.end()
        sentence = re.split(r"(?<=[?!])\s|(?<=\.)\s+(?=[A-Z])", text[at:], maxsplit=1)[0]
        sentence = re.sub(r"\([^()]*\)", lambda p: " " * len(p.group(0)), sentence)
        if (m := _COMPARE_LATER.match(sentence)) and len(items := _list_items(at + m.start("a"), m.group("a"))) >= 2:
            return items
    return []


def _list_items(start: int, span: str) -> list[tuple[int, str]]:
    """The names a compared list's text holds, with their positions (`span` starts at `start`)."""
    out: list[tuple[int, str]] = []
    for piece in re.finditer(r"[^,]+", span):
        for item in re.finditer(r"(?:(?<=^)|(?<=\s))(?:(?!\b(?:and|or|vs\.?|versus)\b).)+", piece.group()):
            name = item.group().strip(" .;:")
            name = re.sub(r"^(?:and|or|the)\s+", "", name, flags=re.I).strip()
            at = start + piece.start() + item.start() + item.group().find(name)
            if (owned := _OWNED_ITEM.match(name)) is not None:
                name = owned.group(1)  # "Quux's FrobPool", "zorbs' decorators": what owns the part is compared
            if name and re.search(r"[A-Za-z]", name) and len(name.split()) <= 4:
                out.append((at, name))
    return out if len(out) >= 2 else []


# an item of a compared list that names a part of its owner: "Quux's FrobPool", "zorbs' function decorators"
_POSSESSIVE = r"([\w.+#/-]*\w)(?:['’]s|(?<=s)['’])"  # "Quux's", "zorbs'": the owner's name in group 1
_OWNED_ITEM = re.compile(_POSSESSIVE + r"\s+\S")
# a question's auxiliary after its question word: what follows it is its subject ("when did A and B drop ...", "in
# which release and on what date did A and B stop ...")
_ASKED_AUX = re.compile(r"\b(?:when|which|what)\b[^,.;:?!()]{0,40}?\b(?:did|do|does|will|have|has|had)\s+", re.I)


def _auxiliary_subjects(sentence: str) -> list[tuple[int, str]]:
    """The names an auxiliary's subject lists, up to its verb: "When did zorbq and frob.cache stop supporting ..."
    lists zorbq and frob.cache (a list of two or more; the verb, "stop", is the first ordinary word in lower case; an
    owner's part, "Quux's FrobPool", is the owner's). Nothing when the subject is no list of names ("when did each
    drop", "when did the Quux team ...")."""
    m = _ASKED_AUX.search(sentence)
    if m is None:
        return []
    out: list[tuple[int, str]] = []
    current: list[tuple[int, str]] = []
    owned = False  # inside an owner's part ("'s FrobPool"): its words are no names of their own

    def close() -> None:
        if current:
            out.append((current[0][0], " ".join(w for _, w in current)))
            current.clear()

    for t in re.finditer(r",|[^\s,]+", sentence[m.end():]):
        word, at = t.group(), m.end() + t.start()
        if word in (",", "&") or word.lower() in ("and", "or"):
            close()
            owned = False
            continue
        if owned:
            continue
        if (o := re.fullmatch(_POSSESSIVE, word)) is not None:
            current.append((at, o.group(1)))
            close()
            owned = True
            continue
        if not (word[:1].isupper() or re.search(r"\w[\d.+_#/-]\w|\d", word) or not ordinary_word(word)) or \
                word.lower() in STOP_WORDS or not word[:1].isalpha():
            break
        current.append((at, word))
    close()
    return out if len(out) >= 2 and all(len(n.split()) <= 3 for _, n in out) else []


_PART_OF = re.compile(r"\b(?:a|an|the|each|every|my|our|your|one|this|that)\s+(?P<owner>[a-z][\w.+-]*[a-z0-9])\s+$|"
                      # "For zorbq_pool's FrobPool, ...": a package's class (a lower-case name owns it)
                      r"(?<![\w.+-])(?P<package>[a-z][\w.+-]*[a-z0-9])['’]s\s+$")
_ENDS_PHRASE = re.compile(r"\s*(?:[,;.?!)]|(?:and|or|with|for|in|on|to|but)\b|$)")


def _owners_not_parts(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A lower-case name that owns the capitalised one after it ("If I create an aiohttp ClientSession ..."): the
    owner is what is asked about, the owned name (a class, a component) no entity; nor is what the owner uses by
    default ("with the default TCPConnector", the name heading its phrase). Unchanged without such an owner."""
    owners: list[tuple[int, str]] = []
    parts: set[int] = set()
    for pos, name in found:
        m = _PART_OF.search(text, 0, pos) if name[:1].isupper() else None
        if m is None or m.end() != pos:
            continue
        group = "owner" if m.group("owner") else "package"
        owner = m.group(group)
        if owner.lower() in NOT_ENTITIES or owner in STOP_WORDS or owner in _FUNCTION_WORDS or not (
                _unknown_word(owner) or (group == "package" and _SETTING_KEY.fullmatch(owner))):
            continue  # (a package's name may be written as a key is: "zorbq_pool")
        owners.append((m.start(group), owner))
        parts.add(pos)
    if not owners:
        return found
    kept = [(pos, name) for pos, name in found if pos not in parts and not (
        re.search(r"\bdefault\s+$", text[:pos], re.I) and _ENDS_PHRASE.match(text, pos + len(name)))]
    known = {name.lower() for _, name in kept}
    return kept + [o for o in owners if o[1].lower() not in known]


# a part a product gets, named by its own name and its kind: "when did Zorbq get the Frob plugin and initial Quux
# support" (Frob and Quux are what Zorbq got, no products compared)
_PART_KIND = re.compile(r"[\s-]+(?:plugins?|modules?|extensions?|drivers?|backends?|integrations?|adapters?|"
                        r"connectors?|exporters?|providers?|support)\b", re.I)
_ACQUIRED = re.compile(r"\b(?:get|gets|got|gain|gains|gained|add|adds|added|introduce|introduces|introduced|ship|"
                       r"ships|shipped|receive|receives|received|land|lands|landed|grow|grew)\b[^?.;:]*$",
                       re.I)


def _acquired_parts(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The names that are parts another name in the sentence gets ("when did Zorbq get the Frob plugin"): a name
    followed by its kind (a plugin, a driver, support) in the object of a verb of getting whose subject is a name
    found. Unchanged when none is, or when all would go."""
    parts: set[int] = set()
    for pos, name in found:
        start = max(text.rfind(c, 0, pos) for c in ".?!") + 1
        got = _ACQUIRED.search(text, start, pos)
        if got is None or not _PART_KIND.match(text, pos + len(name)):
            continue
        if any(start <= p < got.start() for p, n in found if p != pos):
            parts.add(pos)
    kept = [f for f in found if f[0] not in parts]
    return kept if kept else found


def _in_attribute(text: str, pos: int, name: str) -> bool:
    """Whether `name` is an abbreviation ("DNS", "TTL") written inside a noun phrase of common words ("the DNS
    cache TTL"): the word right before or after it is a content word of the vocabulary, and no number follows."""
    if not re.fullmatch(r"[A-Z]{2,5}(?:/\d(?:\.\d)?)?", name):  # (a protocol's version with it: "QXP/2 requests")
        return False
    if re.search(r"(?<![\w-])(?:a|an)\s+$", text[:pos], re.I):
        return True  # ("point it at a URL", "an API"): a thing of a kind, no name
    before = re.search(r"(?<![\w-])([a-z][a-z-]*) $", text[:pos])
    after = re.match(r" ([a-z][a-z-]*)(?![\w-])(?!\s+v?\d)", text[pos + len(name):])
    return any(w and w.group(1) not in STOP_WORDS and ordinary_word(w.group(1)) for w in (before, after))


# a lower-case word that may be a name: letters and digits, joined by "-", "_" or "." ("zorbq", "frob-lint")
_BARE_WORD = re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*(?![\w@/-]|\.\w)")


def _bare_names(text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Lower-case names no list knows, by their place: a word the vocabulary does not hold whole that a release
    number follows ("when were zorbq 2.11.0 and 2.14.0 released") or that is coordinated with a name found
    already ("a release timeline for Quux and zorbq"). A setting's key ("max-line-length") is none."""
    # (a name found elsewhere in another case is read here too: where it is written matters, "for zorbq 3 and Quux:
    # ... when were Zorbq 3.0 and 3.2 released" names zorbq before its colon)
    known: set[str] = set()
    spans = [(pos, pos + len(name)) for pos, name in found]
    # (a name a word is coordinated with is a product's, not a key of a list of settings: "max_conns, retry and
    # clearCache" lists keys)
    names = [(s, e) for s, e in spans if not (_SETTING_KEY.fullmatch(text[s:e]) or keyword_like(text[s:e]))]
    out: list[tuple[int, str]] = []
    dates_asked = asks_release_dates(text, "en")
    listed = _listed_bare(text)
    for m in _BARE_WORD.finditer(text):
        word = m.group()
        if m.start() in listed and word not in known and not any(s <= m.start() < e for s, e in spans):
            out.append((m.start(), word))  # ("point anvil, zorbq and lantern at ..."): one of a list of names
            known.add(word)
            continue
        versioned = re.match(r"\s+v?\d+\.\d+", text[m.end():])
        # (an ordinary word is a name too where releases' dates are asked of it by number: "when were quill 3.7
        # and 3.9 released"; "section 3.2 of the spec" is a part of another thing, "requiring 3.9+" a verb's)
        if word in known or word in NOT_ENTITIES or word in STOP_WORDS or re.fullmatch(_RELEASE_VERB, word) or (
                ordinary_word(word) and not (
                versioned and dates_asked and not re.match(r"\s+\S+\s+of\b", text[m.end():]) and
                not re.search(r"(?:ing|ed)$", word))) or \
                _SETTING_KEY.fullmatch(word) or keyword_like(word) or any(s <= m.start() < e for s, e in spans):
            continue
        # ("on the zorbq side", "for zorbq's part": whose the clause's figures are)
        versioned = versioned or (re.search(r"\b(?:on|from|for)\s+the\s+$", text[:m.start()], re.I) and re.match(
            r"(?:['’]s)?\s+(?:side|part|end)\b", text[m.end():]))
        joined = any(re.fullmatch(r"\s*(?:,|and|or|&|vs\.?|versus)\s*(?:and\s+|or\s+)?", text[e:m.start()]) or
                     # (a major version may follow the name: "zorbq 3 and Quux")
                     re.fullmatch(r"(?:\s+v?\d+(?:\.\d+)?)?\s*(?:,|and|or|&|vs\.?|versus)\s*", text[m.end():s])
                     for s, e in names)
        # (what a sentence runs or installs, "If I run zorbq without ...", or whose release it asks, "in which zorbq
        # release": an unknown word used so is the tool)
        used = _TOOL_USE.search(text, 0, m.start()) or _RELEASE_AFTER.match(text, m.end())
        if versioned or joined or used:
            out.append((m.start(), word))
            known.add(word)
    return out


# an enumeration of three or more single lower-case words: "anvil, zorbq and lantern"
_BARE_ITEM = r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*"
_BARE_LIST = re.compile(rf"(?<![\w.@/-]){_BARE_ITEM}(?:,\s+{_BARE_ITEM}){{1,8}},?\s+(?:and|or)\s+{_BARE_ITEM}"
                        r"(?![\w@/-]|\.\w)")


def _listed_bare(text: str) -> set[int]:
    """Where the items of an enumeration of lower-case words start, when the enumeration lists names: one of its
    items (letters only) is no word of the vocabulary, so the list is of things of one kind, names, and its
    ordinary-looking items are names too ("anvil, zorbq and lantern"; "latency, throughput and memory" lists
    none). A function word or a setting's key among the items makes it no list of names."""
    out: set[int] = set()
    for m in _BARE_LIST.finditer(text):
        items = [(m.start() + i.start(), i.group()) for i in re.finditer(r"[a-z][\w.-]*", m.group())
                 if i.group() not in ("and", "or")]
        if any(w in STOP_WORDS or w in NOT_ENTITIES or _SETTING_KEY.fullmatch(w) or keyword_like(w)
               for _, w in items):
            continue
        if any(w.isalpha() and len(w) >= 4 and _product_word(w) for _, w in items):
            out.update(pos for pos, _ in items)
    return out


def _product_word(word: str) -> bool:
    """A lower-case word that may name a product: no word of the vocabulary, and no quantity's ("latency",
    "throughput": what is measured, not what is)."""
    return _unknown_word(word) and canonical_metric(word) is None


_TOOL_USE = re.compile(r"\b(?:run|runs|running|use|uses|using|install|installing|deploy|deploying|upgrade|"
                       r"upgrading|configure|configuring)\s+$", re.I)
_RELEASE_AFTER = re.compile(r"\s+(?:releases?|versions?)\b", re.I)


def _listed_names(text: str, known: list[str]) -> list[tuple[int, str]]:
    """Names in an enumeration that already holds a known name ("Compare pgvector, Milvus and Qdrant"):
    a lower-case product name is a name there even though nothing else marks it."""
    known_keys = {k.lower() for k in known}
    out: list[tuple[int, str]] = []
    # a gloss in parentheses ("Quux (Q2/Q3) and frobz") is blanked, offsets kept: it does not end the list
    text = re.sub(r"\s*\([^()]*\)", lambda p: " " * len(p.group(0)), text)
    for m in _LIST_OF_NAMES.finditer(text):
        items = [(m.start(1) + i.start(), i.group().strip()) for i in re.finditer(r"[^,]+", m.group(1))]
        pieces = [(pos, re.sub(r"^(?:and|or)\s+", "", t, flags=re.I)) for pos, t in items]
        split = [(pos + t.find(p), p) for pos, t in pieces for p in re.split(r"\s+(?:and|vs\.?|versus|or)\s+", t)]
        # (a list whose known names are all settings' keys, "max_open_files, retry and clearCache", lists keys)
        if not any(p.lower() in known_keys and not (_SETTING_KEY.fullmatch(p) or keyword_like(p)) for _, p in split) \
                or len(split) < 2:
            continue
        out += [(pos, p) for pos, p in split if p and p.lower() not in NOT_ENTITIES and len(p.split()) <= 3]
    return out


def _kind(text: str, language: Language, n_entities: int) -> str:
    lowered = text.lower()
    first = re.split(r"[.?!。？！]\s*", lowered, maxsplit=1)[0]
    if re.match(r"\s*(?:compare|comparing|contrast)\b", first) or first.startswith(("对比", "比较")):
        return "comparison"  # "Compare A and B ... Which figures are comparable?" compares; it does not choose
    if language == "en" and re.search(r"[.?!]\s+(?:compare|contrast)\s", lowered) and n_entities >= 2:
        return "comparison"  # "Before I pick one: ...? Compare A, B and C.": what it asks is a comparison
    markers = ZH_KIND_MARKERS if language == "zh" else EN_KIND_MARKERS
    # what the question asks is in its asking sentences: "I'm choosing between A and B. What is each one's default
    # timeout?" asks for figures (the first sentence says why); "... Which should I use?" asks to choose
    sentences = re.findall(r"[^.?!。？！]+(?:[.?!。？！]+|$)", lowered)
    asking = [s for s in sentences if s.rstrip().endswith(("?", "？"))]
    if asking and len(asking) < len(sentences):
        lowered = " ".join(asking)
    # a relative "which" ("the unit from which objects are carved") asks nothing
    lowered = re.sub(r"\b(?:from|in|by|on|of|to|at|with|for|through|under|into|onto|above|below|beyond|over|after|"
                     r"before|during|within|upon|against|past|behind)\s+which\b", " ", lowered)
    # "in which version was X added?" asks when, not which thing to choose
    lowered = re.sub(r"\bwhich\s+(?:[\w.-]+\s+)?(?:versions?|releases?|majors?|minors?|years?|dates?|months?|days?)\b",
                     " ", lowered)
    # "which port does each one listen on?" asks each one's value: there is nothing to choose between them
    lowered = re.sub(r"\bwhich\b(?=[^.?!]*\b(?:each|respectively|every one)\b)", " ", lowered)
    hit = {kind for kind, words in markers for w in words
           if (w in lowered if language == "zh" else re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", lowered))}
    # an explicit why/trend outranks "two names were mentioned"; a bare "how" about two names compares them
    for kind in ("selection", "comparison", "why", "trend"):
        if kind == "selection" and n_entities == 1:
            continue  # "which page sizes exist" of one named thing looks something up; there is nothing to choose
        if kind in hit:
            return kind
    if n_entities >= 2:
        return "comparison"
    return "how" if "how" in hit else "overview"


@cache
def default_analyzer() -> Analyzer:
    """Built once per process: building the spaCy pipelines is the only slow part."""
    return Analyzer()


def analyse(question: str) -> QuestionAnalysis:
    return default_analyzer().analyse(question)
