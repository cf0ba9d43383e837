"""boundary.py on its own (no graph, no network): every attack refused at a door with roots and at one with
none, the CLI's door reading any path, intervals within bounds, webhooks judged by the fetcher's SSRF guard,
and list settings in the forms users write."""

from __future__ import annotations

from pathlib import Path

import pytest
from doors_support import METADATA_HOOK, QUESTION, Rooms

from openresearch.agents.run.run_config import RunOptions
from openresearch.boundary import (
    Door,
    TopicAsk,
    check_question,
    check_run,
    check_schedule,
    check_sources,
    check_topic_sync,
    check_webhook_sync,
    door_for_topic,
)
from openresearch.config import Settings, get_settings
from openresearch.errors import ConfigError, InputError
from openresearch.ingest.safety import StaticResolver

PUBLIC = StaticResolver({"hooks.example": ["93.184.216.34"], "inside.example": ["10.0.0.7"]})


@pytest.fixture
def rooms(tmp_path: Path) -> Rooms:
    return Rooms.make(tmp_path)


def api_door(rooms: Rooms, **kw: object) -> Door:
    return Door.service(Settings(_env_file=None, api_local_roots=[rooms.root], **kw), "api",  # type: ignore[call-arg]
                        resolver=PUBLIC)


def test_every_source_attack_is_refused_and_the_allowed_folder_is_not(rooms: Rooms) -> None:
    door = api_door(rooms)
    for name, sources in rooms.source_attacks().items():
        with pytest.raises(InputError) as e:
            check_sources(sources, door)
        assert "\n" not in str(e.value), name
    assert check_sources([f"local:{rooms.docs}", "web", "arxiv", "scholar"], door) == [
        f"local:{rooms.docs.resolve()}", "web", "arxiv", "scholar"]
    # the path is returned resolved: what was judged is what the run reads
    assert check_sources([f"local:{rooms.root}/docs/../docs"], door) == [f"local:{rooms.docs.resolve()}"]


def test_no_roots_configured_means_no_local_source_at_the_api(rooms: Rooms) -> None:
    door = Door.service(Settings(_env_file=None), "mcp")  # type: ignore[call-arg]
    with pytest.raises(InputError, match="mcp reads no local files"):
        check_sources([f"local:{rooms.docs}"], door)
    assert check_sources(["web"], door) == ["web"]


def test_the_cli_reads_any_path_the_user_names_but_still_refuses_unknown_kinds(rooms: Rooms) -> None:
    door = Door.cli(Settings(_env_file=None))  # type: ignore[call-arg]
    assert check_sources([f"local:{rooms.root}/escape"], door) == [f"local:{rooms.outside.resolve()}"]
    assert check_sources(["local:/etc"], door) == ["local:/etc"]
    with pytest.raises(InputError, match="unknown source 'ftp://x'"):
        check_sources(["ftp://x"], door)
    with pytest.raises(InputError, match="names no path"):
        check_sources(["local:"], door)


def test_questions_and_run_options(rooms: Rooms) -> None:
    for q in ("", "   ", "\n\t"):
        with pytest.raises(InputError, match="empty"):
            check_question(q)
    with pytest.raises(InputError, match="longer"):
        check_question("x" * 2001)
    assert check_question("  why?  ") == "why?"
    opts = check_run(RunOptions(question=QUESTION, sources=[f"local:{rooms.docs}"]), api_door(rooms))
    assert opts.sources == [f"local:{rooms.docs.resolve()}"]
    with pytest.raises(InputError):
        check_run(RunOptions(question=QUESTION), api_door(rooms))  # the default corpus is outside the roots


def test_intervals_within_bounds() -> None:
    for bad in ("1000000d", "367d", "30s", "sometimes", ""):
        with pytest.raises(InputError):
            check_schedule(bad)
    assert check_schedule("1m").interval_ms == 60_000
    assert check_schedule("366d").interval_ms == 366 * 86_400_000
    assert check_schedule("0 6 * * *").interval_ms is None


@pytest.mark.parametrize("url", [METADATA_HOOK, "http://127.0.0.1:8080/hook", "http://[::1]/hook",
                                 "http://[::ffff:169.254.169.254]/", "http://0x7f.1/hook", "file:///etc/passwd",
                                 "ftp://hooks.example/x", "not a url", "https://inside.example/hook",
                                 "http://10.1.2.3/hook"])
def test_webhooks_follow_the_fetchers_ssrf_rules(rooms: Rooms, url: str) -> None:
    with pytest.raises(InputError, match=r"^webhook refused: ") as e:
        check_webhook_sync(url, api_door(rooms))
    assert "\n" not in str(e.value)


def test_a_public_webhook_passes_and_a_local_one_needs_the_opt_in(rooms: Rooms) -> None:
    assert check_webhook_sync("https://hooks.example/digest", api_door(rooms)) == "https://hooks.example/digest"
    local = "http://127.0.0.1:8080/hook"
    # the fetcher's trusted hosts (a local SearXNG) are not webhook destinations: webhooks have their own list
    with pytest.raises(InputError, match="OPENRESEARCH_WEBHOOK_ALLOW_HOSTS"):
        check_webhook_sync(local, api_door(rooms, trusted_hosts=["127.0.0.1"]))
    assert check_webhook_sync(local, api_door(rooms, webhook_allow_hosts=["127.0.0.1"])) == local


def test_a_topic_is_checked_whole(rooms: Rooms) -> None:
    door = api_door(rooms)
    for name, fields in rooms.attacks(webhook=True).items():
        with pytest.raises(InputError):
            check_topic_sync(TopicAsk(fields["question"], fields["sources"], "1d", fields.get("webhook")), door)
        assert name
    with pytest.raises(InputError, match="366 days"):
        check_topic_sync(TopicAsk(QUESTION, ["web"], "1000000d"), door)
    ok = check_topic_sync(TopicAsk(QUESTION, [f"local:{rooms.docs}"], "6h", "https://hooks.example/d"), door)
    assert ok.sources == [f"local:{rooms.docs.resolve()}"] and ok.webhook == "https://hooks.example/d"


def test_a_stored_topic_without_a_door_gets_the_strict_one(rooms: Rooms) -> None:
    settings = Settings(_env_file=None, api_local_roots=[rooms.root])  # type: ignore[call-arg]
    assert door_for_topic(None, settings).local_roots == (rooms.root.resolve(),)
    assert door_for_topic("api", settings).local_roots == (rooms.root.resolve(),)
    assert door_for_topic("cli", settings).local_roots is None


@pytest.mark.parametrize(("raw", "want"), [("/a", ["/a"]), ("/a:/b", ["/a", "/b"]), ("/a, /b", ["/a", "/b"]),
                                           ('["/a", "/b"]', ["/a", "/b"]), ("", [])])
def test_list_settings_in_the_forms_users_write(monkeypatch: pytest.MonkeyPatch, raw: str, want: list[str]) -> None:
    monkeypatch.setenv("OPENRESEARCH_API_LOCAL_ROOTS", raw)
    assert Settings(_env_file=None).api_local_roots == [Path(w) for w in want]  # type: ignore[call-arg]


def test_url_lists_split_on_commas_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENRESEARCH_API_CORS_ORIGINS", "http://localhost:3000,https://x.example")
    monkeypatch.setenv("OPENRESEARCH_TRUSTED_HOSTS", "127.0.0.1")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.api_cors_origins == ["http://localhost:3000", "https://x.example"]
    assert s.trusted_hosts == ["127.0.0.1"]


def test_a_bad_setting_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENRESEARCH_API_LOCAL_ROOTS", "[not json")
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigError) as e:
            get_settings()
    finally:
        get_settings.cache_clear()
    assert str(e.value).startswith("bad setting OPENRESEARCH_API_LOCAL_ROOTS: ") and "\n" not in str(e.value)
