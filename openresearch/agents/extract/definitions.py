"""What a figure in a definition entry is of: the term the entry defines.

A configuration or option reference defines one keyword per entry: "quoll.bufsize <size>" over "Sets the buffer
size to this size (in bytes). ... The default value is 16384"; a directive heading "idle_timeout" over
"default: 75s"; a manual page's "--max-depth=n: Sets the maximum depth (default 250)". A figure there whose own
words name no quantity, only a value, a default or a bound, is the term's: metric "quoll.bufsize", condition
"default", and the unit the entry states for its values ("in bytes", "expressed in seconds") when it has none.
The entry's shape decides, whatever the keyword; no list of settings is involved.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from openresearch.agents.extract.releases import ENTRY_SINCE, VERSION_NOTE, release_heading
from openresearch.agents.extract.values import find_values
from openresearch.ingest.documents import TERM, keyword_shape
from openresearch.ingest.settings_lines import help_entry
from openresearch.models import ObservationIn
from openresearch.numbers import canonical_unit, known_unit

_REACH = 8000  # characters back from the figure to its entry's term (a long entry explains a setting at length)
_PARAGRAPHS = 30
# a manual page's option entry, its tag first: "--max-depth=n: Sets ...", "-t, --threads N: Use N threads"
_OPTION_ENTRY = re.compile(r"(?P<term>--?[A-Za-z][\w.-]*(?:=\S+)?(?:,? --?[A-Za-z][\w.-]*(?:=\S+)?)*"
                           r"(?: [<\[]?[A-Za-z]+[>\]]?)?):\s")
# ... or flattened into one paragraph with its description: "--frob-limit=INT Sets the number of ..."
# (or with its argument and a dash: "--frob-limit <int> - Maximum number of ...")
_OPTION_LEAD = re.compile(r"(?P<term>--?[A-Za-z][\w.-]*(?:=[A-Z][A-Z_]*)?(?:,\s*--?[A-Za-z][\w.-]*(?:=[A-Z][A-Z_]*)?)*)"
                          r"(?:\s+(?=[A-Z](?:[a-z]|\s))|(?:\s+<[\w.|-]+>|\s+[A-Z][A-Z_]*)?\s+[-\u2013\u2014]\s+(?=\S))")
# ... or a long option opening its paragraph, its argument and description in lower case: "--frob-limit limit allow
# frobs up to the specified limit" (a list of options, flattened)
_LONG_OPTION_LEAD = re.compile(r"(?P<term>--[A-Za-z][\w.-]*[A-Za-z0-9])\s+(?=[a-z])")
# a paragraph of one word that joins two examples of an entry's description
_CONNECTIVES = frozenset({"or", "and", "then", "else", "otherwise", "also", "e.g.", "i.e.", "or:", "and:"})
# a command's help line, its tag first and its default last: "-p, --port int   port to listen on (default 1313)"
_OPTION_HELP = re.compile(r"(?P<term>--?[A-Za-z][\w.-]*(?:,? --?[A-Za-z][\w.-]*)*)\s[^\n]*\(default:?\s[^)\n]+\)\s*$")
# a list item that opens with the key it describes, a comma after it: "max_conns, maximum number of connections"
_KEY_FIRST = re.compile(r"(?P<term>[A-Za-z_][\w.-]*[A-Za-z0-9_]),\s")
# a definition list's entry as ingest writes it: its term, " : ", its description
_TERM_ENTRY = re.compile(r"(?P<term>[A-Za-z_][\w.-]*[A-Za-z0-9]) : (?=\S)")
# what a figure's own words call it when they name no quantity: the term's value, with the kind of limit it is
_GENERIC = {"value": "", "default": "default", "default_value": "default", "defaults": "default",
            "min_value": "minimum", "minimum": "minimum", "min": "minimum",
            "max_value": "maximum", "maximum": "maximum", "max": "maximum",
            "percentage": "", "number": "", "count": "", "setting": ""}
GENERIC_METRICS = frozenset(_GENERIC)
# a figure's metric that says it is a default ("timeout_for_http_requests_default" of "... (default: 30 s)")
_DEFAULT_METRIC = re.compile(r"(?:^|_)defaults?(?:_|$)")
# the unit an entry gives its values: "(in bytes)", "is expressed in seconds", "in units of milliseconds"
_ENTRY_UNIT = re.compile(r"\(in ([a-z]+)\)|\b(?:expressed|given|specified|measured|set)\s+in\s+([a-z]+)\b|"
                         r"\bin units of ([a-z]+)\b|\[([a-z]+)\]\s*$|(?:#|//)\s*(?:in\s+)?([a-z]+)\s*$|"
                         # ("Unit of time is seconds.", "The unit is milliseconds")
                         r"\bunits?(?:\s+of\s+(?:time|size|measure))?\s+(?:is|are)\s+([a-z]+)\b|"
                         # ("the time span in seconds to watch a worker for", "the timeout in seconds a call may take")
                         r"\b(?:time|timeout|delay|interval|window|span|period|duration|lifetime|age|size|length)\s+in\s+"
                         r"([a-z]+)\b", re.I)
# a comment after a listed default that restates it in a larger unit: "default: 86400000 # 24 hours"
_RESTATED = re.compile(r"(?:#|//)\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$", re.I)
_SECONDS = {"ms": 1e-3, "us": 1e-6, "s": 1.0, "minutes": 60.0, "hours": 3600.0}


# a line of code or a formula the text flattened into a paragraph of its own ("max_conn + (pool_size * dbs)"):
# short and alone like a heading, but no heading
_FORMULA = re.compile(r"\s[+*/=<>]\s|[{};]|\w\(")


def _entry_heading(para: str) -> bool:
    """A short line of its own that may head an entry: heading-like and no flattened formula."""
    return _heading_like(para) and not _FORMULA.search(para)


def _heading_like(para: str) -> bool:
    return 0 < len(para) <= 80 and "\n" not in para and ": " not in para and " | " not in para and \
        not re.search(r"[.,;:!?。：；]$|[a-z]{2}[.!?]\s+\S", para)  # (two sentences are no heading)


def keyword(term: str) -> str:
    """The keyword a term line defines: "quoll.bufsize <size>" -> "quoll.bufsize", "timeout client <timeout>" ->
    "timeout client", "--max-depth=n" -> "--max-depth", "-t, --threads N" -> "--threads"."""
    options: list[str] = re.findall(r"--?[A-Za-z][\w.-]*", term) if term.startswith("-") else []
    if options:
        return max(options, key=len)
    words: list[str] = []
    for w in term.split():
        if words and not re.fullmatch(r"[a-z][\w.:/+-]*", w):
            break
        words.append(w.split("=", 1)[0])
    return " ".join(words)


def readable_term(term: str) -> str:
    """A keyword in words, as a question would write them: "quoll.bufsize" -> "quoll bufsize", "idle_timeout"
    -> "idle timeout", "IdleWaitTimeout" -> "idlewaittimeout idle wait timeout" (camel case split, and
    whole: "idlewait" may be one word in a question)."""
    bare = term.strip("-")
    split = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", bare)
    plain = " ".join(re.sub(r"[._/=:-]+", " ", split).lower().split())
    return f"{bare.lower()} {plain}" if split != bare else plain


def term_metric(term: str) -> str:
    """The metric key of a keyword, its words kept apart: "quoll.bufsize" -> "quoll_bufsize", "IdleWaitTimeout" ->
    "idle_wait_timeout", "--max-depth" -> "max_depth", "timeout client" -> "timeout_client"."""
    # (a unit the key ends in is one word: "pullerMaxPendingKiB" -> "puller_max_pending_kib")
    term = re.sub(r"(?<=[a-z])([KMGTP]i?B|[KMGTP]b)$", lambda m: "_" + m.group(1).lower(), term.strip("-"))
    split = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", term)
    return re.sub(r"\W+", "_", split).strip("_").lower()


def defined_term(text: str, start: int) -> str | None:
    """The keyword the definition entry holding `start` defines, or None when it is in no such entry: the
    entry's own option tag, else the nearest heading above (a short line of its own) when that heading is a
    keyword-shaped term; a heading of words ("Performance tuning") ends the search."""
    para_start = text.rfind("\n\n", 0, start) + 2 if text.rfind("\n\n", 0, start) >= 0 else 0
    if text.startswith("-", para_start) and (entry := help_entry(text[para_start:_para_end(text, para_start)])):
        return help_term(entry.group("term"), entry.group("description"))
    if (m := _OPTION_ENTRY.match(text, para_start)) or (m := _OPTION_LEAD.match(text, para_start)) or (
            m := _LONG_OPTION_LEAD.match(text, para_start)):
        return keyword(m.group("term"))
    if (m := _TERM_ENTRY.match(text, para_start)) and keyword_shape(m.group("term")):
        return m.group("term")  # "summaryLength : (int) ... Default is 70.": a definition list's entry, as ingested
    para_end = text.find("\n\n", para_start)
    if m := _OPTION_HELP.match(text, para_start, para_end if para_end >= 0 else len(text)):
        return keyword(m.group("term"))
    if (m := _KEY_FIRST.match(text, para_start)) and re.search(r"[_.]|[a-z][A-Z]", m.group("term")):
        return m.group("term")  # "max_conns, maximum number of connections. (Default 100)": a list's entry
    own = text[para_start:para_end if para_end >= 0 else len(text)]
    if len(own) <= 80 and release_heading(own) is not None:
        return None  # a change log's release heading opens a release, inside no entry ("### poetry-core" above)
    pos = para_start - 2
    below = ""  # the paragraph under the one looked at (none: the figure's own)
    for _ in range(_PARAGRAPHS):
        if pos <= 0 or start - pos > _REACH:
            return None
        cut = text.rfind("\n\n", 0, pos)
        para = text[cut + 2 if cut >= 0 else 0:pos].strip()
        pos = cut
        if VERSION_NOTE.match(para) or para.lower() in _CONNECTIVES:
            continue  # "added in 0.1.7" under the entry's heading: a note of the entry, not its term; "or"
            # between two examples: a word of the entry's description
        if (m := _OPTION_LEAD.match(para)) or (m := _LONG_OPTION_LEAD.match(para)):
            return keyword(m.group("term"))  # "--frob-limit=INT Sets the ...": the option's entry, flattened
        if len(para) <= 80 and release_heading(para) is not None:
            return None  # an entry never runs past the release heading above it
        if (since := ENTRY_SINCE.fullmatch(para)) and keyword_shape(since.group("term")):
            return since.group("term")  # "retry 0.32.3+": the entry's heading, with the version it came in
        if _entry_heading(para):
            first = para.split()[0]
            if TERM.fullmatch(para) and keyword_shape(first):
                return keyword(para)
            above = text[text.rfind("\n\n", 0, pos) + 2 if text.rfind("\n\n", 0, pos) >= 0 else 0:max(pos, 0)]
            if not (_word_line(below) or (_word_line(above.strip()) and below)):
                return None  # a heading of words ("Performance tuning") ends the entry
            # one of a run of short lines of words, a list the text flattened ("There are 1000 clients" over
            # "The clients prepare 200 queries"): part of the entry's description, no heading
        below = para
    return None


def _para_end(text: str, start: int) -> int:
    end = text.find("\n\n", start)
    return len(text) if end < 0 else end


# what a help entry's description opens with, up to a word that goes on about it ("Number of frobs to send",
# "Timeout for each frob in seconds")
_HELP_HEAD = re.compile(r"(?:(?:max(?:imum)?|min(?:imum)?|total|initial)\s+)?"
                        r"(?P<head>[A-Za-z][\w/-]*(?:\s+[A-Za-z][\w/-]*){0,3}?)"
                        r"(?=\s+(?:to|per|for|in|on|at|that|which|when|if|with|from|by|during|used|of)\b|"
                        r"\s*[.,;:(\[]|\s*$)")
_COUNT_HEAD = re.compile(r"(?:number|count|amount)\s+of\s+", re.I)


def help_term(tags: str, description: str) -> str:
    """The keyword a help entry's figures are of: its long option ("-k, --sockets=135" -> "--sockets"),
    else, for a lone letter ("-n"), what its description calls it: "Number of frobs to send" -> "frobs",
    "Timeout for each frob in seconds" -> "timeout" (a letter is no name of a quantity)."""
    term = keyword(re.sub(r"=\S*", "", tags))
    counted = _COUNT_HEAD.match(re.sub(r"^(?:max(?:imum)?|min(?:imum)?|total|initial)\s+", "", description, flags=re.I))
    rest = description[description.lower().find(counted.group(0).lower()) + len(counted.group(0)):] if counted \
        else description
    m = _HELP_HEAD.match(rest)
    head = " ".join(m.group("head").lower().split()) if m else ""
    first = re.split(r"(?<=[a-z0-9)])\.\s", description, maxsplit=1)[0]  # (its first sentence says what it is)
    if head and re.search(r"\b(?:concurrent(?:ly)?|simultaneous(?:ly)?)\b", first, re.I) and \
            "concurrent" not in head:
        head = f"concurrent {head}"  # "Number of wibblers to run concurrently": how many run at once
    if len(term.lstrip("-")) > 1:
        # (a long option its description names with more words, "--conns" for "Maximum number of concurrent
        # conns": those words)
        words = re.split(r"[-_.]", term.lstrip("-").lower())
        return head if head and head.split()[-len(words):] == words and len(head.split()) > len(words) else term
    return head or term


def help_column_default(m: re.Match[str], entity: str | None) -> list[ObservationIn] | None:
    """The default a help entry writes in its option's own column, "-k, --sockets=135   Concurrent sockets to
    hold open": the figure the option takes when not given (a word there, "--mode=FAST", is none of ours; a
    placeholder, "--frobs=[pos. int.]", none at all)."""
    column = re.search(r"=(\S+)$", m.group("term")) if entity else None
    if column is None or entity is None:
        return None
    values = find_values(column.group(1))
    if len(values) != 1 or values[0].start != 0 or values[0].end != len(column.group(1)) or \
            values[0].kind in ("date", "year"):
        return None
    v = values[0]
    return [ObservationIn(entity=entity, metric=term_metric(help_term(m.group("term"), m.group("description"))),
                          value=v.raw, unit=v.unit or None, condition="default")]


def _option_entry(text: str, para_start: int) -> bool:
    """Whether the paragraph at `para_start` opens an option's entry with its tag ("--frob-limit=INT Sets ...")."""
    return bool(_OPTION_ENTRY.match(text, para_start) or _OPTION_LEAD.match(text, para_start))


def _word_line(para: str) -> bool:
    """A short line of words that reads like a heading but names no keyword (a flattened list's item)."""
    return _entry_heading(para) and not (TERM.fullmatch(para) and keyword_shape(para.split()[0]))


def entry_description(text: str, start: int, term: str) -> str:
    """The first words of the description of the entry `term` heads, above `start` (its first paragraph after the
    heading, at most 160 characters): what the setting is, in the reference's own words, for matching a
    question's words by meaning ("If connection and login don't finish in this amount of time ..." of
    "server_connect_timeout"). "" when the heading is not found or the unit is itself that paragraph."""
    at = start
    while (at := text.rfind(f"\n\n{term}", max(0, start - _REACH), at)) >= 0:
        line_end = text.find("\n\n", at + 2)
        heading = text[at + 2:line_end if line_end >= 0 else len(text)]
        if _entry_heading(heading):
            break  # the entry's heading, not a formula or a sentence that starts with the keyword
    if at < 0:
        return ""
    first = text.find("\n\n", at + 2)
    if first < 0 or first + 2 >= start:
        return ""
    pos = first + 2
    for _ in range(_DESCRIPTION):
        end = text.find("\n\n", pos)
        end = len(text) if end < 0 else end
        para = text[pos:end].strip()
        if pos > start and (_entry_heading(para) or _option_entry(text, pos)):
            return ""  # the next entry
        # (its labelled lines, "Command line: --frob INT", "Default: 8", say no more what it is; nor does the unit)
        if not (pos <= start < end + 2) and para and not para.lower().startswith("default") and \
                not _LABEL_LINE.match(para):
            return para[:160]
        if end >= len(text):
            return ""
        pos = end + 2
    return ""


# a labelled line of an entry ("Command line: --frob INT", "Type: int", "Env: FROB")
_LABEL_LINE = re.compile(r"[A-Z][\w -]{0,25}:\s+\S[^\n]{0,80}$")


_SECTION_REACH = 40  # paragraphs back from an entry to the heading of its section


def _entries(text: str, term: str) -> int:
    """How many definition entries of `term` a text has."""
    return _entry_counts(text)[term]


@lru_cache(maxsize=8)
def _entry_counts(text: str) -> Counter[str]:
    """Every definition entry's term in a text, counted in one pass per document (not one per unit); only the
    last few documents are kept, so no document's text outlives its reading."""
    return Counter(m.group("term") for m in re.finditer(r"(?m)^(?P<term>[^\n:]+?) : ", text))


def term_section(text: str, start: int, term: str) -> str | None:
    """The heading of the section the entry at `start` is in, when the document defines its term in more than one
    section ("quality" under "AVIF", under "JPEG" and under "WebP"): what tells the definitions apart. None when
    the term is defined once, or no heading is found."""
    if _entries(text, term) < 2:
        return None
    pos = text.rfind("\n\n", 0, start)
    for _ in range(_SECTION_REACH):
        if pos <= 0:
            return None
        cut = text.rfind("\n\n", 0, pos)
        para = text[cut + 2 if cut >= 0 else 0:pos].strip()
        pos = cut
        if _heading_like(para) and not para.startswith(("{{", "{%", "<", "[!", ">")) and not _TERM_ENTRY.match(para):
            return para
    return None


# the unit the description after an entry's default gives its values: "Default timeout of a call in
# milliseconds.", "The number of seconds after which a call is considered slow"
_DESCRIBED_UNIT = re.compile(r"\bin ([a-z]+)\s*(?:[.;)]|$)|\b(?:the )?number of ([a-z]+)\b", re.I)
_DESCRIPTION = 3  # paragraphs after the figure that may describe its entry


def stated_unit(text: str, start: int = 0, end: int | None = None) -> str | None:
    """The last unit `text[start:end]` states for an entry's values in so many words, if it is one known ("(in
    bytes)", "the timeout in seconds")."""
    for m in reversed(list(_ENTRY_UNIT.finditer(text, start, len(text) if end is None else end))):
        word = next(g for g in m.groups() if g)
        if known_unit(word):
            return word.lower()
    return None


def _restated_unit(line: str) -> str | None:
    """The unit of a listed default its comment restates in a larger one: "default: 86400000 # 24 hours" -> ms."""
    figure, m = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)", line), _RESTATED.search(line)
    if not figure or not m:
        return None
    unit, factor = canonical_unit(m.group(2))
    seconds = factor / 1000 * float(m.group(1))  # (a time's canonical unit is the millisecond)
    if unit != "ms" or seconds <= 0 or float(figure.group(1)) <= 0:
        return None
    ratio = seconds / float(figure.group(1))
    return next((u for u, s in _SECONDS.items() if abs(ratio - s) <= 1e-9 * max(ratio, s)), None)


def entry_unit(text: str, start: int) -> str | None:
    """The unit the entry around `start` states for its values ("Sets the buffer size (in bytes)", "This time
    is expressed in seconds", a description that ends "[seconds]"), from the paragraph's start to `start`, else in
    the entry's paragraphs above it, back to its heading; else the one measure the description after it names
    ("Default: 5000" over "Default timeout of a call in milliseconds."), up to the next heading; None when it
    states none it knows, or names two."""
    para_start = text.rfind("\n\n", 0, start) + 2 if text.rfind("\n\n", 0, start) >= 0 else 0
    para_end = text.find("\n\n", start) if text.find("\n\n", start) >= 0 else len(text)
    if unit := stated_unit(text, para_start, start) or stated_unit(text, start, para_end) or \
            _restated_unit(text[start:para_end]):
        return unit
    own_entry = _option_entry(text, para_start)  # "--frob-limit=INT Sets ... Default is 8.": the entry is this
    pos = para_start - 2
    for _ in range(0 if own_entry else _PARAGRAPHS):
        if pos <= 0 or start - pos > _REACH:
            break
        cut = text.rfind("\n\n", 0, pos)
        para_at = cut + 2 if cut >= 0 else 0
        if _entry_heading(text[para_at:pos].strip()):
            break  # the entry's heading
        if unit := stated_unit(text, para_at, pos):
            return unit
        if _option_entry(text, para_at):
            break  # the paragraph that opens the entry with its option tag
        pos = cut
    named: set[str] = set()
    pos = first = para_start if own_entry else start  # (an option's own line describes it before its figure)
    for _ in range(_DESCRIPTION):
        end = text.find("\n\n", pos)
        para = text[pos:end if end >= 0 else len(text)]
        if pos > first and (_heading_like(para) or re.match(r"\s*(?:default(?: value)?|type)\s*:", para, re.I)
                            or _option_entry(text, pos)):
            break  # the next entry
        for m in _DESCRIBED_UNIT.finditer(para):
            word = next(g for g in m.groups() if g).lower()
            if known_unit(word) and canonical_unit(word)[0] not in ("", word):
                named.add(word)  # a measure ("milliseconds", "bytes"), not a count of things ("workers")
        if end < 0:
            break
        pos = end + 2
    return named.pop() if len(named) == 1 else None


# prose that names a parameter it goes on to describe: "you can pass *limit_per_host* parameter to the connector",
# "the zorb_ttl option", "the parameter max_frobs"
_NAMED_PARAMETER = re.compile(r"[*`]{0,2}(?P<key>[A-Za-z_][\w.-]*[A-Za-z0-9_])[*`]{0,2}\s+(?:parameter|option|setting|"
                              r"argument|flag|knob)s?\b|\b(?:parameter|option|setting|argument)\s+[*`]{0,2}"
                              r"(?P<key2>[A-Za-z_][\w.-]*[A-Za-z0-9_])")
_PROSE_PARAGRAPHS = 3  # how far back the prose about one parameter runs


def prose_term(text: str, start: int) -> str | None:
    """The parameter a figure's prose is about when its own words name none ("The default is 0."): the last one the
    paragraphs before it name as a parameter ("... you can pass *limit_per_host* parameter to the connector"), within
    its section (never past a heading) and a few paragraphs."""
    pos = text.rfind("\n\n", 0, start)
    own = text[pos + 2 if pos >= 0 else 0:start]
    for _ in range(_PROSE_PARAGRAPHS + 1):
        found = [m.group("key") or m.group("key2") for m in _NAMED_PARAMETER.finditer(own)]
        found = [k for k in found if k.lower() not in _NOT_KEYS]
        if found:
            return found[-1]
        if pos <= 0:
            return None
        cut = text.rfind("\n\n", 0, pos)
        own = text[cut + 2 if cut >= 0 else 0:pos].strip()
        pos = cut
        if _heading_like(own):
            return None  # a section's prose never reaches past its heading
    return None


# words before "option" or "parameter" that name none: "this option", "an extra parameter"
_NOT_KEYS = frozenset({"this", "that", "the", "a", "an", "its", "their", "each", "every", "any", "no", "same", "other",
                       "extra", "new", "optional", "following", "above", "below", "default", "config", "configuration",
                       "one", "which", "these", "those", "some", "another", "additional", "second", "first", "given"})


# the words a description opens with, up to what is no part of its noun phrase: "Glyph size, in pixels." -> "Glyph
# size", "Wobble interval of the pointer, in milliseconds" -> "Wobble interval"
_DESCRIBED = re.compile(r"(?:(?:the|a|an)\s+)?((?:[A-Za-z][a-z]+\s+){0,3}?[A-Za-z][a-z]+)(?=\s*(?:[.,;:(]|$)|"
                        r"\s+(?:in|of|for|to|is|are|was|that|which|used|when|if|at|on|by|with|before|after|"
                        r"between)\b)")


def described_metric(term: str, description: str) -> str:
    """The metric of a term, qualified as its description names it: an entry "size" described as "Glyph size, in
    pixels." is of the glyph size ("glyph_size"), "wobble_interval" described as "Pointer wobbling interval" of the
    pointer's ("pointer_wobble_interval"), only when the description's noun phrase ends with the term's own last word
    and adds at most two words; "depth" described as "Maximum number of rows kept" counts rows ("depth_rows"); the
    term's metric otherwise."""
    metric = term_metric(term)
    own_words = metric.split("_")
    if (counted := _COUNT_OF.match(description.strip())) and not any(
            re.sub(r"s$", "", counted.group(1).lower()) == re.sub(r"s$", "", w) for w in own_words):
        # "history" described as "Largest number of rows kept ..." counts rows: "history_rows"
        return f"{metric}_{counted.group(1).lower()}"
    m = _DESCRIBED.match(description.strip())
    if not m:
        return metric
    words = m.group(1).lower().split()
    own = metric.split("_")

    def stem(w: str) -> str:
        return re.sub(r"(?:ing|s)$", "", w)

    if len(words) <= 1 or stem(words[-1]) != stem(own[-1]):
        return metric
    extra = [w for w in words[:-1] if stem(w) not in {stem(o) for o in own}]
    if not extra or len(extra) > 2 or any(w in _NOT_QUALIFIERS for w in extra):
        return metric
    return "_".join([*extra, *own])


# a description that says what its term counts: "Maximum number of rows in the log", "The number of frobs kept"
_COUNT_OF = re.compile(r"(?:the\s+)?(?:(?:maximum|minimum|max|min|total|default)\s+)?number\s+of\s+([a-z]{3,})\b", re.I)
# words before a description's noun that say what kind of value it is, not what it is of
_NOT_QUALIFIERS = frozenset({"default", "maximum", "minimum", "max", "min", "total", "initial", "current", "new",
                             "optional", "number", "amount", "this", "that", "each", "every", "some", "any"})


def of_term(obs: Sequence[ObservationIn], term: str, unit: str | None, quote: str = "",
            described: str = "") -> list[ObservationIn]:
    """Observations whose metric names no quantity ("value", "default", "min_value") become the term's (as its
    `described` description qualifies it, described_metric), the kind of limit a condition; a bare one takes the
    entry's unit. Others stay as they are, and so does a default of another key the entry's `quote` writes ("the
    default for the zorb_connect timeout is 30 seconds")."""
    out = []
    for o in obs:
        # an entry's default is the term's, whatever the entry's words call it ("port to listen on (default 1313)")
        defaults = ("default" in (o.condition or "").split(", ") or bool(_DEFAULT_METRIC.search(o.metric))) and \
            o.unit not in ("date", "year") and not ("_" in o.metric and o.metric in quote.lower())
        if o.metric not in _GENERIC and not defaults:
            out.append(o)
            continue
        kind = _GENERIC.get(o.metric, "default" if defaults else "")
        parts = [p for p in (o.condition or "").split(", ") if p]
        parts += [kind] if kind and kind not in (p.lower() for p in parts) else []  # ("Default" says it already)
        condition = ", ".join(dict.fromkeys(parts)) or None
        metric = described_metric(term, described)
        if re.search(r"(?:^|_)port$", o.metric) and "port" not in metric.split("_"):
            metric += "_port"  # "frob_addr" of "(default localhost:5572)": the port of that address
        out.append(o.model_copy(update={"metric": metric, "condition": condition, "unit": o.unit or unit}))
    return out


def term_row(obs: Sequence[ObservationIn], term: str, entity: str) -> list[ObservationIn]:
    """A table of one row under a term ("type | default | max" over "integer | 1000 | 50000"): its default,
    minimum and maximum cells are the term's figures, of `entity` (the document's subject); its other cells (the
    type, whether it is mandatory, an old name) describe the term and are no figures. A four-digit setting there
    ("2000") is no year."""
    own = [o.model_copy(update={"entity": entity, "unit": None if o.unit in ("year", "date") else o.unit,
                                "condition": ", ".join(p for p in (o.condition or "").split(", ")
                                                       if p and p.lower() != term.lower()) or None})
           for o in obs if o.metric in _GENERIC]
    return of_term(own, term, None)
