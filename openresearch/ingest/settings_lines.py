"""The settings a code block lists: lines of a configuration listing of defaults ("port : 4000" in a YAML block
under "Quux runs with the following configuration options by default", "port: 8080," under "// Default values
are shown:") and a command's help lines that state a default ("-p, --port int   port to listen on (default
1313)"). Ingest drops code blocks as no prose; these lines are facts, each kept as a paragraph of its own. A block
that shows an example configuration ("pagerSize = 20" for one language) says nothing of defaults and stays out.
Pure core: the shape of the lines and the words around the block decide, no list of settings.
"""

from __future__ import annotations

import re

FENCE = re.compile(r"^\s*(```|~~~)")
_RUN = re.compile(r"^\s*(`{3,}|~{3,})\s*$")


def fence_at(lines: list[str], i: int) -> re.Match[str] | None:
    """The opening of a fenced code block at line `i`, or None. A bare run of four or more tildes right under a
    line of text ("Major Changes" over "~~~~~~~~~~~~~", a little short or long as it may be) is a
    reStructuredText heading's underline, and the run over such a title with its twin under it an overline: no
    code follows either."""
    m = FENCE.match(lines[i])
    if not m or not (run := _RUN.match(lines[i])):
        return m
    width = len(run.group(1))
    before = lines[i - 1].strip() if i > 0 else ""
    if before and not FENCE.match(lines[i - 1]) and ((run.group(1)[0] == "~" and width >= 4) or len(before) <= width):
        return None  # (a run of backticks under text is an underline only as long as the text: "````" opens code)
    after = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if after and i + 2 < len(lines) and lines[i + 2].strip() == run.group(1) and width >= len(after):
        return None
    return m


def closes_fence(opening: str, line: str) -> bool:
    """Whether `line` closes the code block that the line `opening` opened: a run of the same fence character,
    at least as long as the opening's ("````" closes a block opened with three), and nothing after it."""
    run = re.match(r"\s*(`{3,}|~{3,})", opening)
    return run is not None and re.fullmatch(rf"\s*{re.escape(run.group(1)[0])}{{{len(run.group(1))},}}\s*",
                                            line) is not None


# "key: value", "key = value", "key : value,", optionally quoted keys and a trailing comment
SETTING = re.compile(r"^\s*[\"']?(?P<key>[A-Za-z_][\w.-]{0,60})[\"']?\s*[:=]\s*(?P<value>[^\s#/,{}\[\]()][^#]{0,60}?)"
                     r"\s*,?\s*(?:(?:#|//).*)?$")
# a value a setting may hold and that says a figure: a number, a duration, a size, an address with a port
_FIGURE_VALUE = re.compile(r"^[\"']?(?:-?\d[\d_.,]*\s?[A-Za-z%]{0,4}|\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?|"
                           r"[\w.-]+:\d{2,5})[\"']?$")
# a command's help line with its default: "-p, --port int   port on which the server will listen (default 1313)"
OPTION_HELP = re.compile(r"^\s*(?:-\w,\s+)?--?[A-Za-z][\w.-]*(?:[ =][\w<>\[\].|-]+)?\s{2,}\S.*"
                         r"\(default:?\s[^)]*\d[^)]*\)\s*$")
_COMMENT = re.compile(r"^\s*(?:#|//|;|/\*|\*)")
_DEFAULTS = re.compile(r"\bdefaults?\b|\bby default\b|默认", re.I)
_CODE = re.compile(r"\b(?:const|let|var|return|import|def|function|func|if|for|while)\b|=>|\(")
_EXAMPLE = re.compile(r"\b(?:examples?|for instance|e\.g\.|usage|sample|such as)\b", re.I)
# a tab's label over its content ('=== "pyproject.toml"', '??? note'): markup between the words and the block
_TAB_LABEL = re.compile(r"^\s*(?:===|\?\?\?\+?|!!!)\s")
CONTEXT_LINES = 4  # non-blank lines before a fence that may say what the block shows


# a command's help entry: its option tags ("-n", "-k, --sockets=135", "--dial-timeout <DIAL_TIMEOUT>",
# "-pace value"), then its description after a wide gap or on the lines under it, indented deeper
# (the value an option takes: "<N>", "[N]", a type, "value", "stringArray", "Duration", "N_FROBS")
_ARG = (r"(?:<[^>\n]{1,40}>|\[[^\]\n]{1,40}\]|[a-z][A-Za-z]{0,15}|[A-Z][A-Z_]{0,30}|[A-Z][a-z]+(?:[A-Z][a-z]+)*)"
        r"(?:\.\.\.)?")
_ENTRY_TAGS = re.compile(r"^(?P<indent>[ \t]*)(?:-\w(?:[ =]\S+)?,\s*)?--?[A-Za-z][\w.-]*(?:=\S*)?"
                         rf"(?:[ \t]{_ARG})?(?P<rest>(?:\s{{2,}}|\t)\S.*)?$")
# where a help entry states its default: "(default 20/1s)", "[default: 40]", "Default is 300.", "defaults to 7s",
# or a figure in the option's own column: "--sockets=135" (the figure the option takes when not given)
_ENTRY_DEFAULT = re.compile(r"[(\[]default:?\s[^)\]]*\d|\bdefault(?:s|\s+value)?\s+(?:is|to|of|=|:)\s+\S*\d|"
                            r"^\s*(?:-\w,\s*)?--?[A-Za-z][\w.-]*=[\d.]+[a-zA-Z%]{0,3}(?:\s|$)", re.I)


# a help entry as ingest writes it, one paragraph: its tags ("-k, --sockets=135"), the argument they take
# ("<N>", "value"), its description, capitalised ("-n Number of frobs to send. Default is 300.")
HELP_ENTRY = re.compile(rf"(?P<term>(?:-\w(?:=\S+)?,\s*)?--?[A-Za-z][\w.-]*(?:=\S+)?)(?:\s{_ARG})?"
                        r"\s+(?P<description>[A-Z`][^\n]*)")


def help_entry(para: str) -> re.Match[str] | None:
    """A command's help entry that states its default, as one paragraph (its tags, argument and description)."""
    m = HELP_ENTRY.fullmatch(para.strip())
    return m if m is not None and _ENTRY_DEFAULT.search(para) else None


def setting_lines(lines: list[str]) -> dict[int, str]:
    """The lines inside fenced code blocks that are settings with their default values: index -> the paragraph
    the line starts (a help entry written over several lines is one paragraph, its first line's; the lines under
    it map to "")."""
    keep: dict[int, str] = {}
    i = 0
    while i < len(lines):
        m = fence_at(lines, i)
        if not m:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if closes_fence(lines[i], lines[j])), len(lines))
        keep.update(help_entries(lines, i + 1, end))
        keep.update((n, lines[n].strip()) for n in _block(lines, i, end) if n not in keep)
        i = end + 1
    return keep


def help_entries(lines: list[str], start: int, end: int) -> dict[int, str]:
    """A command's help entries in lines[start:end] that state a default, each joined into one paragraph: the
    option line and the description under it, indented deeper ("-pace value" over "Frobs sent per unit of
    time (default 20/1s)"), or one line ("-n  Number of frobs to send. Default is 300."). Index -> text ("" for
    a line joined to the entry above it)."""
    out: dict[int, str] = {}
    n = start
    while n < end:
        m = _ENTRY_TAGS.match(lines[n])
        if m is None:
            n += 1
            continue
        depth = len(m.group("indent").expandtabs())
        last = n
        while last + 1 < end and lines[last + 1].strip() and not _ENTRY_TAGS.match(lines[last + 1]) and \
                len(lines[last + 1].expandtabs()) - len(lines[last + 1].expandtabs().lstrip()) > depth:
            last += 1
        if last > n or m.group("rest"):
            text = " ".join(" ".join(lines[k].split()) for k in range(n, last + 1))
            if _ENTRY_DEFAULT.search(text):
                out[n] = text
                out.update((k, "") for k in range(n + 1, last + 1))
        n = last + 1
    return out


def _block(lines: list[str], fence: int, end: int) -> set[int]:
    body = range(fence + 1, end)
    keep = {n for n in body if OPTION_HELP.match(lines[n])}
    # the prose before it, past any note or markup in between ("<div class=note>...</div>")
    window = lines[max(0, fence - 30):fence]
    # no further back than the block before it: its words were about that block
    last_fence = max((k for k in range(len(window)) if fence_at(lines, max(0, fence - 30) + k)), default=-1)
    before = [ln for ln in window[last_fence + 1:] if ln.strip() and not ln.lstrip().startswith("<")
              and not _TAB_LABEL.match(ln)]
    before = before[-CONTEXT_LINES:]
    comments = [lines[n] for n in body if _COMMENT.match(lines[n])]
    if before and _EXAMPLE.search(before[-1]) and not _DEFAULTS.search(before[-1]):
        return keep  # "Example usage:" right over the block: what one might write, not the defaults
    # (a block's own "default: 1000" line under an entry's heading says it as well)
    keys = [m.group("key") for n in body if (m := SETTING.match(lines[n]))]
    if not _DEFAULTS.search(" ".join([*before, *comments, *keys])):
        return keep
    for n in body:
        line = lines[n]
        if _COMMENT.match(line) or not (s := SETTING.match(line)):
            continue
        value = s.group("value").strip().rstrip(",").strip()
        if _FIGURE_VALUE.match(value) and not _CODE.search(line.split("#", 1)[0].split("//", 1)[0]):
            keep.add(n)
    return keep
