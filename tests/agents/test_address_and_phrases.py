"""What a source's address says it is about, and what a clause says its value is of. Names are made up: no list
of the package knows "quillbase" or "Brantex"."""

from __future__ import annotations

from openresearch.agents.extract.address_name import address_subject, address_words
from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.subjects import subject_phrase
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder

FAQ = """# FAQ

## How fast is it?

QuillBase parses documents with SIMD instructions. QuillBase keeps one allocation per document, and the
QuillBase tree is read-only once built.

## How much memory does it use?

Each node uses 16 bytes on 64-bit machines.
"""


def test_address_words_are_host_labels_and_path_segments_without_furniture() -> None:
    words = address_words("https://github.com/acme/quill-base/blob/main/doc/faq.md")
    assert "quill-base" in words and "quill" in words and "acme" in words
    assert not {"github", "blob", "main", "doc", "md"} & {w.lower() for w in words}
    # a local file: its name, not the folders a user keeps it in
    assert address_words("file:///home/me/json-notes/acme__quillbase__faq.md") == ["acme", "quillbase", "faq"]


def test_the_text_decides_which_address_word_is_the_name() -> None:
    assert address_subject("file:///d/acme__quillbase__doc_faq.md", FAQ) == ("QuillBase", 3)
    # an ordinary word takes endings ("documents"): never a name however often it is written
    assert address_subject("file:///d/documents.md", "Documents. The Document was read. A Document.") is None
    # a lower-case name counts where the text uses it as code does a name
    code = "Install with `pip install quillbase`. Then quillbase.load(x) reads it; quillbase.dump(y) writes it."
    assert address_subject("https://example.org/quillbase/intro", code) == ("quillbase", 3)
    assert address_subject("https://example.org/quillbase/intro", "The quillbase is a quillbase, a quillbase.") is None


def test_a_document_that_names_its_product_only_in_its_address_and_text_gets_it_as_subject() -> None:
    src = parse_bytes(FAQ.encode(), kind="text", url="file:///d/acme__quillbase__doc_faq.md", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src)
    got = {(o.entity, o.metric, str(o.value)) for u in doc.units for o in u.observations}
    assert any(e == "QuillBase" and v == "16" for e, _, v in got), got


def test_a_clause_names_what_its_percentage_or_size_is_of() -> None:
    s = "In practice, the extra memory introduced by keeping the input buffer is usually 20% of decoded objects."
    assert subject_phrase(s, s.index("20%")) == "extra memory"
    (o,) = observations(s, [], set(), context_entity="Brantex")
    assert (o.entity, o.metric, o.value) == ("Brantex", "extra_memory", "20")
    s = "The default page size is now 16KB."
    (o,) = observations(s, [], set(), context_entity="Brantex")
    assert o.metric == "page_size"
    # a name, a pronoun or the document's own product as subject says whose value it is, not what it measures
    for s in ("Brantex is 30% smaller.", "It reaches 95% of the peak.", "Our library covers 100% of the code.",
              "The benchmarks above aren't 100% fair to Brantex."):
        assert subject_phrase(s, s.index("%") - 2) is None, s


def test_as_fast_as_is_a_speedup_against_its_baseline() -> None:
    s = "Brantex serializes arrays 4-12x as fast as Quillo with 0.3x the memory usage of other libraries."
    got = {(o.metric, o.value, o.condition) for o in observations(s, [], set(), context_entity="Brantex")}
    assert ("speedup", "4-12", "vs Quillo") in got
    assert ("memory_ratio", "0.3", None) in got


def test_a_span_stated_of_its_subject_takes_it_as_metric_but_not_a_span_deeper_down() -> None:
    s = "Development cycles are reduced to six weeks from the current twelve."
    got = {(o.metric, o.value) for o in observations(s, [], set(), context_entity="Brantex")}
    assert ("development_cycle", "six weeks") in got
    # the value belongs to the phase, not to the cycle the sentence is about
    s = "Each release cycle is broken down into a development phase lasting about 4 months."
    assert subject_phrase(s, s.index("4 months")) is None


def test_a_two_letter_name_the_address_capitalises_counts_when_the_text_writes_it_so() -> None:
    text = ("The Qx team plans each release. Every Qx release gets support, and the Qx tools follow. " * 3 +
            "We are going to ship; it goes well. Google hosts the Qx site.")
    assert address_subject("file:///d/qx__wiki__Qx-Release-Cycle.md", text) == ("Qx", 10)
    assert address_subject("file:///d/qx__wiki__qx-release-cycle.md", text) is None  # "qx" is no capitalised name


def test_the_last_of_a_list_of_names_shares_its_de_and_the_standard_library_is_its_apposition() -> None:
    from openresearch.agents.extract.extractor import abbreviates, appositions
    from openresearch.agents.plan.analysis import Analyzer

    q = "在 Zed 语言中，frobz、quux-lib（quux）和标准库 zed/json 的 JSON 编码、解码性能分别是多少？"
    assert Analyzer().analyse(q).entities == ["frobz", "quux-lib", "zed/json"]
    assert Analyzer().analyse("Quux 的 Frobz 性能如何？").entities == ["Frobz"]  # an owner alone still qualifies
    assert appositions(q, {"frobz", "zed/json"}) == {"standard library": "zed/json"}
    assert appositions("How fast is the standard library zed/json?", {"zed/json"}) == {"standard library": "zed/json"}
    assert appositions("How fast is zed/json?", {"zed/json"}) == {}
    # a label segment that shortens the descriptor word by word names the entity ("StdLib", "DefCodec")
    assert abbreviates("StdLib", "standard library") and abbreviates("DefCodec", "default codec")
    assert not abbreviates("Encoder", "standard library") and not abbreviates("SetOne", "standard library")


def test_an_adverb_before_every_does_not_name_the_interval() -> None:
    from openresearch.agents.extract.observations import observations

    got = observations("Feature versions of Zorbly are released predictably every twelve months.", [], set(), "Zorbly")
    assert [(o.metric, o.value) for o in got] == [("release_interval", "twelve months")]
