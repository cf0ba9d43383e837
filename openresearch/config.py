"""One Settings object, the only place that reads the environment (prefix OPENRESEARCH_)."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from openresearch.errors import ConfigError


def default_data_dir() -> Path:
    return Path.home() / ".openresearch"


def split_list(value: object) -> object:
    """A list setting as users write it: a JSON list, `a,b`, `a:b` (os.pathsep) or one value. Pure."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            return json.loads(text)
        except ValueError:
            raise ValueError(f"{text[:80]!r} is not a JSON list") from None
    seps = [","] if "://" in text else [",", os.pathsep]  # a URL's own colon is no separator
    parts = [text]
    for sep in seps:
        parts = [p for part in parts for p in part.split(sep)]
    return [p.strip() for p in parts if p.strip()]


def one_line(exc: ValidationError) -> str:
    """A settings validation error as one line naming each bad variable."""
    bad = []
    for e in exc.errors():
        name = "OPENRESEARCH_" + str(e["loc"][0]).upper() if e.get("loc") else "a setting"
        bad.append(f"{name}: {e.get('msg', 'invalid')}")
    return "bad setting " + "; ".join(dict.fromkeys(bad))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="OPENRESEARCH_", env_file=".env", extra="ignore")

    # --- graph -------------------------------------------------------------------------------------
    data_dir: Path = Field(default_factory=default_data_dir,
                           description="Where the embedded FalkorDB keeps its data, lock and socket.")
    graph_url: str | None = Field(
        default=None,
        description="bolt://, neo4j://, neo4j+s:// for Neo4j; falkordb://host:port or unix:///path.sock for an "
        "external FalkorDB; empty = the embedded FalkorDB server under data_dir.")
    graph_user: str = "neo4j"
    graph_password: SecretStr | None = None
    graph_database: str = Field(default="neo4j", description="Neo4j database name.")
    graph_name: str = Field(default="openresearch", description="FalkorDB graph key.")
    batch_size: int = 2000
    conflict_tolerance: float = Field(default=0.05, description="Relative difference above which values conflict.")
    aliases_file: Path | None = Field(default=None, description="JSON {canonical: [alias, ...]} merged with built-ins.")
    # local Neo4j built from Maven artifacts (openresearch neo4j start)
    neo4j_home: Path | None = None
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474

    # --- ingest ------------------------------------------------------------------------------------
    user_agent: str = "OpenResearch/0.1 (+https://github.com/openresearch/openresearch; research@example.org)"
    contact_email: str = "research@example.org"
    searxng_url: str | None = None
    searxng_engines: str = ""
    searxng_categories: str = "general"
    searxng_language: str = "auto"
    arxiv_url: str = "https://export.arxiv.org/api/query"
    semantic_scholar_url: str = "https://api.semanticscholar.org/graph/v1"
    semantic_scholar_key: SecretStr | None = None
    openalex_url: str = "https://api.openalex.org"
    openalex_key: SecretStr | None = None
    wikipedia_url: str = "https://en.wikipedia.org/w/api.php"
    # first-hand data APIs: --source github:OWNER/REPO, worldbank:INDICATOR[:COUNTRIES], who:INDICATOR[:COUNTRIES]
    github_api_url: str = "https://api.github.com"
    github_token: SecretStr | None = Field(default=None, description="GitHub token: 5,000 requests an hour instead "
                                           "of the unauthenticated 60.")
    worldbank_api_url: str = "https://api.worldbank.org/v2"
    who_api_url: str = "https://ghoapi.azureedge.net/api"
    records_max_pages: int = Field(default=10, description="Pages read per first-hand API request (releases, "
                                   "contributors, indicator rows); the record says when more were left.")
    records_per_page: int = Field(default=1000, description="Rows asked for per page of an indicator API.")
    github_stats_retries: int = Field(default=3, description="Times a statistic GitHub is still computing (202) "
                                      "is asked again.")
    github_stats_wait_s: float = Field(default=2.0, description="Seconds between those requests.")
    trusted_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Hosts the fetcher may reach at private addresses (a local SearXNG): "
        "a JSON list, or names separated by commas. Webhooks have their own list (webhook_allow_hosts).")
    webhook_allow_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Hosts a monitoring webhook may post to although they resolve to a "
        "loopback, private or link-local address (a receiver on your own network): a JSON list, or names separated "
        "by commas. Any other webhook must resolve to public addresses only.")
    per_host_concurrency: int = 2
    global_concurrency: int = 8
    min_interval_s: float = 0.0
    host_intervals: dict[str, float] = Field(default_factory=lambda: {"export.arxiv.org": 3.0})
    max_retries: int = 4
    backoff_base_s: float = 0.5
    connect_timeout_s: float = 10.0
    read_timeout_s: float = 30.0
    max_body_bytes: int = 20_000_000
    max_redirects: int = 5
    respect_robots: bool = True
    cache_ttl_s: int = 7 * 24 * 3600
    embedding_model: str = "all-MiniLM-L6-v2"
    embedding_backend: Literal["onnx", "torch"] = Field(
        default="onnx", description="onnx: int8 ONNX Runtime export of the model, about 2x faster (falls back to "
        "torch with a warning when the export fails); torch: sentence-transformers as is.")
    domain_weights: dict[str, float] = Field(default_factory=dict)
    recency_half_life_days: float = 365.0
    # limits on hostile or unlucky inputs: each one ends in a clear message naming the file, never a hang
    follow_symlinks: bool = Field(default=False, description="Local ingest follows symbolic links that point "
                                  "outside the folder it was given (loops are detected either way).")
    max_document_chars: int = Field(default=1_000_000, description="Text kept per document; the rest is cut "
                                    "with a warning.")
    max_chunks_per_document: int = Field(default=2_000, description="Chunks stored per document.")
    max_pdf_inflated_bytes: int = Field(default=200_000_000, description="Decompressed stream bytes per PDF "
                                        "(a decompression bomb stops here).")
    max_pdf_page_inflated_bytes: int = Field(default=50_000_000, description="Decompressed bytes per PDF stream "
                                             "(a page's content, an image, a font).")
    max_pdf_seconds: float = Field(default=8.0, description="Seconds spent reading one PDF; past them the text "
                                   "read so far is kept with a warning (a huge content stream takes ~3 s per MB).")
    max_url_chars: int = Field(default=8_192, description="Longer URLs are refused before any request.")

    # --- LLM (any OpenAI-compatible endpoint; none configured = the deterministic pipeline) -----------
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = 60.0
    llm_price_input_per_mtok: float = Field(default=0.0, description="USD per 1M prompt tokens (cost accounting).")
    llm_price_output_per_mtok: float = Field(default=0.0, description="USD per 1M completion tokens.")
    llm_max_output_tokens: int | None = None
    llm_temperature: float | None = None
    llm_json_mode: str = Field(default="auto", description="auto | json_schema | json_object | prompt")
    llm_max_concurrency: int | None = Field(default=None, description="LLM requests in flight at once (1 for a "
                                            "local server with one slot).")
    llm_roles: str | None = Field(default=None, description="Comma-separated roles that use the LLM (planner, rewrite, "
                                  "extract, write, verify); unset = all. The others run deterministically.")
    llm_judge: Literal["auto", "llm", "offline"] = Field(
        default="auto", description="Which claim judge runs with an LLM configured: auto = the VERIFY role's model "
        "only where bench/bench_verifier.py --llm measured it better than the offline judge; llm = always; "
        "offline = never.")
    # per role (planner, rewrite, extract, write, verify): a lighter role can use a cheaper model or endpoint;
    # unset fields inherit the defaults above
    llm_model_planner: str | None = None
    llm_base_url_planner: str | None = None
    llm_api_key_planner: SecretStr | None = None
    llm_price_input_per_mtok_planner: float | None = None
    llm_price_output_per_mtok_planner: float | None = None
    llm_model_rewrite: str | None = None
    llm_base_url_rewrite: str | None = None
    llm_api_key_rewrite: SecretStr | None = None
    llm_price_input_per_mtok_rewrite: float | None = None
    llm_price_output_per_mtok_rewrite: float | None = None
    llm_model_extract: str | None = None
    llm_base_url_extract: str | None = None
    llm_api_key_extract: SecretStr | None = None
    llm_price_input_per_mtok_extract: float | None = None
    llm_price_output_per_mtok_extract: float | None = None
    llm_model_write: str | None = None
    llm_base_url_write: str | None = None
    llm_api_key_write: SecretStr | None = None
    llm_price_input_per_mtok_write: float | None = None
    llm_price_output_per_mtok_write: float | None = None
    llm_model_verify: str | None = None
    llm_base_url_verify: str | None = None
    llm_api_key_verify: SecretStr | None = None
    llm_price_input_per_mtok_verify: float | None = None
    llm_price_output_per_mtok_verify: float | None = None

    # --- HTTP API (openresearch serve) -----------------------------------------------------------------
    api_host: str = Field(default="127.0.0.1", description="Address `openresearch serve` listens on.")
    api_port: int = 8000
    api_key: SecretStr | None = Field(default=None, description="Bearer token the API requires; mandatory when "
                                      "the server listens on anything but loopback.")
    api_cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Origins allowed by CORS (off if empty), separated by commas.")
    api_max_body_bytes: int = Field(default=1_000_000, description="Larger request bodies are refused with 413.")
    api_cache_stale_s: float = Field(
        default=1.0, ge=0, description="While a run writes, /compare and /conflicts may answer from the previous "
        "graph version for up to this many seconds after it changed, while the new answer is computed in the "
        "background (writes made through the API are always seen at once); 0: never an outdated answer.")
    api_page_size: int = Field(default=50, description="Default page size of list routes (at most 500).")
    api_run_workers: int = Field(default=2, description="Research runs executed at once; more wait in the queue.")
    api_run_queue: int = Field(default=32, description="Runs that may wait for a worker; beyond it POST /runs is 503.")
    api_local_roots: Annotated[list[Path], NoDecode] = Field(
        default_factory=list, description="Folders a run or topic started through the API or MCP may read as "
        "local:PATH sources (none: only web, arxiv and scholar): one path, paths separated by os.pathsep or "
        "commas, or a JSON list.")
    api_session_secret: SecretStr | None = Field(default=None, description="Signs the web page's sign-in "
                                                 "sessions and form tokens; random at each start when unset (a "
                                                 "restart then signs every browser out).")
    api_session_ttl_s: float = Field(default=43_200, gt=0, description="How long a web sign-in and a page's "
                                     "form tokens stay valid (seconds).")
    api_monitor: bool = Field(default=True, description="The API process also runs due monitoring topics (the "
                              "schedule and leases live in the graph, beside any `monitor worker` processes).")

    @field_validator("trusted_hosts", "webhook_allow_hosts", "api_cors_origins", "api_local_roots", mode="before")
    @classmethod
    def _plain_lists(cls, v: object) -> object:
        return split_list(v)

    @property
    def cache_dir(self) -> Path:
        return self.data_dir / "cache"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The settings; ConfigError with one line per bad variable instead of pydantic's report."""
    try:
        return Settings()
    except ValidationError as e:
        raise ConfigError(one_line(e)) from None
