"""A manual page (roff with the man macros) read as the Markdown the plain-text reader understands.

Only what changes what a reader quotes is translated: ``.TH`` gives the title, ``.SH``/``.SS`` are headings,
``.PP``/``.LP``/``.P``/``.sp`` end a paragraph, a ``.TP`` or ``.IP`` entry is one list item ("tag: text", as an
option list reads), ``.B``/``.I``/``.BR``-style font macros keep their words (alternating macros join them
without spaces), ``.nf``...``.fi`` keeps its lines, and ``.tbl`` tables (``.TS``...``.TE``) become pipe rows.
Comments, requests no reader needs (``.ad``, ``.na``, ``.ne``, ``.in``, ``.de`` blocks ...) and escapes for
fonts and spacing are dropped; named characters become the characters they name.
"""

from __future__ import annotations

import re

_REQUEST = re.compile(r"^[.'](\S+)\s*(.*)$")
_FONT = re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)")
_SIZE = re.compile(r"\\s[+-]?\d+")
_NAMED = {"em": "—", "en": "–", "hy": "-", "bu": "•", "co": "©", "rg": "®", "tm": "™", "aq": "'", "dq": '"',
          "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "mu": "×", "<=": "≤", ">=": "≥", "+-": "±", "ti": "~",
          "ha": "^", "ga": "`", "rs": "\\", "ba": "|", "at": "@", "sh": "#", "Do": "$", "de": "°", "ps": "¶"}
_CHAR = re.compile(r"\\\((..)|\\\[([^\]]+)\]")
_FONT_MACROS = {"B", "I", "SM", "SB"}
_ALTERNATING = {"BR", "RB", "BI", "IB", "IR", "RI"}
_BREAKS = {"PP", "LP", "P", "sp", "br", "HP", "RS", "RE", "in", "ti"}
_IGNORED = {"ad", "na", "ne", "hy", "nh", "ft", "ps", "vs", "ll", "so", "ds", "nr", "ig", "UC", "PD", "ta", "bp",
            "ce", "ie", "el", "if", "tr", "cc", "lf", "mso", "pc", "ev", "hw", "fam", "ss", "cs", "DT", "ns", "rs"}


def _args(rest: str) -> list[str]:
    """A request's arguments: words, or double-quoted phrases ("a b" is one argument)."""
    return [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"?|\S+', rest)]


def _inline(text: str) -> str:
    text = _FONT.sub("", _SIZE.sub("", text))
    text = _CHAR.sub(lambda m: _NAMED.get(m.group(1) or m.group(2) or "", ""), text)
    text = text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "").replace("\\~", " ").replace(
        "\\ ", " ").replace("\\0", " ").replace("\\|", "").replace("\\^", "").replace("\\c", "").replace("\\:", "")
    return re.sub(r'\\".*$', "", text)  # a comment at the end of a line


def looks_like_roff(data: bytes) -> bool:
    """A man page names itself (.TH) or its sections (.SH) near its top."""
    head = data[:16_384]
    return b"\0" not in head and re.search(rb"(?m)^[.'](?:TH|SH|Dd|Dt)\b", head) is not None


def man_to_markdown(text: str) -> tuple[str | None, str]:
    """(title, Markdown) of a man page: the title is the ``.TH`` name and section ("PCRE2JIT(3)")."""
    title: str | None = None
    out: list[str] = []
    tagged = False  # the line after .TP is the entry's tag
    fill = True
    table: list[str] | None = None
    spec = False  # in a table's option and format lines
    skipping = ""  # the end of a .de/.ig block being skipped
    for raw in text.splitlines():
        if skipping:
            if raw.strip() == skipping:
                skipping = ""
            continue
        if table is not None:
            if raw.startswith(".TE"):
                out += [*table, ""]
                table = None
            elif spec:
                spec = not raw.rstrip().endswith(".")  # options ("tab(@);") and formats ("l l.") end with a dot
            elif not raw.startswith("."):
                cells = [_inline(c).strip() for c in raw.split("\t")]
                if cells and not all(re.fullmatch(r"[_=]*", c) for c in cells):
                    table.append("| " + " | ".join(cells) + " |")
                    if len(table) == 1:
                        table.append("|" + "---|" * len(cells))
            continue
        m = _REQUEST.match(raw)
        if m is None:
            line = _inline(raw)
            if tagged:
                out += ["", f"- {line.strip()}:"]
                tagged = False
            elif not fill:
                out.append(line)
            else:
                out.append(line)
            continue
        name, rest = m.group(1), m.group(2)
        if name.startswith('\\"') or name == "\\}":
            continue
        if name in ("de", "de1", "am"):
            skipping = ".."
        elif name == "ig":
            skipping = f".{rest.strip() or '.'}"
        elif name == "TH":
            args = _args(rest)
            title = f"{args[0]}({args[1]})" if len(args) > 1 else (args[0] if args else None)
        elif name in ("SH", "SS"):
            words = " ".join(_args(rest))
            out += ["", f"{'#' if name == 'SH' else '##'} {_inline(words).strip()}", ""]
        elif name == "TP":
            tagged = True
        elif name == "IP":
            args = _args(rest)
            tag = _inline(args[0]).strip() if args else ""
            out += ["", f"- {tag}:" if tag and tag not in ("\\(bu", "•", "-", "*") else "- "]
        elif name in _FONT_MACROS or name in _ALTERNATING:
            args = [_inline(a) for a in _args(rest)]
            joined = ("".join(args) if name in _ALTERNATING else " ".join(args))
            if tagged:
                out += ["", f"- {joined.strip()}:"]
                tagged = False
            else:
                out.append(joined)
        elif name in ("nf", "EX") and fill:
            fill = False  # no-fill text is code or a layout of its own: fenced, so it is no prose to quote
            out += ["", "```"]
        elif name in ("fi", "EE") and not fill:
            fill = True
            out += ["```", ""]
        elif name == "TS":
            table, spec = [], True
            out.append("")
        elif name in _BREAKS:
            out.append("")
        # anything else (.ad, .na, .ne, unknown macros) carries no text
    if not fill:
        out.append("```")
    heading = None if title is None else f"# {title}"
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return title, (f"{heading}\n\n{body}\n" if heading else body + "\n")
