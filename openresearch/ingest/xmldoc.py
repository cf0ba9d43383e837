"""An XML documentation file (a module reference, DocBook, a site's XML sources) read as the Markdown the
plain-text reader understands, by the shape of its elements rather than a schema:

- an element holding prose (text beside or around inline elements) is a paragraph; a short element of plain
  words and no sentence ("<default>75s</default>") is a labelled line, "default: 75s";
- an element of other elements is a section, headed by its ``name`` or ``title`` attribute or its first
  ``title``/``name`` child ("<directive name=\"idle_timeout\">" is the heading "idle_timeout");
- code ("<example>", "<programlisting>", "<pre>") is fenced, list items are items, rows of cells are pipe rows.

The tag names listed below only add speed and polish (a heading, a fence); the shape decides. Entities a DTD
would define ("&nbsp;") are replaced by their HTML meaning; no DTD or external entity is ever loaded.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

from openresearch.errors import ParseError

_CODE = frozenset({"example", "programlisting", "screen", "pre", "literallayout", "highlight", "codeblock",
                   "verbatim", "source"})
_ITEM = frozenset({"li", "listitem", "item"})
_TITLE = frozenset({"title", "name", "h1", "h2", "h3", "h4", "h5", "h6", "head", "heading"})
_ROW = frozenset({"tr", "row"})
_NOTE = frozenset({"comment", "remark"})  # editorial comments are no text
_LABEL_CHARS = 100
_LABEL_WORDS = 6  # a field's value is a few words ("75s", "server config, virtual host"); more is prose
_ENTITY = re.compile(r"&([A-Za-z][\w.-]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_DOCTYPE = re.compile(r"<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>", re.S | re.I)


def _prose_elements(root: ET.Element) -> int:
    """How many elements hold a sentence of their own (six words or more beside their children)."""
    return sum(1 for el in root.iter() if isinstance(el.tag, str) and
               len(" ".join([el.text or "", *(c.tail or "" for c in el)]).split()) >= 6)


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _entity(m: re.Match[str]) -> str:
    name = m.group(1)
    if name in _XML_ENTITIES:
        return m.group(0)
    value = html.unescape(f"&{name};")
    return value.replace("&", "&amp;").replace("<", "&lt;") if value != f"&{name};" else " "


def parse_xml(text: str) -> ET.Element:
    """The root element; entities a DTD would define become what HTML means by them (else a space)."""
    body = _DOCTYPE.sub("", text, count=1)
    body = _ENTITY.sub(_entity, body)
    # the text is decoded already: its declaration's encoding no longer applies
    body = re.sub(r"\A\s*<\?xml[^>]*\?>", "", body)
    try:
        return ET.fromstring(body)
    except ET.ParseError as exc:
        raise ParseError(f"not well-formed XML ({exc})") from None


def _words(text: str) -> str:
    return " ".join(text.split())


def _inline(el: ET.Element) -> str:
    """An element's text with its inline children's; an empty element stands for its id or name ("<link
    id=\"port_in_redirect\"/>" reads "port_in_redirect")."""
    if not len(el) and not (el.text or "").strip():
        return el.get("id") or el.get("name") or ""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and _local(child.tag) not in _NOTE:
            parts.append(_inline(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _short_fields(el: ET.Element) -> bool:
    """An element of a few inline words only ("<syntax><value>number</value> <value>size</value></syntax>")."""
    return all(not len(c) for c in el) and len(_words(_inline(el))) <= _LABEL_CHARS


def _is_block(el: ET.Element) -> bool:
    """An element that is more than a few words inside a sentence: code, a list or a section of its own."""
    tag = _local(el.tag)
    if tag in _CODE or tag in _ITEM or tag in _ROW:
        return True
    return any(_is_block(c) for c in el) or (len(el) > 0 and not (el.text or "").strip() and
                                                all(not (c.tail or "").strip() for c in el) and
                                                sum(len(_inline(c)) for c in el) > 200)


def _mixed(el: ET.Element) -> bool:
    return bool((el.text or "").strip()) or any((c.tail or "").strip() for c in el)


def _heading_of(el: ET.Element) -> tuple[str | None, ET.Element | None]:
    named = el.get("name") or el.get("title")
    if named:
        return _words(named), None
    if version := el.get("version"):
        # an element for one release ("<release version=\"2.1\" date=\"2024-05-02\">"): the release's heading,
        # its date beside it as a change log writes one
        dated = el.get("date")
        return _words(f"{version} ({dated})" if dated else version), None
    first = next((c for c in el if isinstance(c.tag, str)), None)
    if first is not None and _local(first.tag) in _TITLE and not len(first):
        return _words(_inline(first)), first
    return None, None


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []

    def para(self, text: str, prefix: str = "") -> None:
        if text := _words(text):
            self.out += [prefix + text, ""]

    def code(self, text: str) -> None:
        if text.strip():
            self.out += ["```", text.strip("\n"), "```", ""]

    def block(self, el: ET.Element, depth: int) -> None:
        tag = _local(el.tag)
        if tag in _NOTE or not isinstance(el.tag, str):
            return
        if tag in _CODE:
            self.code("".join(el.itertext()))
            return
        if tag in _ROW:
            cells = [_words(_inline(c)).replace("|", "/") for c in el if isinstance(c.tag, str)]
            if any(cells):
                line = "| " + " | ".join(cells) + " |"
                if self.out and self.out[-1].startswith("|"):
                    self.out.append(line)  # the next row of the same table
                else:  # a table's first row is its header
                    self.out += ["", line, "|" + " --- |" * len(cells)]
            return
        if tag in _ITEM:
            self.para(_inline(el) if not any(_is_block(c) for c in el) else (el.text or ""), "- ")
            if any(_is_block(c) for c in el):
                self.children(el, depth)
            return
        if not len(el) or (not any(_is_block(c) for c in el) and (_mixed(el) or _short_fields(el))):
            if len(el) > 1 and not _mixed(el) and len({c.tag for c in el}) == 1:
                text = ", ".join(_words(_inline(c)) for c in el)  # "<context>server config</context><context>..."
            else:
                text = _words(_inline(el))
            if tag in _TITLE:
                self.para(text, "#" * min(depth, 6) + " ")
            elif text and len(text) <= _LABEL_CHARS and len(text.split()) <= _LABEL_WORDS and \
                    not re.search(r"[.!?:;]$", text):
                self.out += [f"{tag}: {text}", ""]  # "default: 75s", a field of the section above
            else:
                self.para(text)
            return
        if _mixed(el):  # prose around a block (a paragraph holding an example): in order, each in its place
            buf = [el.text or ""]
            for child in el:
                if _is_block(child):
                    self.para("".join(buf))
                    buf = []
                    self.block(child, depth)
                else:
                    buf.append(_inline(child))
                buf.append(child.tail or "")
            self.para("".join(buf))
            return
        heading, skip = _heading_of(el)
        if heading:
            self.out += ["#" * min(depth, 6) + " " + heading, ""]
        self.children(el, depth + 1, skip)

    def children(self, el: ET.Element, depth: int, skip: ET.Element | None = None) -> None:
        for child in el:
            if child is not skip:
                self.block(child, depth)


def xml_to_markdown(text: str) -> tuple[str | None, str]:
    """(title, Markdown body) of an XML document; ParseError when it is not well-formed or holds no prose."""
    root = parse_xml(text)
    if _prose_elements(root) < 3:
        raise ParseError("an XML file without prose to read (a build, data or configuration file)")
    title, _ = _heading_of(root)
    w = _Writer()
    try:
        w.block(root, 1)
    except RecursionError:
        raise ParseError("XML nested too deeply to read") from None
    return title, "\n".join(w.out)
