"""Neo4j Browser exploration of the local Neo4j: OpenResearch's guide, saved queries and graph style.

The Browser ships as the Maven jar `org.neo4j.client:neo4j-browser` (on the runner's classpath), and the
Neo4j server serves the classpath folder `browser/` at `/browser/` (the first one the class loader finds).
So `prepare` unpacks the jar's `browser/` into `<home>/browser-cp/browser/`, adds the package files of
`openresearch/data/browser/` (style, saved queries, a guide rendered from them) under `openresearch/`, and
the runner puts `<home>/browser-cp` first on its classpath. The assets are then same-origin with the
Browser (no CORS), at `http://127.0.0.1:<http>/browser/openresearch/...`.

`conf_lines` allow the Browser to fetch from 127.0.0.1 and make it apply the style and open the guide as
soon as it connects (`browser.post_connect_cmd`); they go into a marked block of `conf/neo4j-extra.conf`
that is rewritten on every start, leaving the user's own lines (and their overrides) alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import re
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openresearch.identity import AliasResolver

__all__ = ["ASSETS", "MOUNT", "BrowserUrls", "SavedQuery", "conf_lines", "cypher_literal", "guide_params",
           "load_queries", "parse_query", "prepare", "render_guide", "urls", "write_conf"]

ASSETS = Path(__file__).resolve().parents[1] / "data" / "browser"
MOUNT = "openresearch"  # served at /browser/openresearch/
CP_DIR = "browser-cp"
STAMP = ".openresearch-stamp"
BLOCK_BEGIN = "# >>> openresearch browser (rewritten on every start; lines after the block override it)"
BLOCK_END = "# <<< openresearch browser"
_HEADER = re.compile(r"^//\s*(title|purpose|params):\s*(.*)$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
EXAMPLES = {"runId": "paste a run id from Recent runs", "entity": "Apache Kafka", "source": "",
            "evidenceId": "E-paste-an-evidence-id"}
DEFAULT_TOLERANCE = 0.05  # Settings.conflict_tolerance's default


@dataclass(frozen=True)
class SavedQuery:
    name: str
    title: str
    purpose: str
    params: tuple[str, ...]
    text: str  # the Cypher, without its header lines


@dataclass(frozen=True)
class BrowserUrls:
    browser: str
    guide: str
    style: str

    @property
    def guide_command(self) -> str:
        return f":guide {self.guide}"

    @property
    def style_command(self) -> str:
        return f":style {self.style}"


def parse_query(name: str, text: str) -> SavedQuery:
    """A saved query file: `// title:`, `// purpose:`, `// params: a, b` header lines, then Cypher.

    Raises ValueError when the header's params and the `$params` the Cypher uses disagree.
    """
    head: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        m = _HEADER.match(line.strip())
        if m and not body:
            head[m.group(1)] = m.group(2).strip()
        elif line.strip() or body:
            body.append(line)
    cypher = "\n".join(body).strip()
    declared = tuple(p.strip() for p in head.get("params", "").split(",") if p.strip())
    used = set(_PARAM.findall(cypher))
    if set(declared) != used:
        raise ValueError(f"{name}: header params {sorted(declared)} but the query uses {sorted(used)}")
    if not head.get("title"):
        raise ValueError(f"{name}: no `// title:` line")
    return SavedQuery(name=name, title=head["title"], purpose=head.get("purpose", ""), params=declared,
                      text=cypher)


def load_queries(folder: Path | None = None) -> list[SavedQuery]:
    folder = folder or ASSETS / "queries"
    return [parse_query(p.name, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.cypher"))]


def guide_params(aliases: AliasResolver | None = None, tolerance: float | None = None) -> dict[str, Any]:
    """The parameters the queries share with the API, so they decide as it does: `aliases` (pairs of a folded
    name and its folded canonical name: the alias list the graph's store resolves names with; pairs, not a map,
    because the Browser reads `:param x => {...}` as a query to run) and `tolerance` (the relative difference
    within which values agree). Without arguments: the configured alias file and tolerance."""
    if aliases is None or tolerance is None:
        from openresearch.config import Settings

        try:
            settings = Settings()
            file, tol = settings.aliases_file, settings.conflict_tolerance
        except ValueError:  # a bad setting is reported by the command that uses it; the guide keeps the defaults
            file, tol = None, DEFAULT_TOLERANCE
        aliases = aliases if aliases is not None else AliasResolver.load(file)
        tolerance = tol if tolerance is None else tolerance
    return {"aliases": [[k, v] for k, v in aliases.folded().items()], "tolerance": float(tolerance)}


def cypher_literal(value: Any) -> str:
    """A Python value (str, number, bool, None, list, mapping) as a Cypher literal. Pure."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"`{str(k).replace('`', '``')}`: {cypher_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    raise TypeError(f"no Cypher literal for {type(value).__name__}")


def _param_command(name: str, values: Mapping[str, Any]) -> str:
    return f":param {name} => {cypher_literal(values.get(name, ''))}"


def render_guide(queries: list[SavedQuery], style_url: str, params: Mapping[str, Any] | None = None) -> str:
    """An HTML Browser guide: one slide per saved query, each with a runnable `:param` block per parameter and
    the query. `params` are the shared ones (`guide_params`; default: the configured alias file and tolerance)."""
    esc = html.escape
    values = {**EXAMPLES, **(params if params is not None else guide_params())}
    slides = [
        "<slide class=\"row-fluid\"><div class=\"col-sm-12\">"
        "<h3>Explore the OpenResearch evidence graph</h3>"
        "<p>Each slide is a saved query. Click a grey block to put it in the editor, change the value in "
        "quotes when there is one, and run it (Ctrl+Enter). Parameters are set with <code>:param</code> "
        "and stay set for the whole session. The <code>aliases</code> and <code>tolerance</code> blocks carry the "
        "alias list and conflict tolerance the API uses, so these slides resolve names and find conflicts as "
        "<code>GET /conflicts</code> does.</p>"
        "<p>Apply the graph style (captions by name, title or quote; a colour per label):</p>"
        f"<pre class=\"runnable\">:style {esc(style_url)}</pre>"
        "<ul>" + "".join(f"<li>{esc(q.title)}</li>" for q in queries) + "</ul>"
        "</div></slide>"
    ]
    for q in queries:
        parts = [f"<slide class=\"row-fluid\" data-query=\"{esc(q.name)}\"><div class=\"col-sm-12\">",
                 f"<h3>{esc(q.title)}</h3>", f"<p>{esc(q.purpose)}</p>"]
        parts += [f"<pre class=\"runnable\">{esc(_param_command(p, values))}</pre>" for p in q.params]
        parts.append(f"<pre class=\"runnable\" data-query-text=\"{esc(q.name)}\">{esc(q.text)}</pre>")
        parts.append("</div></slide>")
        slides.append("".join(parts))
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>OpenResearch evidence graph</title>"
            "</head><body><article class=\"guide\"><carousel class=\"deck container-fluid\">\n"
            + "\n".join(slides) + "\n</carousel></article></body></html>\n")


def urls(http_uri: str) -> BrowserUrls:
    base = http_uri.rstrip("/")
    return BrowserUrls(browser=f"{base}/browser/", guide=f"{base}/browser/{MOUNT}/guide.html",
                       style=f"{base}/browser/{MOUNT}/style.grass")


def _browser_jar(classpath: str) -> Path | None:
    for entry in classpath.split(":"):
        p = Path(entry)
        if p.name.startswith("neo4j-browser-") and p.suffix == ".jar" and p.is_file():
            return p
    return None


def _assets_digest(jar: Path, http_uri: str, params: Mapping[str, Any]) -> str:
    h = hashlib.sha256(f"{jar}|{jar.stat().st_size}|{jar.stat().st_mtime_ns}|{http_uri}".encode())
    h.update(cypher_literal(dict(params)).encode())  # another alias file or tolerance renders another guide
    for p in sorted(ASSETS.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(ASSETS)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def _write_assets(target: Path, http_uri: str, params: Mapping[str, Any]) -> None:
    target.mkdir(parents=True, exist_ok=True)
    style = urls(http_uri).style
    shutil.copyfile(ASSETS / "style.grass", target / "style.grass")
    qdir = target / "queries"
    qdir.mkdir(exist_ok=True)
    for p in sorted((ASSETS / "queries").glob("*.cypher")):
        shutil.copyfile(p, qdir / p.name)
    (target / "guide.html").write_text(render_guide(load_queries(), style, params), encoding="utf-8")


def prepare(home: Path, classpath: str, http_uri: str) -> Path | None:
    """Unpack the Browser with OpenResearch's assets under `<home>/browser-cp`; the folder to put first
    on the classpath, or None when the classpath holds no Browser jar. A no-op when nothing changed."""
    jar = _browser_jar(classpath)
    if jar is None:
        return None
    root = home / CP_DIR
    params = guide_params()  # the configured alias file and tolerance
    want = _assets_digest(jar, http_uri, params)
    with contextlib.suppress(OSError):
        if (root / STAMP).read_text(encoding="utf-8") == want and (root / "browser" / "index.html").is_file():
            return root
    tmp = home / (CP_DIR + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with zipfile.ZipFile(jar) as zf:
            zf.extractall(tmp, [n for n in zf.namelist() if n.startswith("browser/")])
    except zipfile.BadZipFile as exc:
        raise ValueError(f"{jar} is not a readable jar: {exc}") from exc
    _write_assets(tmp / "browser" / MOUNT, http_uri, params)
    (tmp / STAMP).write_text(want, encoding="utf-8")
    shutil.rmtree(root, ignore_errors=True)
    tmp.rename(root)
    return root


def conf_lines(http_uri: str) -> list[str]:
    u = urls(http_uri)
    return [
        "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1",
        f"browser.post_connect_cmd=style {u.style}; guide {u.guide}",
    ]


def write_conf(home: Path, http_uri: str) -> None:
    """Rewrite the marked block of `conf/neo4j-extra.conf`; a key the user sets outside it is left out."""
    path = home / "conf" / "neo4j-extra.conf"
    try:
        old = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        old = []
    user: list[str] = []
    inside = False
    for line in old:
        if line == BLOCK_BEGIN:
            inside = True
        elif line == BLOCK_END:
            inside = False
        elif not inside:
            user.append(line)
    user_keys = {ln.split("=", 1)[0].strip() for ln in user if "=" in ln and not ln.lstrip().startswith("#")}
    ours = [ln for ln in conf_lines(http_uri) if ln.split("=", 1)[0] not in user_keys]
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join([BLOCK_BEGIN, *ours, BLOCK_END, *user]) + "\n"
    tmp = path.with_suffix(".conf.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
