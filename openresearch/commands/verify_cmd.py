"""`openresearch verify-claims`: label claim/evidence pairs from a JSONL file with the claim judge."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from pydantic import BaseModel, Field

from openresearch.agents.verify.judge import EmbeddingJudge, Judge
from openresearch.agents.verify.verifier import BatchJudge
from openresearch.commands.common import JsonOpt, err_console, print_json, settings
from openresearch.errors import InputError


class ClaimsReport(BaseModel):
    lines: int = 0
    judged: int = 0
    malformed: int = 0
    errors: list[str] = Field(default_factory=list)
    labels: dict[str, int] = Field(default_factory=dict)
    judge: str = ""


def _evidence_text(value: Any) -> str | None:
    """A string, or a list of sentences (joined): the shape COVID-Fact-style files use."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return " ".join(v.strip() for v in value).strip() or None
    return None


def parse_lines(lines: Iterable[str]) -> tuple[list[tuple[int, dict[str, Any], str, str]], list[str], int]:
    """(line number, row, claim, evidence) for valid lines; `line N: …` for malformed ones; lines read.

    Blank lines are skipped silently, like the evidence importer does."""
    rows: list[tuple[int, dict[str, Any], str, str]] = []
    errors: list[str] = []
    n = 0
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        bad = getattr(line, "error", None)  # a line evidence_io.decoded_lines could not decode
        if bad is not None:
            errors.append(str(bad))
            continue
        try:
            row = json.loads(line, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            errors.append(f"line {n}: not JSON: {exc.msg}")
            continue
        except RecursionError:
            errors.append(f"line {n}: not JSON: nested too deeply")
            continue
        except ValueError as exc:  # NaN/Infinity, or an integer of more than 4,300 digits
            errors.append(f"line {n}: not JSON: {str(exc).split(';')[0]}")
            continue
        if not isinstance(row, dict):
            errors.append(f"line {n}: expected a JSON object")
            continue
        claim = row.get("claim")
        evidence = _evidence_text(row.get("evidence"))
        if not isinstance(claim, str) or not claim.strip():
            errors.append(f"line {n}: missing or empty 'claim'")
        elif evidence is None:
            errors.append(f"line {n}: 'evidence' must be a non-empty string or list of strings")
        else:
            rows.append((n, row, claim.strip(), evidence))
    return rows, errors, n


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON value")


def _score(value: float) -> float | None:
    """A judge's score, or None when it is not a number (JSON has no NaN)."""
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def judge_rows(judge: Judge, rows: list[tuple[int, dict[str, Any], str, str]]) -> list[dict[str, Any]]:
    pairs = [(claim, evidence) for _, _, claim, evidence in rows]
    results = judge.judge_many(pairs) if isinstance(judge, BatchJudge) else [judge.judge(c, e) for c, e in pairs]
    return [{**row, "label": r.label, "score": _score(r.score)}
            for (_, row, _, _), r in zip(rows, results, strict=True)]


def make_judge(offline: bool) -> tuple[Judge, str]:
    """The embedding judge offline; the VERIFY-role LLM (falling back to it) when one is configured."""
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    s = settings()
    embedding = EmbeddingJudge(SentenceTransformerEmbedder(s.embedding_model, cache_dir=s.cache_dir / "embeddings"))
    if offline:
        return embedding, "embedding"
    from openresearch.agents.llm.client import LLMClient
    from openresearch.agents.verify.judge import LLMJudge
    from openresearch.agents.verify.judge_choice import choose

    client = LLMClient.from_settings(s)
    if client is None:
        return embedding, "embedding"
    use, why = choose(s, client)
    if not use:
        err_console.print(f"claim judge: {why}")
        return embedding, "embedding"
    return LLMJudge(client, embedding), "llm"


def _write(out_fh: IO[str], results: list[dict[str, Any]]) -> None:
    for r in results:
        out_fh.write(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n")


def verify_claims(
    file: Annotated[Path, typer.Argument(help="JSONL file of {\"claim\": …, \"evidence\": …} lines ('-' for stdin).")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write labelled JSONL here; default stdout.")] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Use the embedding judge even if an LLM is set.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Label each claim against its evidence: SUPPORTS, REFUTES or NOT_ENOUGH_INFO, with a score.

    Each output line is the input object plus "label" and "score". Malformed lines are reported by line
    number and skipped (exit status 2). With --json the summary (counts, errors) is JSON: on stdout
    when --out is given, on stderr otherwise. Offline (or with no LLM configured) the sentence-embedding judge
    decides; otherwise the VERIFY-role model, falling back to the embedding judge when it fails.

    Example: openresearch verify-claims claims.jsonl
    """
    from openresearch.ingest.evidence_io import decoded_lines
    from openresearch.output_dir import check_out_file, open_new_file

    target = check_out_file(out) if out is not None else None  # before any work
    if str(file) == "-":
        rows, errors, n = parse_lines(decoded_lines(sys.stdin.buffer))
    else:
        try:
            raw = file.open("rb")
        except OSError as exc:
            raise InputError(f"cannot read {file}: {exc.strerror}") from None
        with raw:
            rows, errors, n = parse_lines(decoded_lines(raw))  # UTF-8 (BOM or not) or UTF-16, per-line errors
    judge, kind = make_judge(offline)
    results = judge_rows(judge, rows) if rows else []
    report = ClaimsReport(lines=n, judged=len(results), malformed=len(errors), errors=errors,
                          labels=dict(Counter(r["label"] for r in results)), judge=kind)
    if target is None:
        _write(sys.stdout, results)
    else:
        with open_new_file(target.parent, target.name) as fh:
            _write(fh, results)
    for err in errors:
        err_console.print(f"[yellow]skipped[/yellow] {err}")
    if json_out and out is not None:
        print_json(report)
    elif json_out:  # stdout carries the labelled lines: the summary goes to stderr
        typer.echo(report.model_dump_json(), err=True)
    else:
        summary = f"{report.lines} lines: {report.judged} judged ({kind}), {report.malformed} malformed"
        err_console.print(summary + (" " + json.dumps(report.labels) if report.labels else ""))
    if errors:
        raise typer.Exit(2)
