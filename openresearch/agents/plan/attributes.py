"""What a question asks about, read from its own words: look-ups ("What is the population of X?",
"When was X built?", "X 的最大维度是多少？") and the attributes a comparison names ("...: maximum vector
dimensions, query throughput and recall"). Pure core: regular expressions over the question, no lexicon
of domains, so a question about townships is read as well as one about databases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from openresearch.agents.extract.metric_names import EVENT_KEYS, canonical_metric, word_stems
from openresearch.agents.extract.requirements import platform_metric
from openresearch.agents.plan.vocabulary import ordinary_word


class Lookup(NamedTuple):
    attribute: str  # the question's own words for what is asked ("population", "built", "sport")
    entity: str  # the thing it is asked about, as written ("Blue Lake Township, Michigan")


_ART = r"(?:the |a |an )?"
_BE = r"(?:is|was|are|were)"
# (pattern, which group is the attribute, which the entity); tried in order, the first match wins
_EN_LOOKUPS: tuple[tuple[re.Pattern[str], int, int], ...] = tuple(
    (re.compile(p, re.I), a, e) for p, a, e in (
        # When was X called to the Bar? / When was X elected to the House? (the event is a phrase, the entity before it)
        (rf"^(?:when|in what year|what year|which year|when and where) (?:was|were|is|did) {_ART}(.+?) "
         r"((?:(?:first|originally|initially|officially|last) )?(?-i:[a-z]+ed|born|built|held|made|won|begun|run|sworn)"
         r"(?: (?:to|as|into|in|at|by|from|for|on) .+?)?)\s*[?？]?$", 2, 1),
        # When did X take place? / When did X become Grand Duke of Y? (a name, then the verb phrase)
        (r"^(?:when|in what year|what year|which year) did (?:the )?((?-i:[A-Z0-9\"“][\w.'’\"”()-]*)"
         r"(?: (?:(?-i:[A-Z0-9][\w.'’\"”()-]*)|of|de|de'|del|da|von|van|the|and|y))*) "
         r"((?-i:[a-z][\w'-]*)(?: [\w'-]+){2,}|take place)\s*[?？]?$", 2, 1),
        # When was X built? / What year was X founded? / When did X die?
        (rf"^(?:when|in what year|what year|which year|when and where) (?:was|were|is|did) {_ART}(.+?) "
         r"((?:(?:first|originally|initially|officially|last) )?\w+?)(?: in| on| at)?\s*[?？]?$", 2, 1),
        # What sport is X associated with? / What political party does X belong to? / What type of X is Y?
        (rf"^(?:what|which) ((?:type|kind|sort) of \w+|[\w -]{{2,30}}?) (?:is|was|does|did) {_ART}(.+?) "
         r"(?:associated with|known for|a member of|belong to|play|plays|affiliated with|part of|in)\s*[?？]?$", 1, 2),
        # What is the population of X? / Who is the director of X? / What was the capital of X?
        (rf"^(?:what|who|which) {_BE} {_ART}([\w ,'/-]{{2,60}}?) of {_ART}(.+?)\s*[?？]?$", 1, 2),
        # Where is X located? / Where was X born?
        (rf"^where {_BE} {_ART}(.+?)(?: (located|born|based|buried|held|situated|headquartered))?\s*[?？]?$", 2, 1),
        # Who directed X? / Who wrote X? / Who won X?
        (r"^who ((?:\w+ed)|wrote|won|sang|built|founded|invented|created|produced|made|owns|ran) "
         rf"{_ART}(.+?)\s*[?？]?$", 1, 2),
        # How many buildings are included in X? / How many libraries are part of X?
        (r"^how (many [\w -]+?) (?:are|were|is|was) (?:included in|contained in|listed in|located in|found in|"
         rf"part of|in|on|at|within) {_ART}(.+?)\s*[?？]?$", 1, 2),
        # How many people live in X?
        (rf"^how (many people) (?:live|lived|reside|resided|lives) in {_ART}(.+?)\s*[?？]?$", 1, 2),
        # How many employees does X have? / How much does X cost?
        (r"^how (many \w+(?: \w+)?|much|tall|long|high|big|large|old|fast) (?:does|do|did|is|was|are|were) "
         rf"{_ART}(.+?)(?: have| has| cost| weigh| take)?\s*[?？]?$", 1, 2),
        # What does X refer to? / What does X stand for?
        (rf"^what (?:does|do|did) {_ART}(.+?) (refer to|stand for|mean)\s*[?？]?$", 2, 1),
        # In which city is X? / In which state was X born?
        (rf"^in (?:which|what) (\w+) {_BE} {_ART}(.+?)(?: located| born| based)?\s*[?？]?$", 1, 2),
        # What is X's population?
        (rf"^(?:what|who) {_BE} {_ART}(.+?)['’]s ([\w -]{{2,40}}?)\s*[?？]?$", 2, 1),
        # What is X known for? / Who was X married to?
        (rf"^(?:what|who) {_BE} {_ART}(.+?) (known for|famous for|married to|named after|named for)\s*[?？]?$", 2, 1),
        # What type of music is associated with X? / What type of aircraft was involved in X?
        (rf"^(?:what|which|who) ((?:type|kind|sort) of \w+|[\w -]{{2,30}}?) {_BE} (?:associated with|involved in|"
         rf"used (?:in|by)|featured in|operated by|played by|performing in|part of|the \w+ (?:in|of)) "
         rf"{_ART}(.+?)\s*[?？]?$",
         1, 2),
        # What is the median age in X? / What is the primary instrument played by X? (the last "in" splits)
        (rf"^(?:what|who|which) {_BE} {_ART}([\w ,'/-]{{2,60}}) (?:in|for|associated with|played by|used by|made by|"
         rf"performed by|located in) {_ART}((?-i:[A-Z0-9\"“]).+?)\s*[?？]?$", 1, 2),
        # What river does X flow into? / What war did X end? / What position did X play in ...?
        (rf"^(?:what|which) ([\w -]{{2,30}}?) (?:does|did|do) {_ART}((?-i:[A-Z0-9\"“][\w.\"”'’-]*\s?)+?) "
         r"(?-i:[a-z]+)\b(?: [a-z]+){0,6}\s*[?？]?$", 1, 2),
        # X was formed in which year? / X is located in which city? / X refers to which type of unit?
        (r"^((?-i:[A-Z0-9\"“])[\w.,\"”'’-]*(?: [\w.,\"”'’-]+){0,7}?) "
         r"(?:is|was|are|were|refers|belongs|has|had)\b((?: [\w-]+){0,4}?) (?:which|what) ([\w -]{2,40}?)\s*[?？]?$",
         3, 1),
        # X, what year was he born?
        (r"^(.{2,60}?), (?:when|what year|in what year|which year) (?:was|is|did) (?:he|she|it|they) (\w+)\s*[?？]?$",
         2, 1),
    ))
# the quantity a "how <adjective>" question asks of its thing: "how big is ..." its size, "how loud is the chime" its
# volume, "how fast does the pointer wobble" the speed of its wobbling
_MEASURE_OF = {"big": "size", "large": "size", "small": "size", "loud": "volume", "quiet": "volume",
               "fast": "speed", "quick": "speed", "slow": "speed", "wide": "width", "narrow": "width",
               "tall": "height", "high": "height", "heavy": "weight", "deep": "depth", "bright": "brightness",
               "hot": "temperature", "far": "distance"}
# Where ... -> "location"; Who directed -> "director"; "how much" -> "cost"
_ATTR_WORDS = {"located": "location", "situated": "location", "based": "location", "headquartered": "location",
               "much": "cost", "people": "population", "old": "age", "long": "length", **_MEASURE_OF,
               "refer to": "meaning", "stand for": "meaning",
               "mean": "meaning", "directed": "director", "wrote": "author", "written": "author",
               "produced": "producer", "founded": "founded", "invented": "inventor", "created": "creator",
               "married to": "spouse", "die": "died", "open": "opened", "first held": "held", "ship": "released",
               "known for": "known for", "named after": "namesake", "named for": "namesake"}
# a verb and its particle that say one event ("come out": be released)
_PHRASAL = {f"{v} {p}": "released" for v, p in (("come", "out"), ("came", "out"), ("go", "live"), ("went", "live"),
                                                ("become", "available"), ("became", "available"), ("get", "released"))}
_WHEN_WORDS = frozenset({"year", "date", "day", "month", "decade", "century"})
_ZH_LOOKUPS: tuple[tuple[re.Pattern[str], int, int], ...] = tuple(
    (re.compile(p), a, e) for p, a, e in (
        (r"^(.+?)的(.{1,16}?)(?:是多少|有多少|是什么|为多少|是哪一年|是何时|是谁|在哪里|多大|多高|多长)[？?]?$", 2, 1),
        (r"^(.+?)(?:是)?(?:什么时候|何时|哪一年|哪年)(建成|建造|成立|出生|发布|开业|创立|去世|完成|上市)的?[？?]?$",
         2, 1),
        (r"^(.+?)有多少(.{1,10}?)[？?]?$", 2, 1),
    ))
_ZH_ATTR = {"建成": "built", "建造": "built", "完成": "built", "成立": "founded", "创立": "founded", "出生": "born",
            "发布": "released", "上市": "released", "去世": "died", "开业": "opened"}
_LIST_SPLIT = re.compile(r"\s*(?:,|;|、|，|；|\band\b|\bor\b|以及|及|和|与|或)\s*")
# a list of what is asked ends at a clause: "..., according to ...", "..., as measured by ...", "and say ..."
_CLAUSE_END = (r"(?:[.?;:]|(?:,?\s+|(?<=[\s,]))(?:and|to)\s+(?:(?:in|on|at|for|from|since|by|with)\s+)?"
               r"(?:say|tell|show|find|where|which|what|how)\b|"
               r"(?:,|(?<=,)|(?<=,\s))\s*(?:according|based|as|using|measured|published|reported|including|given|if|when|where|while|"
               r"from|in\s+(?:their|its|the)\b)\b|"
               # "... and lock time in published benchmarks": where the figures are, not part of the item
               r"(?<=\s)(?:in|from|across)\s+(?:(?:published|public|official|reported|recent|vendor|independent|"
               r"third-party|their|its|the)\s+){1,2}(?:benchmarks?|tests?|measurements?|documentation|docs|sources?|"
               r"reports?|studies|results|numbers|figures)\b|$)")
_EN_LIST_AT = (re.compile(r"\b(?:(?:by\s+default\s+)?(?:on|for)|in terms of|regarding|with respect to|by|"
                          # ("how do A and B differ in their X, Y and Z")
                          r"differ(?:s|ed)?\s+(?:in|on|by)(?:\s+(?:their|its))?)\s+"
                          # (a preposition a clause strands: "run on according to its docs" lists nothing; "for an
                          # internal service" says what for, no quantity)
                          r"(?!(?:according|based|as|using|measured|published|reported|including|given|if|when|"
                          r"where|while|from|a|an|our|my|your|their)\b)"
                          r"(?!default\s*(?:[?.,;:)]|$))"  # ("uploads by default?": how, no quantity)
                          r"((?:[\w/+\u2024\u066c\u27ee\u27ef-]++[ ,]*+){1,24}?)" + _CLAUSE_END, re.I),
               re.compile(r":\s*([^.?:]+)"))
# "What are the default A, B and C of X, Y and Z?": the question asks its attributes of the names it ends with
_EN_ASKED_OF = re.compile(r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(.+?)\s+(?:of|for|in)\s+"
                          r"(?:the\s+)?\u2400[\s\u2400,]*(?:(?:and|or)\s+\u2400\s*)?[?.]?\s*$", re.I)
# "How do latency, throughput and memory compare for X?": what is compared of the names after
_COMPARED_OF = re.compile(r"^\s*how\s+(?:do|does)\s+([^\u2400?]+?)\s+compare\s+(?:for|in|on|of|across|between)\s+"
                          r"(?:the\s+)?\u2400", re.I)
# ... and in a later sentence: "I'm choosing between A and B. ... What is the default X in A and in B?"
_LATER_ASKED_OF = re.compile(r"(?<=[.?!]\s)\s*(?:(?:also|and|finally),?\s+)?(?:what|which)\s+(?:is|are|was|were)\s+"
                             r"(?:the\s+)?([^.?!]+?)\s+(?:of|for|in)\s+(?:the\s+)?\u2400(?:\s*,?\s*(?:and|or)?\s*"
                             r"(?:(?:of|for|in)\s+)?(?:the\s+)?\u2400)*\s*[?.]", re.I)
# "What are X's default A and B for C?": the attributes the question asks of its owner, and what they are of
# An asking sentence after others, or after an adverbial ("I'm choosing between A and B. Out of the box, what is each
# one's default X, its Y and Z?"), asks the same; "each one's" and "their" own what is asked as the name does
# (or a need stated: "For a deployment I need X's defaults for A, B and C")
_OWNED_AT = (r"(?:(?:^|(?<=[.?!,;:]\s))\s*(?:what|which)\s+(?:is|are|was|were)\s+|"
             r"\b(?:I|we)\s+(?:need|want|(?:would|'d)\s+like)\s+(?:to\s+know\s+)?)"
             r"(?:\u2400\s*['’]s|(?:each|every)\s+[\w-]+['’]s|their)\s+([^?]+?)"
             r"(?:\s+(?:for|of|in|on|under|with|when|across)\s+[^?{}]+)?\s*(?:[?.](?=\s|$)|$)")
_EN_OWNED = re.compile(_OWNED_AT.format(""), re.I)
_FOR_OWNER = re.compile(r"\bfor\s+(?:(?:\u2400\s*|[\w.+-]+)['’]s\s+)?(?:\u2400|(?<=s\s)(?-i:[A-Z])[\w.+-]*)\s*,\s*"
                        r"(what|which)\s+(is|are|was|were)\s+the\s+",
                        re.I)  # (and "For zorbq's Frob, what are ...": Frob's, of zorbq)
# "..., its default timeout for hooks, and the threshold ...": a "for" inside the list qualifies one item
_EN_OWNED_LIST = re.compile(_OWNED_AT.format(","), re.I)


def _owned(text: str) -> re.Match[str] | None:
    """What a question asks of its owner: the words after "X's"; the "for ..." after them says of which, unless
    they are a list the "for" is inside of (no settings word before it)."""
    owned = _EN_OWNED.search(text)
    if owned and not _SETTINGS_WORD.search(owned.group(1)) and "," in text[owned.end(1):owned.end()]:
        return _EN_OWNED_LIST.search(text) or owned
    return owned
# "What are X's default settings for A (a1, a2), B and C?": the list after the settings word names the settings
_SETTINGS_WORD = re.compile(r"\b(?:settings|parameters|options|limits|defaults|configuration|values|knobs)\s*$", re.I)
_SETTINGS_OF = re.compile(r"\s+(?:for|of|in|on|under|across)\s+([^?]+?)\s*(?:[?.](?=\s|$)|$)", re.I)
MAX_SETTINGS = 12
MAX_ATTRIBUTES = 12  # what one question may ask for (a settings question lists more: MAX_SETTINGS)
_PAREN_LIST = re.compile(r"[(（]([^()（）]*[,，、][^()（）]*)[)）]")
_ZH_LIST_AT = (re.compile(r"在(.{2,60}?)(?:方面|上的|上|等方面)"), re.compile(r"[:：]\s*([^。？?]+)"),
               # "sonic、json-iterator 和 encoding/json 的 编码、解码性能分别是多少": what is asked of the names listed
               re.compile(r"的\s*([^的。？?，,]{2,40}?)\s*(?:分别|各自|都|是多少|为多少|有多少|有多长|有多快|如何|怎么样|怎样|有哪些)"))
# "(1) write throughput and (2) read latency": an enumeration names one attribute per marker
_ENUM_MARK = re.compile(r"(?:^|(?<=[\s:,;]))(?:\(\s*(?:\d{1,2}|[a-h]|[ivx]{1,4})\s*\)|(?:\d{1,2}|[a-h])\))\s+")
# where an item's noun phrase ends: a relative clause, a pronoun subject, an auxiliary verb ("the basic unit from
# which small objects are carved", "size classes it uses", "kernel version is needed for ...")
_PHRASE_END = re.compile(r"\s+(?:(?:from|in|by|on|at|to|for|with|within|above|below|beyond|over|under|after|before)"
                         r"\s+which|which|that|who|whose|where|it|they|we|you|"
                         r"is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|exists?)\b.*$",
                         re.I)
_FRAGMENT_WORDS = frozenset({"where", "which", "what", "how", "who", "why", "when", "do", "does", "did", "the", "a",
                             "an", "sources", "source", "vendors", "figures"})


def lookup(question: str, language: str) -> Lookup | None:
    """The attribute and entity of a fact look-up, or None when the question is not one."""
    text = " ".join(question.split()).strip()
    if language == "zh":
        for pattern, ai, ei in _ZH_LOOKUPS:
            if m := pattern.match(text):
                attr, entity = m.group(ai).strip(), m.group(ei).strip(" ，,")
                if re.search(r"[A-Za-z]", entity) and re.search(r"[、]|(?<=\w)\s*[和与及或]\s*(?=\w)", entity):
                    return None  # "sonic、json-iterator 和 encoding/json 的 …": several things, a comparison
                if re.search(r"[，,；;？?]|哪|什么|多少|何时|几", entity):
                    return None  # "Zorbq 在哪个版本中…，该版本何时发布": a clause with a question of its own, no name
                return Lookup(_ZH_ATTR.get(attr, attr), entity)
        return None
    if _WHEN_GOT_ANY.search(text):
        return None  # "When did Zorbq get the Frob plugin and Quux support?": events, each asked (_when_got)
    for pattern, ai, ei in _EN_LOOKUPS:
        m = pattern.match(text)
        if not m:
            continue
        attr = (m.group(ai) or "").strip().lower()
        entity = m.group(ei).strip(" ,\"'“”")
        if not entity or len(entity.split()) > 10 or re.search(r"\b(?:and|vs|versus|or)\b", entity):
            continue  # two things: a comparison, not a look-up
        if re.search(r"\w['’]s\s", attr):
            continue  # "What are quux's default values for the number of downloads?": quux's, not the downloads'
        if not attr and text.lower().startswith("where"):
            attr = "location"
        attr = attr.removeprefix("many ").strip()
        if attr in _WHEN_WORDS:  # "X was formed in which year?": the event is the verb before it
            verb = canonical_metric(text[m.end(ei):m.start(ai)])
            attr = next((w for w in re.findall(r"[a-z]+", text[m.end(ei):m.start(ai)].lower())
                         if canonical_metric(w) == verb), attr) if verb else attr
        subject = m.group(ei).strip(" ,")
        if (particle := re.search(r"\s+([a-z]+)$", subject)) and (
                said := _PHRASAL.get(f"{particle.group(1)} {attr}")):
            attr, subject = said, subject[:particle.start()]  # "When did Zorbq 2.3 come out?": it was released
        if attr not in _WHO_WORDS or text.lower().startswith("who"):
            attr = _ATTR_WORDS.get(attr, attr)
        if attr in ("length", "age") and (done := re.search(r"\s+([a-z]{3,})ed$", subject)):
            # "How long is a Zorbly release supported?": how long it is supported, not the length of a release
            stem = done.group(1)
            stem += "e" if stem.endswith(("as", "us", "at", "iz", "ur")) else ""  # released, used, rated
            attr, subject = f"{stem} duration", subject[:done.start()]
            subject = re.sub(r"^(?:an?|the|each|every)\s+", "", subject, flags=re.I)
        # "the releases of quollship", "the quollship releases": the product whose releases are asked about; when
        # they were published is their release date
        released = _RELEASES_OF.sub("", subject)
        released = _RELEASES_AFTER.sub("", released) if released == subject else released
        if released != subject and released.strip():
            subject = released
            attr = "release date" if canonical_metric(attr) == "released" or attr in _PUBLISHED else attr
        return Lookup(attr, core_entity(subject).strip(" ,\"'“”"))
    return None


_RELEASES_OF = re.compile(r"^(?:the\s+)?(?:(?:recent|latest|last|first|major|minor)\s+)?"
                          r"(?:releases?|versions?|editions?)\s+of\s+(?:the\s+)?", re.I)
_RELEASES_AFTER = re.compile(r"\s+(?:releases|versions|editions)$", re.I)
_PUBLISHED = frozenset({"published", "shipped", "tagged", "cut", "out", "announced"})


# the kind of thing a question writes after a name ("the Moravica river", "the Elks organization")
_KIND_NOUNS = frozenset({"river", "race", "organization", "organisation", "work", "ep", "album", "film", "movie",
                         "song", "single", "series", "band", "novel", "book", "painting", "game", "show",
                         "release", "version", "edition", "branch"})
# "Who created X" asks for a person; "When was X created" for a date
_WHO_WORDS = frozenset({"directed", "wrote", "written", "produced", "invented", "created"})


def core_entity(entity: str) -> str:
    """The name in a look-up's subject phrase: 'album "War Music"' -> 'War Music', 'the Moravica river' ->
    'Moravica', 'Elks organization' -> 'Elks'; a name with no capitalised word ('1st arrondissement') stays."""
    if (m := re.search(r"[\"“]([^\"“”]{2,80})[\"”]", entity)) and m.group(1).strip():
        return m.group(1).strip(" ,")
    words = entity.split()
    cut = len(words)
    while cut > 1 and words[cut - 1].casefold() in _KIND_NOUNS:
        cut -= 1
    kept = words[:cut]
    if cut < len(words) and len(kept) > 1 and kept[-1] in ("TV", "EP", "LP"):
        kept = kept[:-1]  # "Danger Mouse TV series": the kind of thing, abbreviated, goes with it
    # "South Calgary electoral district" keeps its words: only the kind of work or event a question adds goes
    return " ".join(kept) if cut < len(words) and any(re.match(r"[A-Z]", w) for w in kept) else entity


# (and "what is the default job timeout": the noun phrase asked)
_ASKS_VALUE_OF = re.compile(r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(?:(?:[\w-]+\s+){0,2}?"
                            r"(?:defaults?|default\s+values?|default\s+settings?|values?|settings?)\s+(?:for|of)\s+)?"
                            r"(?=[\w`'\"-])(?!(?:each|every|it|its|their|they|one)\b)", re.I)


def _clean_item(item: str) -> str:
    if re.match(r"\s*(?:how|what|why|where|whether)\s+(?:the|its|their|a|an|each|it|they)\b", item, re.I):
        # a clause of a list ("how the limit is shared between them", "what its 'lease' option really does"):
        # the name it quotes is asked, or nothing of its own (the clause readers read the rest)
        quoted = re.search(r"['‘\"“`]([\w-]{2,24})['’\"”`]", item)
        return quoted.group(1) if quoted else ""
    # "which versions changed write_buffer_size": what changed is asked ("which kernel version is needed" keeps its
    # subject: an auxiliary before the verb)
    if re.match(rf"\s*(?:which|what)\s+(?:[\w.\u2400-]+\s+)*?(?:release|version)\s+(?:first\s+)?(?:{CHANGE_VERBS})\s",
                item, re.I):
        return ""  # "which Zorbq release first added frob compression": the event, _release_items's
    item = re.sub(r"^\s*(?:which|what)\s+(?:(?!(?:is|are|was|were|be|been|has|have|had)\b)[\w-]+\s+){1,3}?"
                  r"(?!(?:is|are|was|were|be|been|has|have|had)\b)[a-z]+ed\s+(?=\w)", "", item, flags=re.I)
    if re.match(r"\s*how\s+(?:(?:many|much)\s+times?|long\s+(?:a|an|the|each|every|its|their))\b", item, re.I):
        # "how many times is a job retried" counts what is done, not times; "how long a worker waits for ..." is a
        # clause: _how_clauses reads both
        return ""
    item = re.sub(r"^\s*how (?:many|much)\s+", "", item, flags=re.I)
    item = re.sub(r"\s+according\s+to\b.*$", "", item, flags=re.I)  # where the figure is read, not what it is
    # "what are the current defaults for --frob-limit": the setting named after the words that ask for its value
    if (value_of := _ASKS_VALUE_OF.sub("", item)) != item and _GENERIC_ASK.fullmatch(value_of.strip(" ?.")):
        return ""  # "what are the key dates": what the list after it names is asked
    if value_of != item and _PHRASE_END.search(value_of):
        return ""  # "what is the oldest version each one can run on": a clause of its own, _WHAT_ASKS's
    item = value_of
    named = ""
    if len(item.split()) > 2 and not re.match(r"\s*how\b", item, re.I):  # "how long is ..." is read by _spans_asked
        clause = _PHRASE_END.search(item)
        if clause and (quoted := re.search(r"['‘\"“]([\w-]{2,24})['’\"”]", clause.group())):
            named = f"\u27ee{quoted.group(1)}\u27ef"  # "the threshold above which a call is reported as 'slow'"
        item = _PHRASE_END.sub("", item)
    words = [w for w in item.strip(" .?!:;\"'“”()").split() if w]
    while words and words[0].lower() in _FRAGMENT_WORDS | {"on", "of", "in", "their", "its"}:
        words.pop(0)
    while words and words[-1].lower() in _FRAGMENT_WORDS:
        words.pop()
    return _bound_named(" ".join(words).strip("-/ ")) + (named if words else "")


# "the upper TTL limit", "a lower bound on the pool size": a maximum or a minimum of it, as reference entries name it
_UPPER_LOWER = re.compile(r"(?P<b>upper|lower)\s+(?:(?P<x>(?:[\w/-]+\s+){0,3}?[\w/-]+)\s+(?:limit|bound)s?|"
                          r"(?:limit|bound)s?\s+(?:on|of|for)\s+(?:the\s+)?(?P<y>(?:[\w/-]+\s+){0,3}?[\w/-]+))", re.I)


def _bound_named(item: str) -> str:
    """An item that asks a bound in other words, as the bound: "upper TTL limit" -> "maximum TTL"."""
    if not (m := _UPPER_LOWER.fullmatch(item)):
        return item
    return f"{'maximum' if m.group('b').lower() == 'upper' else 'minimum'} {m.group('x') or m.group('y')}"


# a version or a range of them ("v3.1", "4.3.x", "0.19 to 0.22.1") qualifies what is asked; it is no attribute
_VERSIONS = re.compile(r"v?\d+(?:\.(?:\d+|x))*(?:\s*(?:to|-|–|through)\s*v?\d+(?:\.(?:\d+|x))*)?", re.I)
# versions joined by a word or two ("3.2.7 next to 2.52.0", "1.4 vs 2.0"), and "i.e." or "e.g.": no attribute either
_VERSION_LIST = re.compile(rf"{_VERSIONS.pattern}(?:\s+[a-z]+(?:\s+[a-z]+)?\s+{_VERSIONS.pattern})+", re.I)
_LATIN_ABBREVIATION = re.compile(r"(?:i[.\u2024]?\s?e|e[.\u2024]?\s?g|etc|viz|cf)[.\u2024]?", re.I)
# a question for the dates releases came out on: "When were the A releases published?", "When did B ship 2.0?"
# (at the start of any of its sentences: "I need dates. And on the Zorb side, when was 1.0 released?")
# (or after a clause of its own: "Which release added frob_limit, and when was that release published?")
_EN_RELEASE_DATES = re.compile(r"(?:^|[.?!]\s+|,?\s+and\s+(?=when\b))(?:(?:and|also|so|but)\b,?\s*)?"
                               r"(?:[^,.?!]{1,60},\s*)?"
                               r"(?:when|(?:on |in )?(?:what|which) (?:date|day|month|year)s?)\b[^?]{0,200}?\b"
                               r"(?:published|released|shipped|tagged|cut|made available|ship|release|publish|out|"
                               r"appear(?:ed)?|arrive[ds]?)\b"
                               r"|\b(?:release|publication|ship) dates? (?:of|for)\b", re.I)
_ZH_RELEASE_DATES = re.compile(r"(?:什么时候|何时|哪天|哪一天|哪年|哪一年)[^？?]{0,8}发布|发布(?:日期|时间)")


def asks_release_dates(question: str, language: str) -> bool:
    """Whether a question asks when releases came out ("When were the A and B releases published?", "in which
    releases, published on which dates, did ...", "in which Zorbq release (and on what date) did ...")."""
    if language == "zh":
        return bool(_ZH_RELEASE_DATES.search(question))
    return bool(_EN_RELEASE_DATES.search(question)) or bool(
        _ON_WHAT_DATE.search(question) and re.search(r"\b(?:releases?|versions?)\b", question, re.I))


_ON_WHAT_DATE = re.compile(r"\b(?:(?:published|released|shipped|out|tagged)\s+)?(?:on|at)\s+(?:what|which)\s+"
                           r"(?:dates?|days?)\b", re.I)
# what a question's list reads out of "in which releases, published on which dates, did ...": the dates asked, no
# attribute
_DATE_WORDS = re.compile(r"(?:(?:on|in)\s+)?(?:(?:what|which)\s+)?(?:(?:release|publication)\s+)?"
                         r"(?:dates?|days?|published|released|shipped)", re.I)


_CLAUSE_ASIDE = re.compile(r"\s*\((?=\s*(?:how|what|when|which|where|why|i[.\u2024]?\s?e\b|e[.\u2024]?\s?g\b|that\s+is|"
                           r"meaning|namely)\b)[^()]*\)", re.I)


def attribute_list(question: str, language: str, entities: list[str]) -> list[str]:
    """The attributes a comparison or selection names, in the question's own words, in order."""
    text = " ".join(question.split())
    for e in sorted(entities, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(e)}(?!\w)", " \u2400 ", text, flags=re.I)
    if language != "zh":
        # "(Zorbq's frob_limit, Quux' max_frobs)": each compared product's own key for the item before it, a gloss of
        # it (owner_keys tells whose each key is), no items of their own
        text = _MASKED_OWNER_KEYS.sub(lambda m: " \u27ee" + " / ".join(
            k for _, k in _owner_items(m.group()[1:-1], "\u2400") or []) + "\u27ef", text)
        text = re.sub(r"\s+\u27ee", "\u27ee", text.replace("\u27ee\u27ef", ""))
    # "twitter.json" is one word, and "serialization (stringify) throughput" one attribute with a gloss: a gloss of
    # one or two words stays in it (the source's own word for it, "stringify"); a longer aside, or the full name of
    # an entity ("nlohmann/json (JSON for Modern C++)"), goes
    text = re.sub(r"(?<=\w)\.(?=\w)", "\u2024", text)
    text = re.sub(r"(?<=\w)\(\)", "", text)  # "getconn()" is a call's name: its parentheses hold no aside
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "\u066c", text)  # "1,000-page" is one word, not two items
    # (a Chinese enumeration keeps the English words its items write, "keep-alive", "listen()": read unmasked)
    enumerated = _zh_enumerated(re.sub(r"(?<=\w)\(\)", "", " ".join(question.split()))) if language == "zh" else \
        _enumerated(text.replace("\u2400", " "))
    enumerated_at = text[mark.end():mark.end() + 24].replace("\u2400", " ") if enumerated and (
        mark := _ENUM_MARK.search(text)) else ""
    if language == "zh":  # "解码性能（ns/op、MB/s）", "吞吐量（批量）": an aside, not more attributes
        text = re.sub(r"\s*[（(][^()（）]*[)）]", "", text)
    else:
        # (and after what a named owner's class: "zorbq's FrobPool (v3)")
        text = re.sub(r"\u2400(\s*['’]s\s+[A-Z][\w.+-]*)?\s*\((?![^()]*[,，])[^()]*\)", " \u2400\\1 ", text)
        # (keys joined by "and" are a list of them, as commas would be: "(frob_maxbytes and frob_backups)")
        text = re.sub(r"\((\s*`?[A-Za-z][\w.-]*[_.][\w.-]*`?)\s+(?:and|or)\s+(`?[A-Za-z][\w.-]*[_.][\w.-]*`?\s*)\)",
                      r"(\1, \2)", text)
        # (a gloss of several alternatives, "(a/b/c)", lists examples: no name of the thing)
        text = re.sub(r"(?<=\w) \((?!(?:and|or|of|in|on|at|for|with|incl|e\.?g|i\.?e)\b)(?![^()]*/[^()]*/)"
                      r"([\w/-]+(?: [\w/-]+)?)\)",
                      "\u27ee\\1\u27ef", text)
        # (an aside that is a clause explains what is asked, commas and all: "the default time-out (how long entries
        # live, and how long it waits for a lock)")
        text = _CLAUSE_ASIDE.sub("", text)
        text = re.sub(r"\s*\((?![^()]*[,，])[^()]*\)", "", text)
    # "on the X side", "for X's part": of which, no attribute
    text = re.sub(r"\b(?:on|from|for)\s+(?:the\s+)?\u2400\s*(?:'s\s+)?(?:side|part|end)\b", " \u2400 ", text,
                  flags=re.I)
    # "For X, what are the default values of A, B and C?" asks what X's are
    text = _FOR_OWNER.sub(lambda m: f"{m.group(1)} {m.group(2)} \u2400's ", text) if language != "zh" else text
    asked_of = _EN_ASKED_OF.match(text) if language != "zh" else None
    owned = _owned(text) if language != "zh" and not asked_of else None
    # "when did Zorbq get the Frob plugin and initial Quux support": what each got, as events a release brought (their
    # words, asides and all, are read no further)
    masked = text
    events = _when_got(masked) if language != "zh" else []
    for span, _ in events:
        masked = masked[:span[0]] + " " * (span[1] - span[0]) + masked[span[1]:]
    text = masked.replace("\u2400", " ")
    # "what frame sizes does each aim for (minimum/maximum and mean size, as documented)": the kinds of it the aside
    # lists, each asked ("minimum frame size", ...), the aside read no further
    kinds: list[str] = []
    glossed_at: set[int] = set()
    for asks in _WHAT_ASKS.finditer(masked) if language != "zh" else ():
        if (aside := _ASIDE_AFTER.match(masked, asks.end())) and (
                glossed := _kinds_glossed(asks.group("n"), aside.group(1))):
            kinds += [k for k in glossed if k not in kinds]
            glossed_at.add(asks.start())
            blank = " " * (aside.end(1) - aside.start(1))
            masked = masked[:aside.start(1)] + blank + masked[aside.end(1):]
    text = masked.replace("\u2400", " ")
    patterns = (*(_ZH_LIST_AT if language == "zh" else _EN_LIST_AT), _PAREN_LIST)
    found: list[str] = [*enumerated, *kinds]
    found += [i for _, items in events for i in items if i.lower() not in (f.lower() for f in found)]
    listed_to = -1  # where the last list read ends
    if asked_of and not enumerated:  # "What are the A, B and C of X, Y and Z?": what is asked of the names
        found += _phrase_items(asked_of.group(1))
    if language != "zh" and (compared := _COMPARED_OF.match(masked)):
        found += [i for i in _phrase_items(compared.group(1)) if i not in found]  # "How do A, B and C compare for X"
    if not asked_of and not enumerated and language != "zh":
        found += [i for m in _LATER_ASKED_OF.finditer(masked) for i in _phrase_items(m.group(1)) if i not in found]
    settings = _settings_items(text, owned) if owned and not enumerated else []
    if settings:  # "What are X's default settings for A (a1, a2), B and C?": a1, a2, B and C are asked
        # (and what a later sentence asks of a release: "Which Zorbq release added frob_limit, and when ...?")
        settings += [i for i in [*(i for _, items in events for i in items), *_release_items(text)]
                     if i.lower() not in (f.lower() for f in settings)]
        # ("..., and after how long does it count a lease as expired?": what a clause of its own asks)
        settings += [i for i in _how_clauses(text[owned.end(1) if owned else 0:])
                     if i.lower() not in (f.lower() for f in settings)]
        if asks_release_dates(text, language) and not any(canonical_metric(f) == "released" for f in settings) \
                and not _dated_by_events(text, settings):
            settings.append("release date")
        return [f.replace("\u066c", ",").replace("\u2024", ".") for f in settings][:MAX_SETTINGS]
    if owned and not enumerated:  # "What are X's A and B for C?": A and B are asked, C says of which
        found += _phrase_items(re.sub(r"\s*\([^()]*\)", "", owned.group(1)))
    # "on x86" inside the list after a colon is part of an item, not a list of its own
    colon = text.find(":") if language != "zh" and _EN_LIST_AT[1].search(text) else -1
    # (where the enumeration's first item starts, in the text the asides are taken out of)
    enumerated_from = text.find(first) if enumerated and (first := enumerated_at) else len(text)
    enumerated_from = len(text) if enumerated_from < 0 else enumerated_from
    for pattern in patterns:
        if (pattern is _PAREN_LIST or language == "zh") and enumerated:
            break  # "(3) the size of the reservations (arenas, spans, regions)": examples of an item, not items
        for m in pattern.finditer(text):
            if pattern is _EN_LIST_AT[0] and (0 <= colon < m.start() or (owned and m.start() >= owned.end(1))):
                continue
            if enumerated and m.end(1) > enumerated_from:
                continue  # (the enumeration's items are read, not the lists its clauses hold)
            pieces = _shared_heads(_list_pieces(m.group(1)))
            listed_to = max(listed_to, m.end(1))
            if language == "zh":  # "表结构/序列基数限制": two attributes (not "TCP/IP", "读/写")
                pieces = [q for p in pieces for q in (p.split("/") if all(
                    len(re.findall(r"[\u4e00-\u9fff]", x)) >= 2 for x in p.split("/")) else [p])]
            for piece in pieces:
                if re.match(r"(?:the\s+)?(?:releases?|versions?)\s+(?:that|which)\s", piece.strip(), re.I):
                    continue  # ("..., the version that added QXP/2, ...": a release asked by what it brought)
                item = _clean_item(piece.replace("\u2024", ".")).replace("\u27ee", " (").replace("\u27ef", ")")
                item = item.replace("\u066c", ",")
                if item and (language == "zh" or len(_content_words(item)) <= 5 or _qualified_item(item)) and \
                        item.lower() not in (f.lower() for f in found):
                    found.append(item)
    if language != "zh":
        # "what do frob-ttl and frob-timeout default to": the keys named
        for m in _DEFAULTS_TO.finditer(masked):
            found += [i for i in _phrase_items(m.group("x")) if "\u2400" not in i and i.lower() not in (
                f.lower() for f in found)]
    if language != "zh":
        found += [item for item in _release_items(text) if item.lower() not in (f.lower() for f in found)]
    else:  # "在哪个版本放弃了对 Frob 3.8 的支持": the same events, asked in Chinese
        # (a piece cut off at a modal, "默认配置：每个连接池默认最多能", is no attribute)
        found = [f for f in found if not _ZH_PLATFORM.search(f) and not re.search(
            r"(?:最多能|最少能|才能|都能|可以|会|要|被)$", f)]
        # ("默认的单个任务执行时间限制是多少": the question's words around the item, which is asked already)
        found = [f for f in found if not ((m := re.fullmatch(r"(?:默认的?)?(.+?)(?:是多少|为多少|是什么)", f)) and any(
            g != f and g.endswith(m.group(1)) for g in found))]
        found += [item for item in zh_platform_events(text) if item not in found]
    if language != "zh":
        # "what maximum line length does each tool use", "what is the oldest version each one runs on": the noun
        # phrase a clause asks about, before its own subject
        for m in _WHAT_ASKS.finditer(masked):
            if _GENERIC_ASK.fullmatch(m.group("n").strip()) or m.start() in glossed_at:
                continue
            # ("what upper and lower TTL limits does each apply": two, a maximum and a minimum)
            found += [i for i in _phrase_items(m.group("n")) if i.lower() not in (f.lower() for f in found)]
    if language != "zh":
        # "For each, what is the default A, how long ..., and what is the default B and C?": what each clause of a
        # sentence of several asks by name
        for m in _WH_VALUE.finditer(masked):
            x = re.sub(r"\s+(?:of|for|in|on)\s+(?:the\s+)?\u2400.*$", "", m.group("x"))
            x = re.sub(r"^(?:[\w-]+\s+){0,2}?(?:defaults?|values?|settings?)\s+(?:for|of)\s+", "", x, flags=re.I)
            # (what a colon lists is read as a list: "what are the key dates: the x.0 release, ...")
            # (what an owner's clause asks, "what is each tool's X", the owner readings read)
            if "\u2400" in x or _GENERIC_ASK.fullmatch(x.strip()) or masked[m.end():].lstrip().startswith(":") or \
                    re.search(r"['’]s\b|^(?:each|every|their|its|it|they|one)\b", x, re.I):
                continue
            found += [i for i in _phrase_items(x) if len(_content_words(i)) <= 5 and i.lower() not in (
                f.lower() for f in found)]
    if language != "zh":
        # "what default expiry applies to entries", "which limit holds for ...": the noun phrase the clause asks
        for m in _WHAT_APPLIES.finditer(masked):
            item = _clean_item(m.group("n"))
            if item and "\u2400" not in item and item.lower() not in (f.lower() for f in found):
                found.append(item)
    if language != "zh" and found and listed_to >= 0:
        # "... ? Also, what is the default shutdown timeout for workers, and ...?": a later sentence asks one more
        # (up to a name that is the subject of a clause of its own: "the newest version Quux says it supports")
        for m in _LATER_ASK.finditer(masked, listed_to):
            item = _clean_item(m.group("x").split("\u2400")[0])
            if item and len(_content_words(item)) <= 6 and item.lower() not in (f.lower() for f in found):
                found.append(item)
    # a version ("3.12"), a clause ("are the key dates") or the compared things themselves ("For each one: ...")
    # is no attribute
    found = [f for f in found if re.search(r"[A-Za-z\u4e00-\u9fff]", f) and not _VERSIONS.fullmatch(f) and not (
                 _VERSION_LIST.fullmatch(f) or _LATIN_ABBREVIATION.fullmatch(f)) and not re.match(
        r"(?:are|is|was|were|do|does|did|can|will)\b", f, re.I) and not _OWNERS_ONLY.fullmatch(f)
             and not _RELEASE_ITEM.fullmatch(f) and not _restated_event(f, found)
             # (an adverb the list pattern caught, "For Quux specifically: ...", is no quantity)
             and not (re.fullmatch(r"[a-z]{3,}ly", f) and canonical_metric(f) is None)
             and not (_HOW_MANY_ASKED.fullmatch(f) and len(found) > 1)
             # (a list piece that is a change a release made, "the frob_size default become 16MB", asked already as
             # "frob_size default changed")
             and not (re.search(r"\s(?:become|becomes|change|changes)\s", f) and any(
                 g.endswith(" changed") and g[:-len(" changed")].lower() in f.lower() for g in found))]
    found = [*(_spans_asked(question, found, entities) if language != "zh" else _zh_spans_asked(question, found)),
             *found]
    # ("retry count" read by the clause readers is the enumeration's "retry count (frob_limit / max_frobs)")
    found = [f for f in found if not any(g.lower().startswith(f.lower() + " (") for g in found)]
    if asks_release_dates(text, language):
        found = [f for f in found if not _DATE_WORDS.fullmatch(f)]
    if asks_release_dates(text, language) and not any(
            canonical_metric(f) == "released" for f in found) and not _dated_by_events(text, found):
        found.insert(0, "release date")  # "When were the A and B releases published?": each release's date
    found = [f.replace("\u066c", ",") for f in found]
    return [f for f in found if canonical_metric(f) is not None or len(f) >= (2 if language == "zh" else 3)][
        :MAX_ATTRIBUTES]


# a platform's version a release dropped or added support for, as a Chinese question asks it ("放弃了对 Frob 3.8 和
# 3.9 的支持", "首次支持 Frob 3.14")
_ZH_PLATFORM = re.compile(r"(?P<verb>放弃|停止|移除|删除|去掉|不再|增加|新增|添加|加入|开始|首次)了?\s*(?:对|支持)?\s*"
                          r"(?P<p>[A-Za-z][\w+#]*)\s*v?(?P<v>\d+(?:[.\u2024]\d+){1,2})(?![\w.\u2024])"
                          r"(?P<more>(?:\s*(?:和|、|及|与|,|，)\s*(?:(?P=p)\s*)?v?\d+(?:[.\u2024]\d+){1,2}(?![\w.\u2024]))*)")


def zh_platform_events(text: str) -> list[str]:
    """The platform events a Chinese question asks ("放弃了对 Frob 3.8 的支持" -> "Frob 3.8 support dropped")."""
    out: list[str] = []
    for m in _ZH_PLATFORM.finditer(text):
        verb = "dropped" if m.group("verb") in ("放弃", "停止", "移除", "删除", "去掉", "不再") else "added"
        for v in [m.group("v"), *re.findall(r"\d+(?:[.\u2024]\d+)+", m.group("more"))]:
            item = f"{m.group('p')} {v} support {verb}".replace("\u2024", ".")
            if item not in out:
                out.append(item)
    return out


def _dated_by_events(text: str, found: list[str]) -> bool:
    """Whether the dates a question asks are those of the releases its events happened in, each answered with its
    release and date ("in which releases, published on which dates, did each drop Frob 3.8"), and it names no
    release of its own whose date it asks ("when were 2.0 and 2.1 released")."""
    # (a key a release added or changed keeps the release dates asked: its release may be dated by another page,
    # an announcement, which only they rank high)
    events = [f for f in found if PLATFORM_EVENT.fullmatch(f)]
    if not events:
        return False
    asked = {v for e in events for v in re.findall(r"\d+(?:\.\d+)+", e)}
    named = set(re.findall(r"(?<![\w.\u2024])v?(\d+(?:[.\u2024]\d+)+)", text))
    return not {v.replace("\u2024", ".") for v in named} - asked


def _release_items(text: str) -> list[str]:
    """What a question asks a release did: "Which Zorbq release changed the default max retries to 20?" asks the
    setting it changed ("default max retries changed"; the answer gives the release, _ASKS_VERSION), "which release
    dropped Frob 3.8" the platform's version ("Frob 3.8 support dropped"), "which release added the frob_limit
    constructor parameter" the key itself ("frob_limit added")."""
    out: list[str] = []
    for m in _RELEASE_PLATFORM.finditer(text):
        verb = "dropped" if m.group("verb").lower() in ("dropped", "removed") else "added"
        for v in [m.group("v"), *re.findall(r"\d+(?:[.\u2024]\d+)+", m.group("more"))]:
            out.append(f"{m.group('p')} {v} support {verb}".replace("\u2024", "."))
    if _ASKS_WHEN.search(text):
        # "when did each drop Frob 3.8 and Frob 3.9, and first support Frob 3.14?": the same events, asked by time
        for m in _PLATFORM_ASKED.finditer(text):
            verb = m.group("verb").lower()
            if verb.startswith("support") and not m.group("first") and not _ASKS_WHEN.search(
                    re.split(r"[,;:.?!]", text[:m.start()])[-1]):
                continue  # "Does Quux support Frob 3.14?" asks no release
            if "." not in m.group("v") and "\u2024" not in m.group("v") and not m.group("p")[:1].isupper():
                continue
            verb = "dropped" if _DROPPED_VERB.match(verb) else "added"
            for v in [m.group("v"), *re.findall(r"\d+(?:[.\u2024]\d+)*", m.group("more"))]:
                item = f"{m.group('p')} {v} support {verb}".replace("\u2024", ".")
                if item.lower() not in (o.lower() for o in out):
                    out.append(item)
    for m in [*_RELEASE_PASSIVE_LIST.finditer(text), *_RELEASE_THAT.finditer(text)]:
        # "in which releases were A (a1), B and C introduced", "the releases that added A and B": each one's release
        pieces = [_clean_item(re.sub(r"`([^`]+)`", r"\1", re.sub(r"\s*\([^()]*\)", "", p)))
                  for p in _list_pieces(m.group("x"))]
        for piece in pieces:
            piece = re.sub(r"^(?:then|later|also|finally|next)\s+", "", piece, flags=re.I)
            item = f"{_key_named(piece)} {m.group('verb').lower()}".replace("\u27ee", " (").replace("\u27ef", ")")
            if (pv := re.fullmatch(r"(?P<p>[A-Z][\w+#]*)\s+v?(?P<v>\d+(?:[.\u2024]\d+)*)", piece)) and \
                    m.group("verb").lower() in ("added", "introduced", "removed", "dropped"):
                # "in which releases were Frob 3.6 and then Frob 3.7 dropped": each a platform's version dropped
                verb = "dropped" if m.group("verb").lower() in ("removed", "dropped") else "added"
                item = f"{pv.group('p')} {pv.group('v')} support {verb}".replace("\u2024", ".")
            if piece and len(_content_words(piece)) <= 5 and item.lower() not in (o.lower() for o in out):
                out.append(item)
    if (said := _CHANGE_SAID.search(text)) and _ASKS_WHEN.search(text, said.end()):
        # "I recall the frob defaults were changed at some point - when was that, and which release shipped it?"
        # (when, and the release that shipped it, with its date)
        item = f"{_clean_item(said.group('s'))} {said.group('verb').lower()}"
        if item.lower() not in (o.lower() for o in out):
            out.append(item)
        if re.search(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)\b", text[said.end():], re.I):
            out.append("release date")
    # ("... did the frob_delay default change to 0.25 and the quux_size default become 16MB": the second, too)
    also = [c for m in _RELEASE_DID.finditer(text) if (c := _ALSO_DID.match(text, m.end()))]
    for m in [*_RELEASE_CHANGED.finditer(text), *_RELEASE_PASSIVE.finditer(text), *_RELEASE_DID.finditer(text), *also]:
        item = _clean_item(m.group("x"))
        if item.lower() in ("it", "this", "that") and (said := _SUBJECT_BEFORE.search(text, 0, m.start())):
            # "The frob default used to be 1,3 ...: in which release was it changed": the subject it stands for
            item = _clean_item(said.group("s"))
        item = _KIND_OF_KEY.sub("", item)
        if item.lower() in _REFERRING or item.lower() in ("support", "compatibility"):
            # "in which release was that setting introduced": one the question asked already; "removed support
            # for Frob 3.8": the platform's version (above)
            continue
        if _key_named(item) != item:
            item = _key_named(item)
        elif re.match(r"(?:its|their)\s", m.group("x"), re.I) and out:
            # "which release added frob_limit, and in which did its default change": the key's default, asked before
            item = _CHANGED_KEY.sub("", out[-1]) + f" {item}"
        # what happened to it is asked, and searched for: "default max retries changed", "frob-limit added"
        verb = m.group("verb").lower()
        if m.re is _RELEASE_CHANGED and verb in BROUGHT_VERBS and (
                whom := _FOR_WHAT.match(text, m.end())) and item == _clean_item(m.group("x")):
            item = f"{item} {whom.group(1)} {_clean_item(whom.group(2))}"  # "recovery for deleted frobs": one feature
        verb = ("changed" if verb.startswith("become") and "available" not in verb else
                _DID_VERBS.get(" ".join(verb.split()), "added")) if m.re in (_RELEASE_DID, _ALSO_DID) else verb
        if item and re.fullmatch(CHANGE_VERBS, verb, re.I):
            item = f"{item} {verb}"
        if item and item.lower() not in (o.lower() for o in out):
            out.append(item)
    return out


def brought_spans(text: str) -> list[tuple[int, int]]:
    """Where a question writes what a release brought ("the version that added QXP/2", "which release introduced
    Frob support"): a feature, no product compared."""
    return [m.span("x") for rx in (_RELEASE_THAT, _RELEASE_CHANGED, _RELEASE_DID) for m in rx.finditer(text)
            if m.group("verb").lower() in BROUGHT_VERBS | {"dropped"} or (
                rx is _RELEASE_DID and _DID_VERBS.get(" ".join(m.group("verb").lower().split()), "added") == "added")]


def _key_named(item: str) -> str:
    """The key an item names when it names one ("the frob_limit constructor parameter" -> "frob_limit", "the
    --frob-lock option" -> "frob-lock", "the default max-size" -> "default max-size"); the item otherwise."""
    bare = _KIND_OF_KEY.sub("", item)
    words = bare.split()
    if len(keys := [w.strip("-") for w in words if re.fullmatch(r"[\w.-]+", w) and keyword_like(w)]) == 1:
        if words[-1] != keys[0] and _joined_words(keys[0]):
            return item  # words joined as one adjective before a noun: "multi-threaded downloads" names a feature
        return ("default " if re.match(r"default\b", bare, re.I) else "") + keys[0]
    return item


# the subject of the sentence a later "it" stands for: a setting's default or value that "used to be" something
_SUBJECT_BEFORE = re.compile(r"(?:^|(?<=[.?!]\s))\s*(?:the\s+)?(?P<s>(?:[\w.-]+\s+){0,3}?(?:default|value|limit|"
                             r"setting)s?)\s+(?:used\s+to\s+be|was|were|had\s+been)\b[^.?!]*$", re.I)
# a change the asker recalls, whose time a later clause asks: "the frob defaults were changed at some point"
_CHANGE_SAID = re.compile(r"\b(?:the\s+)?(?P<s>(?:(?!the\b)[\w.-]+\s+){0,3}?(?:default|value|limit|setting)s?)\s+"
                          r"(?:was|were|got|had\s+been|(?:has|have)\s+been)\s+(?P<verb>changed|raised|lowered|increased|"
                          r"decreased)\b", re.I)
# "when were Zorb 3.0 and 3.2 released" read as a list: "3.2 released" is the release dates asked, no attribute
# (and "when did Zorbq ship v4.0.0": the release itself, no thing it brought)
_RELEASE_ITEM = re.compile(r"v?\d+(?:[.\u2024]\d+)*\s+(?:released|published|shipped|out|tagged|added)", re.I)
_SUPPORT_FOR = re.compile(r"(?:support|compatibility)\s+(?:for|with)\s+(?P<p>[A-Za-z][\w.+#]*)\s+v?(?P<v>[\d.]+)",
                          re.I)


def _restated_event(item: str, found: list[str]) -> bool:
    """Whether a list item ("support for Frob 3.8") only restates a platform version asked as an event ("Frob 3.8
    support dropped"), or what an event's feature is for."""
    if (m := _SUPPORT_FOR.fullmatch(item)) is not None:
        return any(f.lower().startswith(f"{m.group('p')} {m.group('v')} support ".lower()) for f in found)
    # ("deleted frobs" of "recovery for deleted frobs added": what the event's feature is for, asked with it)
    if any(re.search(rf"\s(?:for|of|on)\s+(?:the\s+|all\s+)?{re.escape(item)}\s+(?:{CHANGE_VERBS})$", f, re.I)
           for f in found if f != item):
        return True
    # ("each drop Frob 3.8", "Frob 3.9": a piece of the clause that asked the event)
    events = [e for f in found if f != item and (e := PLATFORM_EVENT.fullmatch(f.replace("\u2024", ".")))]
    named = re.findall(r"([A-Za-z][\w+#]*)[\s-]v?(\d+(?:[.\u2024]\d+){1,2})", item)
    return bool(named) and not PLATFORM_EVENT.fullmatch(item) and all(
        any(e.group("p").lower() == p.lower() and e.group("v") == v.replace("\u2024", ".") for e in events)
        for p, v in named)


def _settings_items(text: str, owned: re.Match[str]) -> list[str]:
    """The settings a question lists after its settings word ("default settings for the development server (port,
    bind address), pagination page size and file-cache maxAge"): each item, or the items its parentheses list."""
    if not _SETTINGS_WORD.search(owned.group(1)) or not (rest := _SETTINGS_OF.match(text, owned.end(1))):
        return []
    # "..., and in which versions were these introduced?": a question of its own, no setting
    listed = _ASKS_MORE.split(rest.group(1), maxsplit=1)[0]
    pieces = [p for p in re.split(r"\s*(?:,|;|\band\b|\bor\b)\s*(?![^()]*\))", listed.replace("\u2400", " "))
              if p.strip()]
    if len(pieces) < 3 and not any("(" in p for p in pieces):
        return []  # "settings for action and ruleset queues": which ones, not a list of settings
    out: list[str] = []
    for piece in pieces:
        inner = re.search(r"\(([^()]*)\)", piece)
        for item in _phrase_items(inner.group(1)) if inner else [_clean_item(piece)]:
            item = re.sub(r"^(?:the|a|an)\s+", "", item, flags=re.I)
            # ("the default quit codes for a [job:x] section": what it is under says which, no part of it)
            # ("the amount of free space compaction keeps in the archive": the amount, a clause after it)
            item = m.group() if len(item.split()) > 5 and (m := _AMOUNT_OF.match(item)) else item
            item = attribute_head(item) if len(item.split()) > 5 else item
            if item and len(item.split()) <= 5 and item.lower() not in (o.lower() for o in out):
                out.append(item)
    return [o.replace("\u27ee", " (").replace("\u27ef", ")") for o in out] if len(out) >= 2 else []


# a quantity of what the words after it name: "the amount of free space", "the number of open files"
_AMOUNT_OF = re.compile(r"(?:amount|number|share|percentage|fraction|count|proportion)\s+of\s+(?:[\w-]+\s+)?[\w-]+",
                        re.I)
_ASKS_MORE = re.compile(r",?\s+and\s+(?:(?:in|on|at|from|since|by|with|after|within|before|until)\s+)?"
                        r"(?:which|what|when|how|where|why|whether)\b", re.I)


def _phrase_items(phrase: str) -> list[str]:
    """The attributes a phrase lists ("the default A, B and C"), each cleaned, at most five words."""
    return [item for piece in _list_pieces(phrase)
            if (item := _clean_item(piece.replace("\u2024", ".")).replace("\u27ee", " (").replace("\u27ef", ")"))
            and len(item.split()) <= 5]


_ZH_ENUM_MARK = re.compile(r"[(（]\s*(?:\d{1,2}|[a-hA-H]|[ivx]{1,4})\s*[)）]\s*")


def _zh_enumerated(text: str) -> list[str]:
    """The items of a Chinese question's enumeration ("(a) 空闲连接保持多久，(b) 积压队列（backlog）大小"): each
    marker's words up to the next one, an English gloss of up to three words kept ("(backlog)"), any other aside
    dropped."""
    marks = list(_ZH_ENUM_MARK.finditer(text))
    if len(marks) < 2:
        return []
    out: list[str] = []
    for k, m in enumerate(marks):
        chunk = text[m.end():marks[k + 1].start() if k + 1 < len(marks) else len(text)]
        chunk = re.split(r"[。？?！!；;]", chunk)[0]
        chunk = re.sub(r"[（(]\s*([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})\s*[)）]", " \u27ee\\1\u27ef ", chunk)
        chunk = re.sub(r"\s*[（(][^()（）]*[)）]", "", chunk)
        chunk = re.sub(r"[，,、\s]*(?:和|以及|及|与|或)?[，,、\s]*$", "", chunk.strip())
        item = " ".join(chunk.replace("\u2400", " ").split()).replace("\u27ee", "(").replace("\u27ef", ")")
        if item and item not in out:
            out.append(item.replace("\u2024", "."))
    return out if len(out) >= 2 else []


def _enumerated(text: str) -> list[str]:
    """The items of an enumeration ("(1) X, (2) Y and (3) Z"): each marker's words up to the next marker or the
    end of its clause, as a noun phrase."""
    marks = list(_ENUM_MARK.finditer(text))
    if len(marks) < 2:
        return []
    out: list[str] = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        chunk = text[m.end():end]
        clause = re.search(_CLAUSE_END, chunk, re.I)
        chunk = chunk[:clause.start()] if clause else chunk
        # each compared product's own key for the item ("(Zorbq's frob_limit, Quux' max_frobs)", read before): a
        # gloss kept whole, however long the item
        keys = re.search(r"\s*\u27ee([^\u27ee\u27ef]+ / [^\u27ee\u27ef]+)\u27ef", chunk)
        chunk = chunk.replace(keys.group(), "") if keys else chunk
        # an item that is a clause asking how long or how many ("after a stop is sent, how long each waits before
        # ..."): what the clause asks
        asks = re.search(r"\bhow\s+(?:long|many|much)\b", chunk, re.I)
        if asks and (read := _how_clauses(chunk[asks.start():])):
            out.append(f"{read[0]} ({keys.group(1)})" if keys else read[0])
            continue
        # examples of the item go ("(arenas, spans, regions)"); a gloss of a few words stays, the source's own words
        # for it ("the basic unit objects are carved from (page/chunk size)")
        gloss = re.search(r"\(([\w/ -]{2,30})\)", chunk)
        chunk = re.sub(r"\s*\([^()]*\)", "", chunk)
        chunk = re.sub(r"[,;]?\s*(?:and|or)?\s*$", "", chunk.strip())
        item = _clean_item(chunk.replace("\u2024", ".")).replace("\u27ee", " (").replace("\u27ef", ")")
        item = re.sub(r"^(?:the|a|an)\s+", "", item, flags=re.I)
        if item and gloss and len(gloss.group(1).split()) <= 3:
            item = f"{item} ({gloss.group(1).strip()})"
        if keys and (not item or len(item.split()) > 11):
            item = keys.group(1)  # (the keys say what a long clause asks: "how short a run counts as ...")
        elif keys:
            item = f"{item} ({keys.group(1)})"
        if item and (keys or len(item.split()) <= 11) and item.lower() not in (f.lower() for f in out):
            out.append(item)
    return out if len(out) >= 2 else []


_HOW_OFTEN = re.compile(r"\bhow often (?:does|do|is|are|will|can|should)\s+(?:each|it|they|every one)?\s*"
                        r"([^,;?]+?)(?=\s*(?:[,;?]|\band\b|$))", re.I)
_HOW_LONG = re.compile(r"\bhow long (?:is|are|does|do|will|was|were)\s+(?:each|an?|the|it|they)?\s*"
                       r"(?:[\w.-]+\s+)?(\w+?)(?:ed|d)?\b(?=\s*(?:\(|[,;?]|\band\b|for\b|$))", re.I)


# English words for a few words a Chinese question asks with (synonyms only: what is asked is decided by the
# question's structure), so an attribute asked in Chinese meets the same one read from an English document
# ("release_interval", a benchmark of an "Encoder")
_ZH_WORDS = {"标准库": "standard library", "发布": "release", "发行": "release", "支持": "support",
             "维护": "maintenance",
             "更新": "update", "升级": "upgrade", "编码": "encode", "解码": "decode",
             "序列化": "serialization", "反序列化": "deserialization", "解析": "parse",
             "压缩": "compression", "解压": "decompression", "吞吐": "throughput", "延迟": "latency",
             "内存": "memory", "性能": "performance", "速度": "speed", "启动": "startup", "构建": "build",
             "查询": "query", "写入": "write", "读取": "read", "存储": "storage", "间隔": "interval",
             "时长": "duration",
             # (settings and limits, as technical documentation names them in English)
             "默认": "default", "超时": "timeout", "连接": "connection", "连接池": "connection pool", "池": "pool",
             "空闲": "idle", "不活动": "inactive", "保持": "keep", "打开": "open", "多久": "duration",
             "积压": "backlog", "队列": "queue", "大小": "size", "进程": "process", "工作进程": "worker process",
             "线程": "thread", "工作线程": "worker thread", "数量": "number", "个数": "number", "上限": "limit",
             "限制": "limit", "最大": "maximum", "最小": "minimum", "重试": "retry", "次数": "count",
             "过期": "expiry", "缓存": "cache", "请求": "request", "响应": "response", "版本": "version",
             "日期": "date", "等待": "wait", "心跳": "heartbeat", "并发": "concurrency", "端口": "port",
             "时间": "time", "生存时间": "ttl", "有效期": "expiry", "保留": "retention", "分片": "shard",
             "条目": "entry", "键": "key", "值": "value", "长度": "length", "行": "line", "文件": "file",
             "磁盘": "disk", "容量": "capacity", "批量": "batch", "批次": "batch", "延时": "delay",
             "阈值": "threshold", "慢": "slow", "测试": "test", "钩子": "hook", "工作者": "worker", "数": "number",
             "数据": "data", "长期支持": "long-term support",
             # (how many a queue holds: its depth, never bytes)
             "队列大小": "queue depth", "队列长度": "queue depth",
             "存活": "lifetime", "寿命": "lifetime", "生命周期": "lifetime", "任务": "job", "作业": "job",
             "运行": "run", "结果": "result", "服务器": "server", "后端": "backend", "建立": "establish",
             "重定向": "redirect", "主机": "host", "每个主机": "per host", "总数": "total", "最多": "maximum",
             "最长": "maximum", "多少个": "number", "几个": "number", "几次": "count", "多少次": "count",
             "预取": "prefetch", "执行": "execution", "单个": "per"}


def with_english(attribute: str) -> str:
    """'解码性能' -> '解码性能 decode performance': the English words of the Chinese ones it is made of, for matching
    what a source names in English; what a report shows stays the question's own words."""
    if not re.search(r"[\u4e00-\u9fff]", attribute):
        return attribute
    # (the longest Chinese words first, each read once: "工作进程" is a worker process, not also a process)
    rest, placed = re.sub(r"\s*[(（][^()（）]*[)）]\s*", "", attribute), []  # ("队列 (backlog) 大小": one phrase)
    for zh, en in sorted(_ZH_WORDS.items(), key=lambda kv: -len(kv[0])):
        if (at := rest.find(zh)) >= 0:
            placed.append((at, en))
            rest = rest.replace(zh, " " * len(zh))
    words = [en for _, en in sorted(placed)]  # in the order the question writes them
    return f"{attribute} {' '.join(dict.fromkeys(words))}" if words else attribute


def _zh_spans_asked(question: str, found: list[str]) -> list[str]:
    """"多久发布一次新版本" asks for a release interval, "支持多长时间" for a support duration."""
    out: list[str] = []
    for m in re.finditer(r"多久(\S{1,4}?)一次", question):
        out.append(f"{m.group(1)}间隔")
    for m in re.finditer(r"(?:(?<=[\s，,。？?；;：:、])|^)([^\s，,。？?；;：:、]{2,12}?)"
                         r"(?:多长时间|多久(?!\S{1,4}?一次))", question):
        # ("每次重试前等待多久": the wait before a retry, not any wait; "能存活多久": the lifetime; "的 LTS 版本分别支持
        # 多长时间": the support, asked of each)
        said = re.split(r"分别|各自|都", m.group(1))[-1] or m.group(1)
        said = re.sub(r"^(?:的|每次|每个|一个|单个|默认|最长|最多|能|会|要|需要|可以)+|(?:能|会|要|可以)$", "",
                      said) or said
        if not any(m.group(0) in f for f in found):  # (an item that asks it in its own words already)
            out.append(f"{said}时长")
    for m in re.finditer(r"(?:(?<=[\s，,。？?；;：:、])|^)([^\s，,。？?；;：:、]{2,12}?)(?:几次|多少次)", question):
        # ("失败的任务默认自动重试几次": how many times it is retried)
        said = re.sub(r"^(?:每次|每个|一个|单个|默认|最多|能|会|要|需要|可以)+", "", m.group(1)) or m.group(1)
        if not any(m.group(0) in f for f in found):
            out.append(f"{said}次数")
    return [a for a in out if a not in found]


def _spans_asked(question: str, found: list[str], entities: Sequence[str] = ()) -> list[str]:
    """The spans of time a question asks for in so many words: "how often does each ship a new feature release"
    asks for a release interval, "how long is a release supported" for a support duration; and what its other
    "how many"/"how long" clauses ask (_how_clauses)."""
    text = re.sub(r"\s*\([^()]*\)", "", question)
    for e in sorted(entities, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(e)}(?!\w)", "\u2400", text, flags=re.I)
    out: list[str] = []
    for m in _HOW_OFTEN.finditer(text.replace("\u2400", "")):
        words = re.findall(r"[A-Za-z][\w-]*", m.group(1))
        if words:
            out.append(f"{words[-1].lower()} interval")
    clauses = _how_clauses(text)
    out += [c for c in clauses if c not in out]
    for m in re.finditer(_HOW_LONG, question):
        if not clauses or not re.match(r"\bhow long (?:does|do|will)\b", m.group(0), re.I):
            out.append(f"{m.group(1).lower()} duration")
    named = {w.lower() for e in entities for w in e.split()}  # ("how big can a Zorbq queue grow": a queue's size)
    for m in [*_HOW_BIG.finditer(question), *_HOW_BIG_CAN.finditer(question)]:
        # (the gloss may follow the rest of the clause: "how big can each cache get before it evicts (...)")
        gloss = re.match(r"\s*\(([^()]+)\)" if m.re is _HOW_BIG else r"[^,;?()]*?\(([^()]+)\)", question[m.end():])
        parts = [p for p in re.split(r"\s*[/,;]\s*|\s+or\s+", gloss.group(1)) if p.strip()] if gloss else []
        if len(parts) >= 2 and all(1 <= len(p.split()) <= 4 for p in parts):
            # "how big is the default connection pool (total connections / connections per host)": the measures the
            # asker means by its size, each asked
            out += [i for p in parts if (i := _clean_item(p)) and i not in out]
        else:
            # "how big is the default connection pool": its size; "how big can a cache get": its largest size; "how
            # big are the frob or quux files": each one's ("frob file size", "quux file size")
            for piece in _list_pieces(_one_of(m.group("n"))):
                item = _clean_item(" ".join(w for w in piece.split() if w.lower() not in named))
                if re.match(r"how \w+ (?:are|were|do)\b", m.group(), re.I):
                    item = re.sub(r"(?<=[a-rt-z])s$", "", item)  # "how big are the frob files": a frob file's
                measure = _MEASURE_OF.get((m.groupdict().get("adj") or "big").lower(), "size")
                if item and (size := f"{item} {measure}") not in out:
                    out.append(size if m.re is _HOW_BIG else f"maximum {size}")
    return [a for a in out if a not in found]


def _one_of(phrase: str) -> str:
    """What a phrase names one of: "each of these caches" -> "cache", "the queue" -> "queue"."""
    plural = re.match(r"(?:of\s+)?(?:these|those|their|all)\s+", phrase, re.I)
    phrase = re.sub(r"^(?:of\s+)?(?:these|those|the|its|their|all)\s+", "", phrase, flags=re.I)
    return re.sub(r"(?<=[a-rt-z])s$", "", phrase) if plural else phrase


# "how big is the default connection pool (...)", "how large are the write buffers": a size
_HOW_BIG = re.compile(r"\bhow (?P<adj>" + "|".join(_MEASURE_OF) + r") (?:is|are|was|were|does|do)\s+"
                      r"(?:the\s+|a\s+|an\s+|its\s+|each\s+|"
                      r"their\s+|(?:each(?:\s+one)?|every\s+one|\u2400)\s*['’]s\s+)?(?P<n>(?:[\w-]+\s+){0,4}?[\w-]+?)(?=\s*(?:\(|[,;?]|$)|\s+(?:and|of|for|in|on|at|with|when|get|by|out|per|from)\b|"
                      # (up to a relative clause's subject: "the frob files each one uploads")
                      r"\s+(?:each|every|it|they|we|you|that|which)\s)",
                     re.I)


# "how big can each cache get (before it evicts)", "how large may a queue grow": the largest size it reaches
# (or asked indirectly: "how big each cache can get")
_HOW_BIG_CAN = re.compile(r"\bhow (?:big|large)\s+(?:(?P<aux>can|could|may|might|will|would|does|do)\s+)?"
                          r"(?:the\s+|a\s+|an\s+|its\s+|each\s+|every\s+|their\s+|one\s+)?(?P<n>(?:[\w-]+\s+){0,3}?[\w-]+?)\s+"
                          r"(?(aux)|(?:can|could|may|might|will|would)\s+)(?:get|grow|become|be)\b", re.I)


_AUX = r"(?:is|are|was|were|does|do|did|will|would|can|could|may|might|should|must)"
# a clause asking how long or how many, with its own subject and verb: "how many server connections can one pool
# hold", "how long may a server connection live before ...", "how long does each wait for a connection ..."
# (or a clause of a list, without its auxiliary: "the heartbeat, how long a worker waits for results, and ...")
_HOW_CLAUSE = re.compile(rf"\bhow (?P<q>many|much|long)\s+(?P<n>(?:(?!{_AUX}\b)[\w/-]+\s+){{0,5}}?)"
                         rf"(?:(?P<aux>{_AUX})\s+|(?<=long )(?=(?:a|an|the|each|every|its|their)\s))"
                         r"(?P<rest>(?:(?!\band\s+(?:how|what|which|when)\b)[^,;?:])+)", re.I)
# what names no subject of its own: the compared things themselves ("each", "it", "they", a masked name)
_OWNER_WORDS = frozenset({"each", "every", "it", "they", "them", "one", "\u2400", "its", "their"})
_PRONOUNS = _OWNER_WORDS - {"each", "every", "one"}  # an owner word that stands for its noun, not before one
# the asker as a clause's subject: "how long can I restore ...", "how many can we open": no thing asked of
_ASKERS = frozenset({"i", "we", "you"})
# verbs whose subject consumes what is counted ("how much disk may thumbnails take"), rather than holds it
_CONSUME = frozenset({"use", "take", "consume", "need", "require", "occupy", "allocate"})
_DETERMINERS = frozenset({"a", "an", "the", "one", "single", "new", "each", "every", "any", "its", "their"})
# the word after a clause's verb that ends it: a preposition, a conjunction, an adverb of its own
_AFTER_VERB = frozenset({"before", "after", "for", "until", "till", "in", "on", "by", "when", "while", "to", "per",
                         "and", "or", "at", "with", "without", "if", "unless", "once", "from"})
# a clause that waits until it gives up asks for a timeout
_GIVES_UP = re.compile(r"\bbefore\s+(?:it\s+|they\s+)?(?:giving|gives?)\s+up\b|\bbefore\s+timing\s+out\b|"
                       r"\bbefore\s+(?:it\s+|they\s+)?times?\s+out\b", re.I)
_NOMINAL = {"live": "lifetime", "lives": "lifetime", "last": "duration", "lasts": "duration"}


# "(after how long does) each count a lease held elsewhere as expired": what a thing of an age is held to be
_HELD_AS = re.compile(r"(?:[\w\u2400]+\s+){0,2}?(?:treat|consider|count|mark|regard|declare|deem|flag|judge)s?\s+"
                      r"(?:a|an|the|its|their)?\s*(?P<o>[a-z][\w-]*?)(?:s)?\b[^,;?]*?\s+as\s+(?P<state>[a-z][\w-]+)\b",
                      re.I)


def _how_clauses(text: str) -> list[str]:
    """The attribute each "how many"/"how long" clause with a subject and a verb of its own asks for: "how many
    server connections can one pool hold" -> "server connections per pool", "how long may a server connection live
    before it is closed" -> "server connection lifetime", "how long does each wait for a new backend connection to
    be established before giving up" -> "backend connection wait timeout". A passive "how long is a release
    supported" is _HOW_LONG's."""
    out: list[str] = []
    for m in _HOW_CLAUSE.finditer(text):
        words = m.group("rest").split()
        aux = (m.group("aux") or "").lower()
        if aux in ("is", "are", "was", "were") and m.group("q").lower() == "long" and (wait := re.match(
                r"(?:the|a|an)\s+(?:wait|delay|pause|backoff)\s+(?:before|between)\s+(?:(?:a|an|the|each|two)\s+)?"
                r"([a-z]+?)(?:ies|s)?\b", m.group("rest"), re.I)):
            # "how long is the wait before a retry": the delay before one
            done = wait.group(1).lower() + ("y" if wait.group(0).lower().endswith("ies") else "")
            if f"{done} delay" not in out:
                out.append(f"{done} delay")
            continue
        if aux in ("is", "are", "was", "were"):
            # a passive: what is done to its subject ("how many times is a failing job retried", "how long is a job
            # allowed to run", "how long are results kept before they expire"); "how long is a release supported"
            # is _HOW_LONG's
            if (item := _passive(m.group("q").lower(), _clean_item(m.group("n")), words)) and item not in out:
                out.append(item)
            continue
        if m.group("q").lower() == "long" and (held := _HELD_AS.match(m.group("rest"))):
            # "after how long does each count a lease as expired": the age at which one counts so ("expired lease age")
            if (item := f"{held.group('state').lower()} {held.group('o').lower()} age") not in out:
                out.append(item)
            continue
        lead: list[str] = []
        while words and words[0].lower() in _DETERMINERS | _OWNER_WORDS | _ASKERS:
            lead.append(words.pop(0).lower())
        # the verb: the first word after the subject's words that a preposition, a conjunction or the end follows
        at = next((k for k in range(1, len(words)) if k + 1 == len(words) or words[k + 1].lower() in _AFTER_VERB),
                  len(words) - 1 if words else -1)
        if at < 0 and not lead:
            continue
        subject: list[str]
        if at < 0 or (lead and lead[-1] in _PRONOUNS | _ASKERS) or (
                lead and lead[-1] in ("each", "every") and (len(words) < 2 or words[1].lower() in _AFTER_VERB)):
            subject, verb, after = [], (words[0] if words else ""), words[1:]  # "does it wait for ...", "each wait"
        else:
            subject, verb, after = words[:at], words[at], words[at + 1:]
        if lead and lead[0] in ("each", "every") and len(subject) == 1:
            subject = []  # "each pooler": one of the compared things
        subject = [w.strip("`'\"") for w in subject if w.strip("`'\"") not in ("\u2400", "")]
        if m.group("q").lower() == "many" and re.fullmatch(r"times?(?:\s+(?:each|every|it|they|\u2400))?",
                                                           m.group("n").strip(), re.I):
            # "how many times will each retry starting a process": a count of what is done, its verb's
            done = next((w.lower() for w in m.group("rest").split()
                         if w.lower() not in _DETERMINERS | _OWNER_WORDS), "")
            if done and f"{done} count" not in out:
                out.append(f"{done} count")
            continue
        if m.group("q").lower() in ("many", "much"):
            thing = _clean_item(m.group("n"))
            if thing and subject and verb.lower().rstrip("s") in _CONSUME:
                # "how much disk may thumbnails take per album": what the subject uses, per what it says
                per = " ".join(w for w in after[1:] if w.lower() not in _DETERMINERS) if after[:1] == ["per"] else ""
                owner = " ".join(re.sub(r"(?<=[a-rt-z])s$", "", w) for w in subject)
                out.append(f"{owner} {thing}" + (f" per {per}" if per else ""))
                continue
            if thing:
                # (a count already per something, "rows per round trip", is asked as it is)
                out.append(f"{thing} per {' '.join(subject)}" if subject and " per " not in f" {thing} " else thing)
            continue
        verb = verb.lower()
        if not aux and re.search(r"[^s]s$", verb):
            verb = verb[:-1]  # "how long a worker waits": the verb as "how long does a worker wait" writes it
        of: list[str] = []
        if after and after[0].lower() == "for":  # "wait for a new backend connection to be established"
            for w in after[1:]:
                if w.lower() in _AFTER_VERB:
                    break
                if w.lower() not in _DETERMINERS:
                    of.append(w)
        if verb in ("wait", "pause", "sleep") and len(after) > 1 and after[0].lower() == "before" and \
                after[1].lower().endswith("ing") and not _GIVES_UP.search(m.group("rest")):
            # "how long does it wait before retrying": the delay before a retry; "how long does each wait before
            # escalating to SIGFROB": the wait before what it escalates to, as a reference entry words it
            obj: list[str] = []
            for w in after[3:] if len(after) > 3 and after[2].lower() == "to" else []:
                if w.lower() in _AFTER_VERB or w.startswith("(") or len(obj) == 2:
                    break
                if w.lower() not in _DETERMINERS:
                    obj.append(w.strip("`'\",.;"))
            item = " ".join([*subject, verb, "before", *obj]) if obj else \
                " ".join([*subject, _verb_of(after[1].lower()), "delay"])
            if item not in out:
                out.append(item)
            continue
        kind = "timeout" if _GIVES_UP.search(m.group("rest")) else "duration"
        if lead and lead[-1] in _ASKERS and aux in ("can", "could", "may", "might"):
            kind = "time limit"  # "how long can I restore a frob": how long one may still, its limit
        noun = _NOMINAL.get(verb)
        item = " ".join([*subject, *of[:3], noun or verb, *([] if noun else [kind])])
        if verb and item not in out:
            out.append(item)
    return out


# "when did ␀ get the Frob plugin, initial Quux support and ...", "when did each start verifying peers by
# default (first in a pre-release, ...)": a time asked for what the product (a name, or a word for it) got or began
_WHEN_GOT = re.compile(r"\b(?:when|(?:in\s+)?(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)\b[^?.;]{0,40}?)\s+"
                       r"(?:did|does|do|will)\s+(?:(?:the\s+)?\u2400|each(?:\s+one)?|it|they)\s+"
                       r"(?P<verb>get|gain|add|introduce|ship|receive|start|begin|stop|drop|remove|deprecate)\s+"
                       r"(?P<obj>(?:\([^()]*\)|(?!,?\s+and\s+(?:when|which|what|how|where|why)\b)[^?;()])+)", re.I)
# (the same, its subject not yet known: a question of what some product got, no look-up of one fact)
_WHEN_GOT_ANY = re.compile(r"\b(?:when|(?:in\s+)?(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version))\s+"
                           r"(?:did|does|do|will)\s+[^?,;]{1,60}?\s+(?:(?:get|gain|add|introduce|ship|"
                           r"receive)\s+(?:the\s+|a\s+|an\s+|initial\s+|basic\s+|new\s+)*[\w.+-]+\s+"
                           r"(?:plugins?|modules?|extensions?|drivers?|backends?|support|commands?|options?)|"
                           r"(?:start|begin|stop)\s+(?:to\s+)?[a-z]+ing)\b", re.I)
# "default to 4 MiB frames", "default to frames of 4 MiB": what a default that began is of
_DEFAULTING_TO = re.compile(r"default\s+to\s+(?:-?\d[\d.,]*\s*[A-Za-z%]{0,6}\s+)?(?P<n>[a-z][\w-]*)(?:\s+of\b.*)?\s*$",
                            re.I)
# words of degree that say how much of it came, not what came ("initial Quux support" is Quux support)
_DEGREE = re.compile(r"^(?:(?:the|a|an|initial|basic|first|experimental|preliminary|new|native|full)\s+)+", re.I)


def _when_got(text: str) -> list[tuple[tuple[int, int], list[str]]]:
    """The events each "when did X get A, B and C" clause asks ("A added", "B added"; "start verifying peers by
    default" -> "verify peers by default introduced", "stop Xing" -> "X removed"), with the clause's span."""
    out: list[tuple[tuple[int, int], list[str]]] = []
    for m in _WHEN_GOT.finditer(text):
        verb = m.group("verb").lower()
        obj = re.sub(r"\s*\([^()]*\)", "", m.group("obj")).strip(" ,")
        gerund = re.match(r"(?:to\s+)?([a-z]+ing)\b", obj, re.I) if verb in ("start", "begin", "stop") else None
        if gerund:
            obj = _verb_of(gerund.group(1).lower()) + obj[gerund.end():]
        if gerund and (to := _DEFAULTING_TO.match(obj)):
            # "start defaulting to 4 MiB frames": the frames' default changed (the value it set, the answer's to say)
            noun = re.sub(r"(?<=[a-rt-z])s$", "", to.group("n"))
            out.append((m.span(), [f"{noun} default changed"]))
            continue
        done = "removed" if verb in ("stop", "drop", "remove", "deprecate") else "introduced" if gerund else "added"
        if not gerund and re.search(r"(?:^|,|\band\b)\s*[A-Za-z][\w+#-]*\s+v?\d+(?:[.\u2024]\d+)*\s*(?=,|\band\b|$)",
                                    obj):
            continue  # "when did each drop Frob 3.8 and Frob 3.9": a platform's versions (_PLATFORM_ASKED)
        items = [f"{piece} {done}" for p in ([obj] if gerund else _list_pieces(obj))
                 if (piece := _DEGREE.sub("", p.strip(" ,")).strip()) and "\u2400" not in piece and
                 len(piece.split()) <= 6]
        if items:
            out.append((m.span(), items))
    return out


def _verb_of(gerund: str) -> str:
    """A gerund's verb: "retrying" -> "retry", "stopping" -> "stop", "closing" -> "close", "reconnecting" ->
    "reconnect"."""
    base = gerund.removesuffix("ing")
    if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "lsz":
        return base[:-1]
    if re.search(r"[^aeiou][aeiou][csvz]$|[^aeiou]at$", base):  # ("escalating" -> "escalate")
        return base + "e"
    return base


# a count of what the list after it names ("on three defaults: (a) ..., (b) ..."): no attribute of its own
_HOW_MANY_ASKED = re.compile(r"(?:(?:the|these|those|following|two|three|four|five|six|several|some|a\s+few|\d+|key|"
                             r"main)\s+)+(?:defaults?|settings?|options?|metrics?|values?|figures?|numbers?|aspects?|"
                             r"dimensions?|criteria|things?|points?|questions?)", re.I)
_OWNERS_ONLY = re.compile(r"(?:each|every|all|both|any)(?:\s+(?:one|of\s+them|tool|product))?|them|it|they", re.I)
_IRREGULAR = frozenset({"kept", "held", "run", "set", "built", "spent", "sent", "made", "shown", "given", "taken",
                        "known", "left", "done", "read", "written", "stored", "cached", "retained"})


def _passive(q: str, counted: str, words: list[str]) -> str | None:
    """The attribute a passive "how many"/"how long" clause asks for, from its subject and participle: "how many
    times is a failing job retried" -> "job retries"; "how long is a single job allowed to run" -> "job run time
    limit"; "how long are a job's results kept before they expire" -> "job results expiry time" (kept alone:
    "retention time"). None when the clause has no participle after its subject, or asks a count of things."""
    # (a participle after a determiner is an adjective of the subject: "a failed task")
    at = next((k for k, w in enumerate(words) if k and (w.lower() in _IRREGULAR or re.fullmatch(r"[a-z]{3,}ed", w))
               and words[k - 1].lower() not in _DETERMINERS), None)
    if at is None:
        return None
    subject = [w.lower().removesuffix("'s").removesuffix("’s") for w in words[:at]
               if w.lower() not in _DETERMINERS | _OWNER_WORDS]
    subject = subject[-2:]  # "a single job" is a job; "a job's results" the job's results
    if subject and len(subject) == 2 and subject[0] in ("single", "failing", "failed", "given", "typical"):
        subject = subject[1:]
    participle, after = words[at].lower(), [w.lower().strip(",.?") for w in words[at + 1:]]
    if q in ("many", "much"):
        if counted not in ("times", "time"):
            return None  # "how many workers are started ..." counts things: the active reading's
        noun = participle[:-3] + "ies" if participle.endswith("ied") else participle[:-2] + "s"
        return " ".join([*subject, noun])
    if participle == "allowed" and after[:1] == ["to"] and len(after) > 1:
        return " ".join([*subject, after[1], "time limit"])  # how long it may run before it is stopped
    if any(w.startswith("expir") for w in after):
        return " ".join([*subject, "expiry time"])
    if participle in ("kept", "stored", "retained", "cached", "held"):
        return " ".join([*subject, "retention time"])
    return None


_SPAN_WORDS = re.compile(r"\b(?:interval|duration|cadence|period|frequency|window|lifetime|phase)\b", re.I)


# what an attribute is measured under or of, after the quantity itself: "build time for a 1,000-page site", "peak
# memory use during the build", "default port of their local development server"
# ("time to decode a large file": the time, and the work it is measured on)
_TO_DO = r"to\s+[a-z]+\s+(?:a|an|the|one|\d[\d,.]*)\s"
_QUALIFIER = re.compile(r"\s+(?:(?:for|during|in|on|at|under|with|across|when|while)\s+(?:a|an|the|their|its|each|"
                        rf"every|one|\d[\d,.]*)|of\s+(?:their|its|each|every)|{_TO_DO})\b.*$", re.I)


KEY_GLOSS = re.compile(r"\(\s*`?([A-Za-z][\w.-]*[A-Za-z0-9])`?\s*\)\s*$")


def keyword_like(word: str) -> bool:
    """A setting's or variable's key rather than a word: "max_conn", "max-downloads", "ZORB_HTTP_TIMEOUT",
    "idleTimeout", "quoll.bufsize"."""
    return bool(re.search(r"[a-z0-9][_.-][a-zA-Z]|[A-Z0-9]_[A-Z]|[a-z][A-Z]", word))


def named_key(attribute: str) -> bool:
    """Whether an attribute is a setting's key itself, as the question writes it ("requestTimeout", "max_conn")."""
    return keyword_like(attribute) and " " not in attribute


def key_gloss(attribute: str) -> str | None:
    """The setting's own key an attribute glosses itself with: "HTTP read timeout (ZORB_HTTP_TIMEOUT)",
    "number of concurrent downloads (concurrent-downloads)"; a key joined only by "-" or "." restates the
    attribute's own words (not "storage size (on-disk)", "parsing speed (twitter.json)")."""
    m = KEY_GLOSS.search(attribute)
    if m is None or not keyword_like(key := m.group(1)):
        return None
    if not re.search(r"_|[a-z][A-Z]", key):
        own = {w[:4] for w in re.findall(r"[a-z0-9]+", attribute[:m.start()].lower())}
        if not {w[:4] for w in re.findall(r"[a-z0-9]+", key.lower())} <= own:
            return None
    return key


# an item of a parenthesis that names one compared product's own key for what is asked: "Zorbq's frob_limit", "Quux'
# max_frobs", "the Blarg worker's frob window", "the Wibble daemon" (the owner masked as \u2400 in attribute_list,
# named in owner_keys)
_OWNER_KEY_ITEM = (r"(?:(?:the\s+)?(?P<owner>{owner})(?P<part>(?:\s+[\w-]+){{0,3}}?)\s*['’]s?|"
                   r"the\s+(?P<part_of>{owner}))\s+(?P<key>[^\s,;()][^,;()]*?)")
_ANY_OWNER_KEY = re.sub(r"\?P<\w+>", "?:", _OWNER_KEY_ITEM.format(owner="\u2400"))  # (one item, no groups)
_MASKED_OWNER_KEYS = re.compile(rf"\(\s*{_ANY_OWNER_KEY}(?:\s*(?:,|;|\band\b)\s*(?:and\s+)?"
                                rf"{_ANY_OWNER_KEY}){{1,7}}\s*\)", re.I)
_OWNER_KEYS_GLOSS = re.compile(r"\s*\(([^()/]+(?:\s/\s[^()/]+)+)\)\s*$|^([^()/]+(?:\s/\s[^()/]+)+)$")


def _key_of(words: str) -> str:
    """The key an owner's item names: the setting's own token where the words hold one ("spawner max_frobs" ->
    "max_frobs"), else the words ("quick-respawn interval")."""
    words = " ".join(words.strip(" `'\"").split())
    tokens = [t.strip("`'\"") for t in words.split()]
    # (ordinary words joined by a hyphen are one word of a description: "per-transfer read buffer" is no key)
    return next((t for t in tokens if keyword_like(t) and not _joined_words(t)), words)


def _joined_words(token: str) -> bool:
    """Whether a token is ordinary lower-case words joined by hyphens ("multi-threaded", "per-transfer")."""
    return bool(re.fullmatch(r"[a-z]+(?:-[a-z]+)+", token)) and all(ordinary_word(p) for p in token.split("-"))


def _owner_items(inner: str, owner: str) -> list[tuple[str, str]] | None:
    """(owner, key) of each item of a parenthesis's text when every item is an owner's key, else None."""
    pieces = [p for p in re.split(r"\s*(?:,|;|\band\b)\s*", inner) if p.strip()]
    one = re.compile(_OWNER_KEY_ITEM.format(owner=owner) + r"\s*$", re.I)
    found = [(m.group("owner") or m.group("part_of"), _key_of(m.group("key"))) for p in pieces
             if (m := one.fullmatch(p.strip()))]
    keys = [k.lower() for _, k in found]
    # (each its own key: "(Zorbq's default, Quux's default)" glosses nothing)
    if len(set(keys)) < len(keys) or any(_GENERIC_ASK.fullmatch(k) and len(k.split()) <= 2 for k in keys):
        return None
    return found if len(found) == len(pieces) >= 2 else None


def owner_keys(question: str, entities: Sequence[str]) -> list[dict[str, str]]:
    """Each parenthesis of the question that names every compared product's own key for what an item asks
    ("(Zorbq's frob_limit, Quux' max_frobs, Blarg's frob cap)"): entity -> key, for two owners or more."""
    if len(entities) < 2:
        return []
    owner = "|".join(re.escape(e) for e in sorted(entities, key=len, reverse=True))
    out: list[dict[str, str]] = []
    for m in re.finditer(r"\(([^()]*)\)", question):
        items = _owner_items(m.group(1), owner)
        if items is None:
            continue
        canon = {e.lower(): e for e in entities}
        keys = {canon[o.lower()]: k for o, k in items if o.lower() in canon}
        if len(keys) >= 2:
            out.append(keys)
    return out


def gloss_by_sentence(question: str, attributes: Sequence[str], entities: Sequence[str]) -> list[str]:
    """Each attribute glossed with the compared products' own keys that a parenthesis of its sentence names
    ("Which port does each one listen on (Zorbq's control API, the Quux daemon)?": "port (control API / daemon)"),
    when that sentence asks that attribute alone; the others as they are."""
    out = list(attributes)
    for sentence in re.findall(r"[^?.!]+[?.!]?", question):
        keys = owner_keys(sentence, entities)
        asked = [i for i, a in enumerate(out) if (words := word_stems(attribute_head(re.sub(
            r"\s*\([^()]*\)$", "", a)))) and words <= word_stems(sentence)]
        if len(keys) == 1 and len(asked) == 1 and not owner_key_gloss(out[asked[0]]) and \
                len(keys[0]) == len(entities) and not any(
                    sorted(owner_key_gloss(a)) == sorted(keys[0].values()) for a in out):  # (glossed already)
            out[asked[0]] += " (" + " / ".join(keys[0][e] for e in entities) + ")"
    return out


def owner_key_gloss(attribute: str) -> list[str]:
    """The keys an attribute is glossed with, one per compared product ("retry count (frob_limit / max_frobs)"), as
    attribute_list writes them; [] for any other attribute."""
    m = _OWNER_KEYS_GLOSS.search(attribute)
    return [k.strip() for k in (m.group(1) or m.group(2)).split(" / ")] if m else []


def attribute_head(attribute: str) -> str:
    """The quantity an attribute names, without what it is measured under ("build time for a 1,000-page site" ->
    "build time")."""
    return _QUALIFIER.sub("", attribute).strip() or attribute


# what a feature a release brought is for ("added recovery for deleted frobs"): part of the feature's name
_FOR_WHAT = re.compile(r"\s+(for|of|on)\s+((?:the\s+|all\s+)?[\w-]+(?:\s+[\w-]+){0,2}?)(?=\s+and\b|\s*[,?.;]|$)", re.I)
BROUGHT_VERBS = frozenset({"added", "introduced", "removed", "deprecated"})
_RELEASE_CHANGED = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)\s+(?:first\s+)?(?P<verb>changed|"
                              r"raised|lowered|increased|decreased|set|made|introduced|added|removed|deprecated)\s+"
                              r"(?:the\s+)?(?P<x>[\w-]+(?:\s+[\w-]+){0,3}?)(?=\s+(?:to|from|in|for|of|used|needed|required|called|named)\b|"
                              # (up to the next clause: "... first added frob compression and when was it released")
                              r"\s+and\s+(?:when|which|what|how|where|in|on)\b|\s*[,?.;])",
                              re.I)
# ... and as a passive: "In which Zorbq release, and on what date, was the frob-limit check added", "in which release
# was the default max-size changed to its current value"
_RELEASE_PASSIVE = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)\b[^?.;]{0,60}?\b"
                              r"(?:was|were|is)\s+"
                              r"(?:the\s+)?(?P<x>[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:first\s+)?(?P<verb>changed|raised|"
                              r"lowered|increased|decreased|set|made|introduced|added|removed|deprecated)\b", re.I)
# ... and of a list, in the plural: "in which releases were A (a1), B and C introduced"
_RELEASE_PASSIVE_LIST = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:releases|versions)\b[^?.;]{0,60}?\bwere\s+"
                                   r"(?P<x>[^?;]{3,240}?(?:,|\band\b)[^?;]{1,240}?)\s+(?P<verb>introduced|added|"
                                   r"removed|deprecated|changed|dropped)\b", re.I)
# ... and as a relative clause of the releases asked: "when did the releases that introduced the `frob` command and
# the `--quux` option ship" (each one's release)
_RELEASE_THAT = re.compile(r"\b(?:releases?|versions?)\s+(?:that|which)\s+(?:first\s+)?(?P<verb>introduced|added|"
                           r"removed|deprecated|changed|dropped)\s+(?P<x>[^?;]{3,240}?)(?=\s+(?:ship|shipped|come|came|"
                           r"appear|appeared|land|landed|get|got|go|went|was|were|is|are)\b|\s*[?;.]|\s*,\s+and\b|$)",
                           re.I)
# ... and with "did": "in which Zorbq release did the frob_limit setting appear", "which version did the default change
# in" (what arrives is added)
_RELEASE_DID = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:releases?|versions?)\b[^?.;]{0,60}?\bdid\s+(?:the\s+)?"
                          r"(?P<x>[\w/-]+(?:\s+[\w/-]+){0,3}?)\s+(?:first\s+)?(?P<verb>appear|arrive|land|ship|change|"
                          r"get\s+added|get\s+removed|become\s+available|show\s+up|"
                          # ("did frob_strict become True by default": its default changed)
                          r"become\s+(?:true|false|enabled|disabled|on|off|the\s+default)(?:\s+by\s+default)?|"
                          r"become\s+default)\b", re.I)
_DID_VERBS = {"change": "changed", "get removed": "removed"}
# a second subject and verb the same "did" asks of, after the first one's "to"/"from" value
_ALSO_DID = re.compile(r"(?:\s+(?:to|from)\s+[^\s,?;]+(?:\s+to\s+[^\s,?;]+)?)?\s*,?\s+and\s+(?:the\s+)?"
                       r"(?P<x>[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?P<verb>change|become\s+(?:the\s+)?default|"
                       r"become(?=\s+[\w.-]+\s*[?,.;]?))\b", re.I)
# what kind of thing an item names after its key ("the frob-limit check"): the key is asked
_KIND_OF_KEY = re.compile(r"\s+(?:check|checker|option|setting|flag|parameter|rule|warning|message|lint)s?$", re.I)
# the verbs that say what a release did to a setting, as an attribute keeps them ("frob-limit added"; "set" and
# "made" are no such word at the end of a name: "character set")
CHANGE_VERBS = r"changed|raised|lowered|increased|decreased|introduced|added|removed|deprecated"
_CHANGED_KEY = re.compile(rf"\s+(?:{CHANGE_VERBS})$", re.I)
# "which release of each project added Frob 3.14 support", "which quux release dropped Frob 3.8": the release that
# added or dropped support for a platform's version ("Frob 3.14 support added")
_RELEASE_PLATFORM = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)\b(?:\s+of\s+[\w\s-]{1,30}?)?\s+"
                               r"(?:first\s+)?(?P<verb>added|dropped|removed|introduced)\s+(?:support\s+for\s+)?"
                               r"(?P<p>[A-Za-z][\w.+#]*)[\s-]v?(?P<v>\d+(?:[.\u2024]\d+){0,2})(?![\w.\u2024])"
                               # ("dropped support for Frob 3.8 and 3.9": both)
                               r"(?P<more>(?:\s*(?:,|and|or)\s*v?\d+(?:[.\u2024]\d+){1,2}(?![\w.\u2024]))*)", re.I)
# ... and anywhere in a question that asks when or in which release: "when did each drop Frob 3.8 and Frob 3.9",
# "when did it first support Frob 3.14", "in which releases did Zorbq add support for Frob 3.12"
# (a line named by a whole number is a platform's when its name is capitalised: "Frob 8", not "drop 2 ...")
_PLATFORM_ASKED = re.compile(r"\b(?P<first>first\s+)?(?P<verb>add(?:ed)?|drop(?:ped)?|remove[d]?|introduce[d]?|"
                             r"gain(?:ed)?|support(?:ed)?|declared?|announced?|"
                             r"(?:stop(?:ped)?|ceased?|(?:start|begin|began|beg[au]n)(?:ed)?)"
                             r"\s+supporting|no\s+longer\s+support(?:s|ed)?|end(?:ed)?\s+support\s+for)\s+"
                             r"(?:(?:official\s+)?(?:support|compatibility)\s+(?:for|with)\s+)?"
                             r"(?P<p>[A-Za-z][\w+#]*)[\s-]v?(?P<v>\d+(?:[.\u2024]\d+){0,2})"
                             # ("drop support for Frob 3.8 and for Frob 3.9": both)
                             r"(?![\w.\u2024])(?P<more>(?:\s*(?:,|and|or)\s*(?:for\s+)?(?:(?P=p)[\s-])?v?\d+"
                             r"(?:[.\u2024]\d+){0,2}(?![\w.\u2024]))*)", re.I)
# what a verb of _PLATFORM_ASKED says was done: support dropped (or else added)
_DROPPED_VERB = re.compile(r"drop|remov|stop|ceas|no\s+longer|end", re.I)
_ASKS_WHEN = re.compile(r"\bwhen\b|\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:releases?|versions?|dates?)\b|"
                        r"\btimeline\b", re.I)
PLATFORM_EVENT = re.compile(r"(?P<p>[A-Za-z][\w.+#]*) (?P<v>\d+(?:\.\d+){0,2}) support (?P<verb>added|dropped)")
_REFERRING = frozenset({"that", "this", "it", "these", "those", "they", "them", "each", "one"})
# a later sentence's own question for one thing: "Also, what is the default shutdown timeout for workers, ..."
_LATER_ASK = re.compile(r"(?<=[.?!]\s)\s*(?:(?:also|and|finally),?\s+)?(?:what|which)\s+(?:is|are|was|were)\s+"
                        r"(?:the\s+)?(?P<x>(?!(?:defaults?|values?|settings?|numbers?|figures?)\b)[^,?.;:]+?)"
                        r"(?=\s*(?:[,?.;]|$))", re.I)


# a clause asking for a noun phrase its own subject follows: "what maximum line length does each tool use", "what is
# the oldest version each one can be installed on", "what is the newest version Quux says it supports" (the name
# masked)
_WHAT_APPLIES = re.compile(r"(?:^|(?<=[\s,;:]))(?:what|which)\s+(?P<n>(?!(?:is|are|was|were|does|do|did)\b)"
                           r"(?:[\w/.-]+\s+){0,3}?[\w/.-]+)\s+(?:applies|apply|holds|hold|takes\s+effect|"
                           r"kicks\s+in|(?:is|are)\s+(?:used|applied|enforced))\b", re.I)
# a later clause of a sentence that asks a noun phrase's value: "..., and what is the default worker concurrency?"
_WH_VALUE = re.compile(r"(?:(?<=[,;]\s)|(?<=\band\s))\s*(?:(?:and|also)\s+)?(?:what|which)\s+"
                       r"(?:is|are|was|were)\s+(?:the\s+)?(?P<x>(?:(?!\b(?:how|what|which|when|where|why)\b)"
                       r"[^,?.;:\u2024])+?)(?=\s*(?:[,?.;:]|$|\band\s+(?:how|what|which|when|where|why)\b))", re.I)
_WHAT_ASKS = re.compile(rf"(?:^|(?<=[\s,;:]))(?:what|which)\s+(?:(?:is|are|was|were)\s+(?:the\s+)?)?"
                        rf"(?P<n>(?:(?!(?:{_AUX}|each|every|it|they|the|of|for|in|on)\b)[\w.+/-]+\s+){{1,5}}?)"
                        # (not "what minimum Quux version does ...": a name inside the noun phrase)
                        rf"(?:{_AUX}\s+)?(?:each|every|it|they|\u2400(?!\s+[\w-]+\s+{_AUX}\b))(?=[\s'’])", re.I)
# the aside of a clause that asks a noun phrase, before the clause ends ("... does each aim for (a, b or c)")
_ASIDE_AFTER = re.compile(r"[^,;?()]*?\(([^()]+)\)")
# an aside's piece that is a clause of its own ("as documented", "if any"): no kind of what is asked
_ASIDE_CLAUSE = re.compile(r"(?:where|when|if|as|which|that|whichever|whatever|e\.?g|i\.?e)\b", re.I)


def _kinds_glossed(asked: str, aside: str) -> list[str]:
    """The kinds of a noun phrase an aside lists, each a modifier of it ("frame sizes" glossed "minimum/maximum and
    mean or goal size" -> "minimum frame size", ..., "goal frame size"); none when a piece names anything
    else (a quantity of its own, a longer phrase)."""
    words = asked.split()
    if not words:
        return []
    head = re.sub(r"(?<=[a-rt-z])s$", "", words[-1].lower())
    one = " ".join([*words[:-1], head])
    pieces = [p.strip() for p in re.split(r"\s*(?:[/,;]|\band\b|\bor\b)\s*", aside) if p.strip()]
    pieces = [p for p in pieces if not _ASIDE_CLAUSE.match(p)]
    out: list[str] = []
    for piece in pieces:
        piece_words = piece.lower().split()
        if piece_words[-1:] and re.sub(r"(?<=[a-rt-z])s$", "", piece_words[-1]) == head:
            piece_words = piece_words[:-1]  # "goal size": a goal frame size
        if len(piece_words) != 1 or not re.fullmatch(r"[a-z][a-z-]+", piece_words[0]) or \
                canonical_metric(piece_words[0]) is not None:
            return []
        out.append(f"{piece_words[0]} {one}")
    return out if len(out) >= 2 else []


# "what do frob-ttl and frob-timeout default to (nowadays)", "what does ␀'s frob_size default to"
_DEFAULTS_TO = re.compile(r"\bwhat\s+(?:do|does|did)\s+(?:(?:the\s+)?\u2400\s*['’]s?\s+)?(?P<x>[^?.;:]+?)\s+"
                          r"default\s+to\b", re.I)
# what names no quantity: "what figures does Quux publish" asks for any ("what performance and footprint figures")
_GENERIC_ASK = re.compile(r"(?:.*\s)?(?:values?|settings?|defaults?|numbers?|figures?|ones?|things?|data|details|"
                          r"statistics|metrics|options|dates|facts)", re.I)


_JOINED = re.compile(r"\s*(?:\band\b|\bor\b)\s*")


def _list_pieces(phrase: str) -> list[str]:
    """A list's items, each modifier coordinated with a longer item taking that item's head, one each ("the total and
    per-host connection limits" asks for the total connection limit and the per-host connection limit; "read and
    write throughput" for two throughputs), unless the modifier names a quantity of its own ("latency and query
    throughput")."""
    parts = re.split(f"({_LIST_SPLIT.pattern})", phrase)
    pieces, seps = parts[0::2], parts[1::2]
    for i, piece in enumerate(pieces[:-1]):
        words, after = _content_words(piece), _content_words(pieces[i + 1])
        if len(words) == 1 and len(after) >= 2 and _JOINED.fullmatch(seps[i]) and "\u2400" not in piece and \
                re.fullmatch(r"[a-z][\w-]*", words[0]) and canonical_metric(words[0]) is None and \
                re.fullmatch(r"[A-Za-z][\w-]*", after[0]):
            # (each names one: "the total and per-host connection limits" are a total and a per-host limit)
            head = " ".join(after[1:])
            one = re.sub(r"(?<=[a-rt-z])s$", "", head)
            pieces[i] = f"{piece.rstrip()} {one}"
            pieces[i + 1] = re.sub(rf"{re.escape(head)}\s*$", one, pieces[i + 1])
    return pieces


def _content_words(item: str) -> list[str]:
    """An item's words but its articles and the prepositions joining them: "timeout for establishing a broker
    connection" says four things, "requests in flight per connection" three."""
    return [w for w in item.split() if w.lower() not in ("a", "an", "the", "in", "per", "for", "of", "on", "at")]


_PLACE = re.compile(r"^(?P<head>.+?)\s+(?P<prep>on|in|for|with|under)\s+\S.*$", re.I)


def _shared_heads(pieces: list[str]) -> list[str]:
    """List items that share the quantity before them: "the visibility timeout on Zorb and on Frob" asks for the
    visibility timeout on Zorb and on Frob, two items ("on Frob" alone names no quantity); that share what the last
    one is measured on: "memory and time to decode a large file" asks for the memory to decode it too; and the names
    a quantity is compared against: "speed-ups over Quux, Frob and Blarg" is one item, its baselines no items."""
    out: list[str] = []
    against = False  # the item before was a quantity over named baselines, its list going on
    for n, piece in enumerate(pieces):
        words = _content_words(piece)
        if against and len(words) == 1 and canonical_metric(words[0]) is None:
            continue  # ("speed-ups over Quux, Frob and Blarg": Frob and Blarg are baselines too)
        if (over := _OVER.search(piece)) and n + 1 < len(pieces) and len(_content_words(pieces[n + 1])) == 1:
            piece, against = piece[:over.start()], True
        else:
            against = False
        lead = re.match(r"\s*(on|in|for|with|under)\s+\S", piece, re.I)
        prev = _PLACE.match(out[-1]) if out and lead else None
        if lead and prev and prev.group("prep").lower() == lead.group(1).lower():
            piece = f"{prev.group('head')} {piece.strip()}"
        out.append(piece)
    for n in range(len(out) - 1):
        # ("memory and time to decode a large file": each measured on that work)
        if len(_content_words(out[n])) == 1 and (on := _MEASURED_ON.search(out[n + 1])) and \
                attribute_head(out[n + 1]) != out[n + 1]:
            out[n] = f"{out[n].strip()} {on.group(0).strip()}"
    return out


# a quantity compared against a named baseline: "speed-ups over Quux", "faster than Frob"
_OVER = re.compile(r"\s+(?:over|than|vs\.?|versus|against)\s+\S+\s*$", re.I)
# what a list's last item is measured on, shared by a lone quantity word before it
_MEASURED_ON = re.compile(rf"\s+{_TO_DO}.*$", re.I)


def _qualified_item(item: str) -> str | None:
    """A long list item that is a short quantity and what it is measured under, kept whole; None otherwise."""
    head = attribute_head(item)
    rest = item[len(head):].split()
    return item if head != item and len(head.split()) <= 5 and len(rest) <= 7 else None


def metric_key(attribute: str) -> str:
    """The canonical metric for an attribute, or a slug of the attribute's own words when none is known; an
    attribute that glosses itself with a setting's own key ("HTTP read timeout (ZORB_HTTP_TIMEOUT)", "number of
    downloads (max-downloads)") is that key's metric, as a reference entry of the key is read."""
    if event := PLATFORM_EVENT.fullmatch(attribute):  # "Frob 3.14 support added": a bound on Frob's version
        return platform_metric(event.group("p"))
    if owner_key_gloss(attribute):  # "retry count (frob_limit / max_frobs)": the count's, each key the owner's
        attribute = _OWNER_KEYS_GLOSS.sub("", attribute) or attribute.replace(" / ", " ")
    # (what a release did to it is no part of the quantity: "frob-limit added"; "default max-size" is the key's)
    came = re.search(r"(?<=\S)\s+(?:added|introduced|removed|deprecated)$", attribute, re.I)
    attribute = re.sub(rf"(?<=\S)\s+(?:{CHANGE_VERBS})$", "", attribute, flags=re.I)
    if came and not named_key(attribute) and not key_gloss(attribute) and not re.search(r"\bdefaults?\b", attribute):
        # a thing a release brought ("zorb compression added") is an event of its own words, no quantity of it
        # (the same thing however written: "QXP/2 added" and "Add QXP2 support" are one event)
        attribute = re.sub(r"(?<=\S)\s+support$", "", re.sub(r"(?<=[A-Za-z])/(?=\d)", "", attribute), flags=re.I)
        return re.sub(r"[^\w]+", "_", attribute.lower()).strip("_") or attribute
    under = re.fullmatch(r"(?P<key>[^\s()]+)\s*\((?P<case>[^()]+)\)", attribute)
    if under and named_key(under.group("key")):
        attribute = under.group("key")  # "frob-limit (libfrob build)": the key's, under the case its aside names
    bare = re.sub(r"^(?:the\s+)?defaults?\s+(?:value\s+(?:of\s+)?)?", "", attribute, flags=re.I)
    if (key := key_gloss(attribute)) or (named_key(bare) and (key := bare)):
        # (an attribute that is a key itself, "requestTimeout", is that key's metric too)
        return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).replace("-", "_").replace(".", "_").lower()
    attribute = attribute if canonical_metric(attribute) else attribute_head(attribute)
    known = canonical_metric(attribute)
    if known and not (known in EVENT_KEYS and _SPAN_WORDS.search(attribute)):
        return known  # a "release interval" is a span between releases, not the date of one
    if re.search(r"[\u4e00-\u9fff]", attribute):
        # "默认的工作进程数": the key of its English words (and the English it writes itself, "backlog"), as the
        # English sources a Chinese question is often answered from name it; none known: its own words
        english = [*re.findall(r"[A-Za-z][\w-]*", attribute),
                   *with_english(attribute)[len(attribute):].split()]
        if english:
            return metric_key(" ".join(dict.fromkeys(w.lower() for w in english)))
    # ("minimum frame size" is min_frame_size, as a source's "the minimum frame size is 512 kiB" is read)
    slug = re.sub(r"[^\w]+", "_", attribute.lower()).strip("_")
    return re.sub(r"^(min|max)imum_", r"\1_", slug) or attribute
