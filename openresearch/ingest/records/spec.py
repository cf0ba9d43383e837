"""Which first-hand record a source names or a question asks for (pure).

`github:OWNER/REPO`, `worldbank:INDICATOR[:COUNTRIES]` and `who:INDICATOR[:COUNTRIES]` (countries as ISO
codes separated by `;` or `,`) are sources like `web` or `local:PATH`. A question is routed to one when its
own words ask for it: a repository named OWNER/REPO beside a word of repository activity, or an indicator code
in the form the API writes it (World Bank `SP.POP.TOTL`, WHO `WHOSIS_000001`) with the countries named as codes
or as names (names are matched against the API's own country list when the record is fetched).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openresearch.errors import InputError

KINDS = ("github", "worldbank", "who")
_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
_WB_CODE = re.compile(r"^[A-Za-z0-9]{1,8}(?:\.[A-Za-z0-9]{1,8}){1,5}$")
_WHO_CODE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{1,63}$")
_COUNTRY = re.compile(r"^[A-Za-z0-9]{2,3}$")
# in a question's words
_Q_REPO = re.compile(r"(?<![\w./-])(?:https?://github\.com/)?([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9][\w.-]{0,99})"
                     r"(?<![.])(?![\w/])")
_ACTIVITY = re.compile(r"\b(?:releases?|released|contributors?|contributions?|commits?|stars?|forks?|issues?|"
                       r"activity|repository|repo|licen[cs]e)\b", re.I)
_Q_WB = re.compile(r"(?<![\w.])([A-Z]{2,3}(?:\.[A-Z0-9]{2,8}){2,4})(?![\w.])")
_Q_WHO = re.compile(r"(?<![\w.])([A-Z][A-Z0-9]{1,15}(?:_[A-Z0-9]{1,15}){1,5})(?![\w.])")
_Q_ISO3 = re.compile(r"(?<![\w.])([A-Z]{3})(?![\w.])")
_SINCE = re.compile(r"\b(?:since|from|after)\s+((?:19|20)\d{2})\b|\b((?:19|20)\d{2})\s*(?:-|–|to)\s*(?:now|today)\b",
                    re.I)
_HEALTH_CONTEXT = re.compile(r"\bWHO\b|\bGHO\b|Global Health Observatory|\bcountr(?:y|ies)\b|\bnations?\b|"
                             r"\bhealth\b", re.I)
_WORDS_NOT_CODES = frozenset({"WHO", "GDP", "API", "AND", "THE", "FOR", "USD"})


@dataclass(frozen=True)
class RecordSpec:
    kind: str  # github | worldbank | who
    target: str  # OWNER/REPO or the indicator code
    countries: tuple[str, ...] = ()  # ISO codes
    country_names: tuple[str, ...] = ()  # the question's own words, matched against the API's country list
    since: int | None = None  # first year asked for

    @property
    def source(self) -> str:
        tail = f":{';'.join(self.countries)}" if self.countries else ""
        return f"{self.kind}:{self.target}{tail}"


def is_record_source(source: str) -> bool:
    return source.split(":", 1)[0] in KINDS and ":" in source


def parse_spec(source: str) -> RecordSpec:
    """`github:octo/widget`, `worldbank:SP.POP.TOTL:BRA;IND`, `who:WHOSIS_000001:BRA` -> a RecordSpec."""
    kind, _, rest = source.strip().partition(":")
    kind = kind.lower()
    if kind not in KINDS or not rest:
        raise InputError(f"unknown record source {source[:100]!r}: use github:OWNER/REPO, "
                         "worldbank:INDICATOR[:COUNTRIES] or who:INDICATOR[:COUNTRIES]")
    if kind == "github":
        if not _REPO.match(rest):
            raise InputError(f"{source[:100]!r}: a GitHub source is github:OWNER/REPO")
        return RecordSpec(kind, rest)
    code, _, tail = rest.partition(":")
    if not (_WB_CODE if kind == "worldbank" else _WHO_CODE).match(code):
        raise InputError(f"{source[:100]!r}: {code[:60]!r} is not an indicator code")
    countries = tuple(dict.fromkeys(c.strip().upper() for c in re.split(r"[;,]", tail) if c.strip()))
    bad = [c for c in countries if not _COUNTRY.match(c)]
    if bad:
        raise InputError(f"{source[:100]!r}: {bad[0][:20]!r} is not a two- or three-letter country code")
    return RecordSpec(kind, code, countries)


def since_year(text: str) -> int | None:
    m = _SINCE.search(text)
    return int(m.group(1) or m.group(2)) if m else None


def _alternatives(a: str, b: str) -> bool:
    """Two names of one kind a slash offers as alternatives ("FrobCache/QuuxCache", "ZorbPool/QuuxPool"): both
    in camel case, ending in the same word. No repository is named so."""
    tail = re.compile(r"[A-Z][a-z0-9]+$")
    ta, tb = tail.search(a), tail.search(b)
    return bool(ta and tb and ta.start() > 0 and tb.start() > 0 and ta.group() == tb.group())


def routed_specs(text: str) -> list[RecordSpec]:
    """The records a question's own words ask for (none when they name no repository or indicator code)."""
    out: list[RecordSpec] = []
    since = since_year(text)
    if _ACTIVITY.search(text):
        for m in _Q_REPO.finditer(text):
            owner, repo = m.group(1), m.group(2).removesuffix(".git")
            # "24/7", "TCP/IP", "CI/CD" are no repositories: both parts of a repository's name hold a lower-case letter
            if any(c.islower() for c in owner) and any(c.islower() for c in repo) and not _alternatives(owner, repo):
                out.append(RecordSpec("github", f"{owner}/{repo}", since=since))
    codes = [c for c in _Q_ISO3.findall(text) if c not in _WORDS_NOT_CODES]
    names = tuple(dict.fromkeys(re.findall(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*", text)))
    for m in _Q_WB.finditer(text):
        out.append(RecordSpec("worldbank", m.group(1), tuple(codes), names, since))
    for m in _Q_WHO.finditer(text):
        # an indicator code holds a number ("WHOSIS_000001") or is asked of countries or of the WHO; a variable's
        # name ("ZORB_HTTP_TIMEOUT") is none
        if re.search(r"\d", m.group(1)) or codes or _HEALTH_CONTEXT.search(text):
            out.append(RecordSpec("who", m.group(1), tuple(codes), names, since))
    return list(dict.fromkeys(out))
