"""The name a source's own address gives it: `github.com/acme/wibblet/blob/main/doc/faq.md` or a local file
`acme__wibblet__doc_faq.md` is about Wibblet when its text keeps writing "Wibblet" as a name. Pure functions;
the address only proposes words, the text decides (no list of products)."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import unquote, urlsplit

from openresearch.agents.extract.extract_rules import mask_links

# hosting services and address furniture: never what a page is about
_FURNITURE = frozenset(["www", "com", "org", "net", "io", "dev", "html", "htm", "md", "mdx", "rst", "txt", "pdf",
                        "blob", "tree", "main", "master", "raw", "refs", "heads", "github", "gitlab", "bitbucket",
                        "sourceforge", "codeberg", "readthedocs", "githubusercontent", "docs", "doc", "file",
                        "index", "readme"])
_SEGMENT = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9]+)*")
_MIN_USES = 3


def address_words(url: str) -> list[str]:
    """Candidate names in an address: each host label and path segment, split at '/', '_', '.', and
    at '-' as well as kept whole ("json-iterator", "json", "iterator"); furniture and short words left out."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    labels = host.split(".")[:-1] if "." in host else [host]
    path = unquote(parts.path)
    if parts.scheme == "file":  # the folders a user keeps files in name a collection; the file name names the file
        labels, path = [], path.rsplit("/", 1)[-1]
    out: list[str] = []
    for chunk in [*labels, *re.split(r"[/_]+", path)]:
        for seg in _SEGMENT.findall(chunk):
            seg = re.sub(r"\.(?:[a-z]{1,4})$", "", seg)  # "faq.md" -> "faq"
            for word in {seg, *re.split(r"[-.+]", seg)}:
                # a two-letter word only as the address capitalises a name ("Qx-Release-Cycle")
                if (len(word) >= 3 or re.fullmatch(r"[A-Z][a-z]", word)) and word.lower() not in _FURNITURE and \
                        not re.fullmatch(r"v?\d[\w.]*", word):
                    out.append(word)
    return list(dict.fromkeys(out))


def code_use(word: str, text: str) -> bool:
    """Whether `text` uses `word` as code uses a name: quoted as code, imported or installed, dotted or
    namespaced into, or as the prefix of an identifier ("wibblet_read("); or as software is named, with a
    version after it ("Changes with wibblet 1.31.3")."""
    w = re.escape(word)
    return bool(re.search(rf"`{w}`|\b(?:import|install|require|use|add|from)\s+{w}\b|(?<![\w/.-]){w}"
                          rf"(?:\.[a-z_]\w*|::|_[a-z]\w*\(|\s+v?\d+\.\d+(?:\.\d+)*\b)", text))


def _in_heading(text: str, at: int) -> bool:
    """Whether `at` is inside a heading: a short paragraph without end punctuation, two thirds of its words or more
    capitalised ("Core Configuration", "Management API Configuration")."""
    start = text.rfind("\n\n", 0, at) + 2 if text.rfind("\n\n", 0, at) >= 0 else 0
    end = text.find("\n\n", at)
    para = text[start:end if end >= 0 else len(text)].strip()
    words = re.findall(r"[A-Za-z][\w'-]*", para)
    return len(para) <= 80 and not re.search(r"[.!?:;]$", para) and \
        sum(w[:1].isupper() for w in words) * 3 >= 2 * len(words)


def name_uses(word: str, text: str, whole: str | None = None) -> tuple[str, int]:
    """The form `text` writes `word` in as a name, and how often: every use of a form with a capital inside it
    or of all capitals ("QuillDB", "QDB"); mid-sentence uses of a capitalised form ("... the Wibblet
    release"); lower-case uses only where the text (or the `whole` document it opens) also uses it as code or a
    version line does a name ("wibblet.Struct", "wibblet 1.2.3")."""
    masked = mask_links(text)
    # "releases", "versioned": an ordinary word takes endings, a name does not ("Qx" is not "qxs": a two-letter
    # name is told from a word by its capital)
    if re.search(rf"(?<![\w/.-]){re.escape(word)}(?:s|es|ed|d|ing)(?![\w/-])", masked, 0 if len(word) <= 2 else re.I):
        return "", 0
    forms = Counter(re.findall(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-]|\.\w)", masked, re.I))
    best, most = "", 0
    for form, n in forms.items():
        if any(c.isupper() for c in form[1:]):
            uses = n
        elif form[:1].isupper():
            # after a word of a sentence ("... the Wibblet release"), not inside a heading's run of capitalised
            # words ("Core Configuration", "Management API Configuration")
            uses = sum(1 for m in re.finditer(rf"(?<=[a-z\d,;:)] ){re.escape(form)}(?![\w/-]|\.\w)", masked)
                       if not _in_heading(masked, m.start()))
        else:
            # dotted uses count here ("wibblet.load(x)"): the name as code or a version line writes it
            uses = len(re.findall(rf"(?<![\w/.-]){re.escape(form)}(?![\w/-])", masked)) \
                if code_use(form, whole or text) else 0
        if uses > most:
            best, most = form, uses
    return best, most


def address_subject(url: str | None, text: str, whole: str | None = None) -> tuple[str, int] | None:
    """The word of the address that the text writes as a name most often: at least three times and at least
    twice as often as any other word of the address. Returns that form and its uses."""
    if not url:
        return None
    scored = sorted((name_uses(w, text, whole) for w in address_words(url)), key=lambda p: -p[1])
    scored = [s for s in scored if s[1] > 0]
    if not scored or scored[0][1] < _MIN_USES:
        return None
    top = scored[0]
    rivals = [s for s in scored[1:] if s[0].lower() not in top[0].lower() and top[0].lower() not in s[0].lower()]
    if rivals and top[1] < 2 * rivals[0][1]:
        return None
    return top
