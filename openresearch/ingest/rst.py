"""reStructuredText blocks as a reader of the rendered page sees them, before the plain-text reader runs.

Sphinx documentation writes its code, its reference entries and its version notes as directives, which a reader of
the source text would take for prose:
- a literal block (a paragraph ending in "::", or `.. code-block:: python`, `.. code::`, `.. doctest::`) and its
  indented body are code: fenced here, so what reads fences (code is no prose; a block that lists defaults is kept)
  reads them too. The paragraph before keeps one colon ("reading the result value:"), as the page shows it;
- an object's entry (`.. attribute:: Task.max_retries`, `.. setting:: zorb_timeout`, `.. confval::`, `.. option::`,
  `.. autoattribute:: itersize`, `.. automethod:: drain`: a method documented from its code, whose notes are its own)
  heads its description: the heading line is the object's name, without a class that qualifies it ("max_retries"
  of "Task.max_retries"), as a reference entry's heading names its keyword;
- a class documented from its code (`.. autoclass:: zorbq.FrobPool`) heads its entries as "class FrobPool";
- a version note (`.. versionadded:: 5.5`, `.. versionchanged:: 2.0`, `.. deprecated:: 3.1`) reads as the page
  renders it: "New in version 5.5.", "Changed in version 2.0.", "Deprecated since version 3.1.";
- a field of a described object (`:param int expire_time: Expire time in seconds, default is 86400.`) is an entry of
  its own: the field's name over its description; any other field (a document's ":Release: 3.3", ":Date: 2024-09-20")
  is a labelled line of its own, "Release: 3.3"; a line that is only a cross-reference (":ref:`Go back to index
  <top>`") is navigation, dropped; so are hyperlink targets (".. _name:") and comments;
- a simple table of two columns, keys and their descriptions (a configuration reference), is its entries: each key's
  line over its description's paragraph (a description's continuation lines and paragraphs joined); any other table
  stays for the table reader;
- a definition list written without blank lines between its items (the next term, "**span**", right under the
  last line of the description before) gets the blank line before each such term, as a list with blank lines
  already reads: the term heads its own entry, and the description before ends there. A term written wholly in
  strong or literal markup ("**span**", "``span``") is shown as its words, as the page shows it; a term that gives
  the kind of value it takes ("frob-limit: *<number>*") is shown as its key over its description, a key inside a
  template's substitution markers ("@@MAN@zorbd.conf@frob-limit@@") as the key;
- a list item that is only a key in literal markup or a role ("- :opt:`frobLimit`") over its indented description
  is that key's entry: the key over its description;
- a table directive stays for the table reader; an admonition (`.. note:: text`) is its text; any other directive
  line (`.. toctree::`, `.. image:: x.png`, `.. include:: x.rst`) and its options are markup, dropped.
Pure: lines in, lines out; a text with no directive and no literal paragraph comes back unchanged.
"""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?:(?P<domain>[\w-]+):)?(?P<name>[\w-]+)::(?:\s+(?P<arg>.*?))?\s*$")
_CODE = frozenset({"code-block", "code", "sourcecode", "doctest", "testcode", "testoutput", "parsed-literal",
                   "ipython", "literalinclude", "highlight", "prompt", "console"})
_TABLES = frozenset({"list-table", "csv-table", "table", "flat-table"})
_OBJECTS = frozenset({"attribute", "data", "setting", "confval", "envvar", "option", "cmdoption", "describe",
                      "object", "property", "signal", "autoattribute", "autodata", "autoproperty", "automethod",
                      "autofunction"})
_NOTES = {"versionadded": "New in version {}.", "versionchanged": "Changed in version {}.",
          "deprecated": "Deprecated since version {}.", "versionremoved": "Removed in version {}."}
_ADMONITIONS = frozenset({"note", "warning", "tip", "important", "hint", "caution", "attention", "danger", "error",
                          "seealso", "admonition", "topic", "sidebar", "rubric"})
_FIELD = re.compile(r"^(?P<indent>\s*):(?:param|parameter|arg|argument|key|keyword|kwarg|var|ivar|cvar)\s+"
                    r"(?:[\w.\[\], |]+\s+)?(?P<name>[A-Za-z_][\w]*):\s+(?P<text>\S.*)$")
# any other field of a field list, as a document's bibliographic fields write them (":Release: 3.3", ":Date:
# 2024-09-20", capitalised): a labelled line of its own (not a role, ":ref:`x`", nor a directive's option,
# ":header-rows: 1")
# (and a described object's own fields, ":default: 100M", ":type: int", in lower case too)
_DOC_FIELD = re.compile(r"^(?P<indent>\s*):(?P<name>[A-Za-z][\w -]{0,30}):(?!`)\s*(?P<text>\S.*)?$")
# a hyperlink target (".. _name:", ".. _name: https://...") or a comment (".. any text", "..") that no directive is
_COMMENT = re.compile(r"^\s*\.\.(?:\s+(?P<target>_[^:]*:(?:\s.*)?)|\s+(?!\S+::|\[)(?!_)\S.*|\s*)$")
# a line that is only a cross-reference to elsewhere ("Go back to index", "see :doc:`config`" aside)
_NAVIGATION = re.compile(r"\s*:(?:ref|doc):`[^`]+`\s*")
_LITERAL_END = re.compile(r"(?<!:)::\s*$")  # "value::" (a line of only "::" is a block with nothing before it)
_CLASS_QUALIFIER = re.compile(r"^(?:[A-Z][\w]*\.)+(?=[a-z_])")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _option(lines: list[str], start: int, end: int, name: str) -> str | None:
    """The value of a directive's option (":version: 1.4.0") among its lines, or None."""
    for line in lines[start + 1:end]:
        if (m := re.match(rf"^\s+:{name}:\s*(\S.*?)\s*$", line)) is not None:
            return m.group(1)
        if line.strip() and not re.match(r"^\s+:[\w-]+:", line):
            break
    return None


def _body_end(lines: list[str], start: int, indent: int) -> int:
    """The index after an indented body that starts after line `start`: blank lines and lines indented deeper
    than `indent`, up to the last such non-blank line."""
    end = start + 1
    j = start + 1
    while j < len(lines):
        if lines[j].strip():
            if _indent(lines[j]) <= indent:
                break
            end = j + 1
        j += 1
    return end


_SIMPLE_RULE = re.compile(r"^=+(?:\s+=+)+\s*$")
# a reference table's key: one token, as a setting's or an option's name is written ("``ZORB_TYPE``", "--frob")
_TABLE_KEY = re.compile(r"`{0,2}-{0,2}[A-Za-z_][\w.:-]*`{0,2}")


def _simple_table(lines: list[str], i: int) -> tuple[int, list[int]] | None:
    """The simple table whose top rule is line `i` ("=====  ====="): the index of its closing rule (the first rule
    with the same columns that a blank line or the end follows) and the indexes of its rules. Blank lines inside it
    are part of it (a cell's paragraphs); a line that writes in the space between two columns is no row of it."""
    starts = [m.start() for m in re.finditer(r"=+", lines[i])]
    ends = [m.end() for m in re.finditer(r"=+", lines[i])]
    rules = [i]
    for k in range(i + 1, min(len(lines), i + 2000)):
        line = lines[k]
        if _SIMPLE_RULE.match(line):
            if [m.start() for m in re.finditer(r"=+", line)] != starts:
                return None
            rules.append(k)
            if k + 1 >= len(lines) or not lines[k + 1].strip():
                return k, rules
            continue
        if line.strip() and any(line[e:s].strip() for e, s in zip(ends, starts[1:], strict=False)):
            return None
    return None


def _key_table(lines: list[str], i: int) -> tuple[int, list[str]] | None:
    """A two-column simple table of keys and their descriptions (a configuration reference: "``ZORB_KIND``" over
    "Which kind of store to open. ... Defaults to ..."), written as the entries a reader sees: the
    key's line over its description's paragraph. None for any other table (the table reader reads it)."""
    found = _simple_table(lines, i)
    if found is None or len(starts := [m.start() for m in re.finditer(r"=+", lines[i])]) != 2:
        return None
    end, rules = found
    body = rules[-2] + 1 if len(rules) >= 3 else i + 1  # (under a header, if the table has one)
    rows: list[tuple[str, list[str]]] = []
    for line in lines[body:end]:
        if _SIMPLE_RULE.match(line):
            continue
        key, text = line[:starts[1]].strip(), line[starts[1]:].strip()
        if key:
            rows.append((key, [text] if text else []))
        elif rows and text:
            rows[-1][1].append(text)
    # (keys written as code, "``frob_limit``", "ZORB_TYPE", "--frob"; descriptions in words, not a table of figures)
    if len(rows) < 2 or not all(_TABLE_KEY.fullmatch(k) and re.search(r"`|[_.-]|[a-z][A-Z]|^[A-Z0-9]+$", k)
                                for k, _ in rows) or \
            sum(len(" ".join(t).split()) >= 4 for _, t in rows) * 2 < len(rows):
        return None
    out: list[str] = []
    for key, said in rows:
        out += ["", key.strip("`"), "", " ".join(said), ""]
    return end + 1, out


# a definition list's term: a short line that no bullet, enumerator, field, directive or option opens, and no
# sentence ends ("**max_frobs**", "``span``", "back_in", "timeout : int")
_TERM = re.compile(r"^\s*(?![-*+•]\s|\d+[.)]\s|[#a-z][.)]\s|\(\w+\)\s|:|\.\.|--?\w)"
                   r"\S(?:[^.!?,;]{0,60}[^.!?,;:\s])?\s*$")


_MARKED_TERM = re.compile(r"^(\s*)(\*\*|``)([^*`\s](?:[^*`]{0,60}[^*`\s])?)\2\s*$")
# a term with the kind of value it takes ("frob-limit: *<number>*", "``frob_ttl`` *<seconds>*"), its key perhaps
# inside a template's substitution markers ("@@MAN@zorbd.conf@frob-limit@@", the last field its name): the page
# shows the key over its description
_TYPED_TERM = re.compile(r"^(?P<indent>\s*)(?:@@?(?:[\w.-]+@)*(?P<macro>[A-Za-z_][\w.:-]*)@@?|(?P<mark>\*\*|``)?"
                         r"(?P<key>[A-Za-z_][\w.:-]*[\w])(?P=mark)?)\s*(?::\s*|\s+)(?:\*<[^<>*]{1,40}>\*|<[^<>]{1,40}>)\s*$")


# a list item that is only a key in literal markup or a role ("- :opt:`frobLimit`", "* ``frob_limit``") over its
# indented description: the key over its description, as a definition list's entry
_KEY_ITEM = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?::[\w:-]+:)?`{1,2}(?P<key>[A-Za-z_][\w.:/-]*)`{1,2}\s*$")


def _run_on_term(lines: list[str], i: int) -> bool:
    """Whether line `i` is a definition list's term written right under the previous item's description: the line
    before is indented deeper than it, the line after (its own description) too."""
    if not 0 < i < len(lines) - 1 or not lines[i - 1].strip() or not lines[i + 1].strip():
        return False
    indent = _indent(lines[i])
    return _indent(lines[i - 1]) > indent and _indent(lines[i + 1]) > indent and len(lines[i].split()) <= 6 and \
        bool(_TERM.match(lines[i]))


def rst_blocks(lines: list[str]) -> list[str]:
    """`lines` with reStructuredText's code blocks fenced and its entries, notes and fields written as their page
    shows them (see the module's docstring)."""
    if not any(".." in ln or "::" in ln or ln.lstrip().startswith(":") or ln.startswith("==") for ln in lines):
        return lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _SIMPLE_RULE.match(line) and (table := _key_table(lines, i)) is not None:
            out += table[1]
            i = table[0]
            continue
        d = _DIRECTIVE.match(line)
        if d is None and _run_on_term(lines, i):
            out.append("")  # (the item before ends here)
        if d is None and (term := _MARKED_TERM.match(line)) is not None and i + 1 < len(lines) and \
                lines[i + 1].strip() and _indent(lines[i + 1]) > _indent(line):
            line = term.group(1) + term.group(3)
        if d is None and (keyed := _KEY_ITEM.match(line)) is not None and i + 1 < len(lines) and \
                lines[i + 1].strip() and _indent(lines[i + 1]) > _indent(line):
            out += ["", keyed.group("indent") + keyed.group("key"), ""]
            i += 1  # (its description, below it, is a paragraph of its own)
            continue
        if d is None and (typed := _TYPED_TERM.match(line)) is not None and i + 1 < len(lines) and \
                lines[i + 1].strip() and _indent(lines[i + 1]) > _indent(line):
            out += [typed.group("indent") + (typed.group("macro") or typed.group("key")), ""]
            i += 1  # (its description, below it, is a paragraph of its own)
            continue
        if d is not None:
            name, arg, indent = d.group("name").lower(), (d.group("arg") or "").strip(), _indent(line)
            end = _body_end(lines, i, indent)
            if name in _TABLES:
                out.append(line)  # a table directive is read with its rows (documents.table_rows)
                i += 1
                continue
            if name in _CODE:
                out += [f"{d.group('indent')}```", *lines[i + 1:end], f"{d.group('indent')}```"]
                i = end
                continue
            if name in _NOTES and arg:
                version, _, rest = arg.partition(" ")
                note = _NOTES[name].format(version)
                if rest or any(ln.strip() for ln in lines[i + 1:end]):
                    note = note[:-1] + ":"  # "Changed in version 3.3: added the frob parameter.", as Sphinx shows it
                out.append(d.group("indent") + note + (f" {rest}" if rest else ""))
            elif name in _OBJECTS and arg:
                # (an index target over a heading that names it already, ".. setting:: x" over "``x``", adds none)
                after = next((ln.strip().strip("`") for ln in lines[i + 1:i + 4] if ln.strip()), "")
                if after != arg:
                    # (without the kind of value it takes: "frob/size-max: <size B|K|M>" heads "frob/size-max")
                    name = re.sub(r"\s*:?\s*<[^<>]*>\s*$", "", arg.split("(")[0].strip())
                    out += [d.group("indent") + _CLASS_QUALIFIER.sub("", name), ""]
            elif name in ("autoclass", "autoexception") and arg:
                # "class NullFrobPool", as the page heads the class's own entries (no signature to read)
                out += [d.group("indent") + "class " + arg.split("(")[0].strip().rsplit(".", 1)[-1], ""]
            elif name == "changelog" and (version := _option(lines, i, end, "version")):
                # a change log's release (`.. changelog::` with ":version: 1.4.0", ":released: Sat Apr 26 2025"),
                # as the page heads it: the version over the day it was released
                released = _option(lines, i, end, "released") or _option(lines, i, end, "date")
                out += ["", d.group("indent") + version, "", *([d.group("indent") + f"Released: {released}", ""]
                                                               if released else [])]
                i += 1
                while i < len(lines) and re.match(r"^\s+:[\w-]+:", lines[i]):
                    i += 1
                continue
            elif name in _ADMONITIONS:
                if arg:
                    out.append(d.group("indent") + arg)
            elif name not in ("method", "function", "class", "exception", "classmethod", "staticmethod"):
                # any other directive: markup with its options (":maxdepth: 2"); its body stays when it is prose
                i += 1
                while i < len(lines) and re.match(r"^\s+:[\w-]+:", lines[i]):
                    i += 1
                continue
            else:
                out.append(line)  # a described function's signature stays as written
            i += 1
            continue
        if (f := _FIELD.match(line)) is not None:
            # (its indented continuation lines join the description)
            out += ["", f"{f.group('indent')}{f.group('name')}", "", f"{f.group('indent')}{f.group('text')}"]
            i += 1
            continue
        if (c := _COMMENT.match(line)) is not None:
            # a hyperlink target (".. _max-args-option:") or a comment (".. This file is auto-generated ...") and
            # its indented lines: markup, never shown
            i = _body_end(lines, i, _indent(line)) if not c.group("target") else i + 1
            continue
        if _NAVIGATION.fullmatch(line):
            i += 1  # ":ref:`Go back to index <top>`" alone: a link to elsewhere, not part of the entry it sits in
            continue
        if (f := _DOC_FIELD.match(line)) is not None and (
                f.group("name")[0].isupper() or i == 0 or not lines[i - 1].strip()):
            # (a field in lower case opens a field list, after a blank line: right under a directive it is the
            # directive's option, ":header-rows: 1", read with its directive)
            out += ["", f"{f.group('indent')}{f.group('name')}: {f.group('text') or ''}".rstrip(), ""]
            i += 1
            continue
        if _LITERAL_END.search(line) and line.strip() != "::" and i + 1 < len(lines) and not lines[i + 1].strip():
            end = _body_end(lines, i, _indent(line))
            if end > i + 1:
                # "reading the result value::" over an indented block: the paragraph keeps one colon, the block is code
                out += [line.rstrip()[:-1], f"{' ' * _indent(line)}```", *lines[i + 1:end], f"{' ' * _indent(line)}```"]
                i = end
                continue
        out.append(line)
        i += 1
    return out
