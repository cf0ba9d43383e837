"""Reference documents read by their structure, whatever the product: files whose names do not say what they
are, XML module references, plain-text keyword references (a term over an indented description) and change
logs whose entries sit on consecutive indented lines. The names are made up."""

from __future__ import annotations

from pathlib import Path

import pytest

from openresearch.agents.extract.definitions import defined_term, keyword, term_metric
from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.errors import NotADocument, ParseError
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import may_be_document, normalise_plain, parse_file, reader_for
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.walk import expand
from openresearch.ingest.xmldoc import xml_to_markdown

REFERENCE = """Quollgate Configuration Manual
------------------------------

This document covers the configuration language of Quollgate 4.2, a proxy that Quollgate users run in front of
their services. Quollgate reads one file.

3.2. Performance tuning

tune.bufsize <size>
  Sets the buffer size to this size (in bytes). Lower values allow more
  streams to coexist in the same amount of RAM. The default value is 16384 and
  can be changed at build time.

tune.buffers.reserve <number>
  Sets the number of per-thread buffers which are pre-allocated. The minimum
  value is 0 and the default is 4.

timeout tunnel <timeout>
  Set the maximum inactivity time on the client and server side for tunnels.
  This time is expressed in seconds and defaults to 3600 (1 hour).

3.3. Debugging

The debugger answers within 5 ms on a quiet machine.
"""


def _read(path: Path, question: str | None = None) -> list[tuple[str, str, str, str | None, str]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return [(o.entity, o.metric, str(o.value), o.unit, o.condition or "") for u in doc.units for o in u.observations]


def test_a_term_over_an_indented_description_is_what_its_figures_are_of(tmp_path: Path) -> None:
    text = normalise_plain(REFERENCE)
    assert "\n\ntune.bufsize <size>\n\nSets the buffer size" in text  # the term stands alone, as a heading
    assert defined_term(text, text.find("The default value is 16384")) == "tune.bufsize"
    assert defined_term(text, text.find("defaults to 3600")) == "timeout tunnel"
    assert defined_term(text, text.find("The debugger answers")) is None  # a heading of words ends the entry
    (tmp_path / "quollgate__configuration.txt").write_text(REFERENCE)
    got = _read(tmp_path / "quollgate__configuration.txt", "What are Quollgate's default buffer settings?")
    by_metric = {(m, v): (u, c) for _, m, v, u, c in got}
    assert by_metric[("tune_bufsize", "16384")] == ("bytes", "default")  # the unit the entry states
    assert by_metric[("tune_buffers_reserve", "4")][1] == "default"
    assert by_metric[("tune_buffers_reserve", "0")][1] == "minimum"
    assert ("timeout_tunnel", "3600") in by_metric
    assert not any(m in ("value", "default", "min_value") for _, m, _, _, _ in got)


def test_keywords_of_terms_and_options() -> None:
    assert keyword("tune.bufsize <size>") == "tune.bufsize"
    assert keyword("timeout client <timeout>") == "timeout client"
    assert keyword("--max-depth=n") == "--max-depth"
    assert keyword("-t, --threads N") == "--threads"
    assert [term_metric(t) for t in ("tune.bufsize", "KeepAliveTimeout", "--max-depth", "timeout client")] == [
        "tune_bufsize", "keep_alive_timeout", "max_depth", "timeout_client"]
    text = "Options\n\n--max-depth=n: Sets the maximum depth (default 250)."
    assert defined_term(text, text.find("Sets")) == "--max-depth"


def test_indented_change_log_entries_are_one_unit_each() -> None:
    log = """ChangeLog :
===========

2026/08/21 : 3.5-dev5
    - MINOR: config: support "all" and "none" on a purge setting
    - BUG/MEDIUM: hpack: encode long methods using the long form
    - MEDIUM: cache: raise the default object size to 64 kB

2026/07/08 : 3.5-dev2
    - MAJOR: proxy: remove support for two proxy keywords
"""
    text = normalise_plain(log)
    assert "\n\nBUG/MEDIUM: hpack: encode long methods using the long form\n\n" in text
    assert "2026/08/21 : 3.5-dev5\n\nMINOR" in text
    # a nested Markdown list item stays an item of its own as well
    assert normalise_plain("- top\n    - nested item here\n") == "top\n\nnested item here"


XML_MODULE = """<?xml version="1.0"?>
<!DOCTYPE module SYSTEM "../dtd/module.dtd">
<module name="Module quoll_core_module" lang="en">
<section id="directives" name="Directives">
<directive name="keepalive_timeout">
<syntax><value>timeout</value> [<value>header_timeout</value>]</syntax>
<default>75s</default>
<context>http</context>
<context>server</context>
<para>
The first parameter sets a timeout during which a keep-alive client connection
will stay open on the server side. The zero value disables keep-alive client
connections, as <link id="keepalive_requests"/> does&nbsp;too.
</para>
<para>
An example of a configuration that Quollgate reads:
<example>
keepalive_timeout 65s;
</example>
Quollgate closes idle connections after this time.
</para>
</directive>
<directive name="client_body_buffer_size">
<syntax><value>size</value></syntax>
<default>8k</default>
<para>
Sets the buffer size for reading the client request body. The Quollgate server
writes a larger body to a temporary file, which Quollgate 1.4.2 removes later.
</para>
</directive>
</section>
</module>
"""


def test_an_xml_reference_reads_as_headings_fields_paragraphs_and_code(tmp_path: Path) -> None:
    title, md = xml_to_markdown(XML_MODULE)
    assert title == "Module quoll_core_module"
    assert "### keepalive_timeout" in md and "default: 75s" in md
    assert "syntax: timeout [header_timeout]" in md
    assert "as keepalive_requests does too." in md  # an empty link reads its id; "&nbsp;" is a space
    assert "```\nkeepalive_timeout 65s;\n```" in md  # code in a paragraph is fenced, the prose around it kept
    assert "Quollgate closes idle connections after this time." in md
    path = tmp_path / "quollgate.org__quoll_core_module.xml"
    path.write_text(XML_MODULE)
    got = _read(path, "What are Quollgate's default timeouts?")
    assert ("Quollgate", "keepalive_timeout", "75", "s", "default") in got, got
    assert any(m == "client_body_buffer_size" and v == "8k" for _, m, v, _, _ in got), got
    # a build file is no document; broken XML is a clear error
    (tmp_path / "pom.xml").write_text("<project><modelVersion>4.0.0</modelVersion><artifactId>x</artifactId>"
                                      "</project>")
    with pytest.raises(ParseError, match="without prose"):
        parse_file(tmp_path / "pom.xml")
    with pytest.raises(ParseError, match="well-formed"):
        xml_to_markdown("<a><p>" + "words of a sentence here. " * 5 + "</a>")


def test_a_name_whose_last_dot_is_no_file_type_is_read_by_its_content(tmp_path: Path) -> None:
    prose = "Changes with quollgate 1.31.3                                  15 Jul 2026\n\n" \
            "    *) Feature: the buffer of the quollgate module is now 64 kB by default.\n\n" \
            "    *) Bugfix: quollgate might crash when the upstream closes the connection early.\n"
    for name in ("quollgate.org__text_en_CHANGES", "quollgate1.4__NEWS", "NEWS", "CHANGES-1.10"):
        (tmp_path / name).write_text(prose)
    (tmp_path / "guide.mt").write_text("? my $ctx = $main::context;\n" + "<p>A paragraph of the guide.</p>\n" * 3 +
                                       "<h2>Limits</h2>\n<ul><li>one</li><li>two</li></ul>\n")
    (tmp_path / "build.conf").write_text("CC = gcc\nCFLAGS = -O2\n\t$(CC) -o x x.c\n")
    (tmp_path / "main.py").write_text("print('hello world, this is a long enough line of text')\n" * 5)
    assert reader_for(tmp_path / "main.py") is None and not may_be_document(tmp_path / "main.py")
    assert reader_for(tmp_path / "quollgate1.4__NEWS") == "sniff"
    found = expand(tmp_path, may_be_document)
    names = {p.name for p in found.files}
    assert "main.py" not in names and {"quollgate.org__text_en_CHANGES", "guide.mt", "build.conf"} <= names
    for name in ("quollgate.org__text_en_CHANGES", "quollgate1.4__NEWS", "NEWS", "CHANGES-1.10"):
        doc = parse_file(tmp_path / name)
        assert "Feature: the buffer of the quollgate module" in doc.text
    assert "A paragraph of the guide." in parse_file(tmp_path / "guide.mt").text
    with pytest.raises(NotADocument):
        parse_file(tmp_path / "build.conf")
    # the address names the lower-case product its text writes with a version: the figures are its own
    got = _read(tmp_path / "quollgate.org__text_en_CHANGES")
    assert got and {e for e, *_ in got} == {"quollgate"}, got


BANNERED = """# Quillparse benchmarks

Results on one machine.

```
                                DOM                STRUCT
======= quill_json ======= parse|stringify ===== parse|stringify ====
data/canada.json         320 MB/s   430 MB/s   580 MB/s   310 MB/s
data/twitter.json        300 MB/s   910 MB/s   550 MB/s  1060 MB/s

==== frob_serialize ====== parse|stringify ===== parse|stringify ====
data/twitter.json        120 MB/s   330 MB/s    87 MB/s   350 MB/s

==== zorbjson-clang ===================== parse|stringify ====
data/twitter.json                        320 MB/s   600 MB/s

===== zorbjson-gcc ====================== parse|stringify ====
data/twitter.json                        440 MB/s   870 MB/s
```
"""


def test_a_banner_names_what_ran_and_its_columns_what_each_figure_is(tmp_path: Path) -> None:
    (tmp_path / "quillparse__README.md").write_text(BANNERED)
    got = set(_read(tmp_path / "quillparse__README.md"))
    assert ("quill_json", "parse", "300", "MB/s", "twitter.json, DOM") in got
    assert ("quill_json", "stringify", "1060", "MB/s", "twitter.json, STRUCT") in got
    # the groups of the banner above in the same output hold for a banner with as many columns
    assert ("frob_serialize", "parse", "87", "MB/s", "twitter.json, STRUCT") in got
    # two banners of one program built two ways: the program ran, the build is a condition
    assert ("zorbjson", "stringify", "870", "MB/s", "twitter.json, gcc") in got
    assert ("zorbjson", "parse", "320", "MB/s", "twitter.json, clang") in got


def test_hostile_xml_is_a_clear_error_or_harmless_text() -> None:
    laughs = ('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
              '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><d>' +
              "<p>&c; is what the entity expands to in this sentence.</p>" * 3 + "</d>")
    _, md = xml_to_markdown(laughs)  # no DTD is read: its entities expand to nothing
    assert "aaaa" not in md and "is what the entity expands to" in md
    with pytest.raises(ParseError, match="nested too deeply"):
        xml_to_markdown("<a>" * 20000 + "<p>a sentence of six words or more here.</p>" * 3 + "</a>" * 20000)
    latin = ('<?xml version="1.0" encoding="ISO-8859-1"?><d><p>Café is the word in this sentence of words.</p>'
             "<p>A second sentence of six words or more.</p><p>And a third sentence of six words.</p></d>")
    assert "Café is the word" in xml_to_markdown(latin)[1]  # decoded once, never twice
