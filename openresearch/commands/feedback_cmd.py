"""`openresearch feedback`: accept or dispute an evidence item or a source (a dispute lowers its trust)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from openresearch.commands.common import GraphOpt, JsonOpt, console, invalid_options, print_json, store
from openresearch.errors import InputError


def target_kind(target_id: str) -> Literal["evidence", "source"]:
    """E-… is an evidence item, S-… a source."""
    if target_id.startswith("E-"):
        return "evidence"
    if target_id.startswith("S-"):
        return "source"
    raise InputError(f"{target_id!r} is neither an evidence id (E-…) nor a source id (S-…)")


def feedback(
    target_id: Annotated[str, typer.Argument(help="An evidence id (E-…) or a source id (S-…).")],
    verdict: Annotated[str, typer.Argument(help="accept or dispute.")],
    note: Annotated[str, typer.Option("--note", "-n", help="Why.")] = "",
    author: Annotated[str, typer.Option(help="Who gives the feedback.")] = "cli",
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Accept or dispute an evidence item or a source; stored in the graph with who and when.

    A dispute lowers the trust of the source (of the item's source), which evidence ranking and conflict
    credibility read; an accept cancels one dispute but never raises trust above its base.

    Example: openresearch feedback E-1a2b3c4d5e6f dispute --note "the benchmark used one broker"
    """
    from pydantic import ValidationError

    from openresearch.graph.judgements import FeedbackIn

    if verdict not in ("accept", "dispute"):
        raise InputError(f"verdict must be accept or dispute, not {verdict!r}")
    try:
        body = FeedbackIn(target=target_kind(target_id), target_id=target_id, verdict=verdict,  # type: ignore[arg-type]
                          note=note, author=author)
    except ValidationError as e:
        raise invalid_options(e) from None
    with store(graph, writes=True) as st:
        fb = st.record_feedback(body)
    if json_out:
        print_json(fb)
        return
    console.print(f"{fb.id}: {fb.verdict} on {fb.target} {fb.target_id}; source {fb.source_id} trust now "
                  f"{fb.source_trust:.2f}")
