"""`openresearch llm check`: what the configured OpenAI-compatible endpoint supports, one answer per role."""

from __future__ import annotations

from typing import Annotated

import typer

from openresearch.commands.common import JsonOpt, print_json, settings

app = typer.Typer(help="The LLM endpoint (OPENRESEARCH_LLM_BASE_URL): check what it supports.", no_args_is_help=True)


@app.command("check")
def check_cmd(
    roles: Annotated[bool, typer.Option("--roles/--no-roles", help="Also ask each role one sample question.")] = True,
    as_json: JsonOpt = False,
) -> None:
    """Probe JSON schema / JSON object / prompt-only output, then one sample answer per role.

    Example: openresearch llm check   (with OPENRESEARCH_LLM_BASE_URL=http://127.0.0.1:8080/v1 set)
    """
    from openresearch.agents.llm.check import check, render_report
    from openresearch.agents.llm.client import LLMClient
    from openresearch.agents.verify.judge_choice import choose

    client = LLMClient.from_settings(settings(), max_retries=0)
    if client is None:
        typer.echo("no LLM configured: set OPENRESEARCH_LLM_BASE_URL (and OPENRESEARCH_LLM_API_KEY for a hosted "
                   "endpoint); runs use the deterministic pipeline", err=True)
        raise typer.Exit(1)
    with client:
        report = check(client, roles=roles)
        report.judge = choose(settings(), client)[1]
    if as_json:
        print_json(report)
    else:
        for line in render_report(report):
            typer.echo(line)
    if not report.usable:
        typer.echo(f"the LLM path cannot be used: {client.unusable_reason() or 'no structured answer came back'}",
                   err=True)
        raise typer.Exit(1)
