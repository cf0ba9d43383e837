from __future__ import annotations

import codecs

from openresearch.ingest.encoding import decode_bytes, normalize_label

ZH = "图数据库是增长最快的细分领域，全年市场规模约为十二亿元，同比增长百分之四十一。镕"  # 镕 is GBK-only


def test_gbk_bytes_with_gb2312_meta_decode_as_gb18030() -> None:
    page = f'<html><head><meta charset="gb2312"></head><body><p>{ZH}</p></body></html>'
    decoded = decode_bytes(page.encode("gbk"))
    assert decoded.encoding == "gb18030"
    assert decoded.method == "meta"
    assert ZH in decoded.text


def test_http_equiv_meta_is_read() -> None:
    page = f'<meta http-equiv="Content-Type" content="text/html; charset=GBK"><p>{ZH}</p>'
    assert decode_bytes(page.encode("gbk")).text.endswith(f"{ZH}</p>")


def test_header_beats_meta_and_bom_beats_header() -> None:
    page = f'<meta charset="iso-8859-1"><p>{ZH}</p>'.encode("gbk")
    assert decode_bytes(page, "text/html; charset=gbk").method == "header"
    with_bom = codecs.BOM_UTF8 + "<p>naïve</p>".encode()
    decoded = decode_bytes(with_bom, "text/html; charset=iso-8859-1")
    assert (decoded.method, decoded.text) == ("bom", "<p>naïve</p>")


def test_undeclared_chinese_is_detected() -> None:
    body = ("<p>" + ZH * 3 + "</p>").encode("gbk")
    decoded = decode_bytes(body)
    assert decoded.method == "detected"
    assert ZH in decoded.text


def test_undeclared_utf8_and_cp1252() -> None:
    assert decode_bytes("<p>Zürich – “quoted”</p>".encode()).encoding == "utf-8"
    decoded = decode_bytes("<p>café “quoted” – naïve</p>".encode("cp1252"))
    assert decoded.text == "<p>café “quoted” – naïve</p>"


def test_latin1_label_reads_cp1252_punctuation_and_never_fails() -> None:
    decoded = decode_bytes(b"\x93smart\x94 \x81", "text/html; charset=ISO-8859-1")
    assert decoded.text == "“smart” \x81"  # 0x81 is undefined in cp1252; kept as its Latin-1 control


def test_wrong_declared_charset_falls_through() -> None:
    # Declared UTF-8 but served as GBK: a strict decode fails, so detection takes over.
    decoded = decode_bytes(("<p>" + ZH * 3 + "</p>").encode("gbk"), "text/html; charset=utf-8")
    assert ZH in decoded.text


def test_labels() -> None:
    assert normalize_label("GB2312") == "gb18030"
    assert normalize_label("x-gbk") == "gb18030"
    assert normalize_label("latin1") == "cp1252"
    assert normalize_label("UTF8") == "utf-8"
    assert normalize_label("no-such-charset") is None
