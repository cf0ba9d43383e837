// OpenResearch web page: a run's live progress (Server-Sent Events) and the citation panel.
// Plain JavaScript, no build step. Every page also works without it.
"use strict";

const TYPES = ["stage_started", "stage_finished", "sources_indexed", "plan_ready", "question_progress",
  "evidence_added", "section_written", "verification_finished", "done", "failed"];

function describe(ev) {
  switch (ev.type) {
    case "stage_started": return "Stage " + ev.stage + " started";
    case "stage_finished": return "Stage " + ev.stage + " finished (" + Number(ev.seconds || 0).toFixed(1) + " s)";
    case "sources_indexed": return "Indexed " + ev.root + ": " + ev.added + " added, " + ev.chunks + " chunks";
    case "plan_ready": return "Plan (" + ev.kind + "): " + (ev.sub_questions || []).map(q => q.text).join(" · ");
    case "question_progress": return "“" + ev.text + "”: " + ev.status + (ev.evidence != null ? " (" + ev.evidence + " evidence)" : "");
    case "evidence_added": return ev.count + " evidence item(s) added";
    case "section_written": return "Section written: " + ev.title + " (" + ev.sentences + " sentences)";
    case "verification_finished": return "Verified: " + ev.passed + " passed, " + ev.doubtful + " doubtful, " + ev.failed + " failed";
    case "done": return "Done: " + ev.title;
    case "failed": return "Run " + (ev.status || "failed") + ": " + ev.error;
    default: return ev.type || "event";
  }
}

const ACTIVE = ["queued", "running"];
const STOPPED = ["cancelled", "failed", "interrupted"];

// The Cancel and Resume buttons follow the run's status.
function showActions(status) {
  const cancel = document.getElementById("cancel-form");
  const resume = document.getElementById("resume-form");
  if (cancel) cancel.hidden = !ACTIVE.includes(status);
  if (resume) resume.hidden = !STOPPED.includes(status);
}

function setStatus(status) {
  const el = document.getElementById("run-status");
  if (el && status) el.textContent = status;
  showActions(status);
}

function runStatus(runId) {
  return fetch("/runs/" + encodeURIComponent(runId), {headers: {accept: "application/json"}})
    .then(r => r.ok ? r.json() : {});
}

// A run's stream replays its whole history, where a cancellation followed by a resume is only a step; the
// server ends the stream at the run's final state, and the run's own status says what that state is.
function watchRun(box) {
  const list = box.querySelector("#events");
  const note = box.querySelector("#progress-note");
  const runId = box.dataset.run;
  const seen = new Set();
  let source = null;
  let settling = false;
  const settle = () => {
    if (settling) return;
    settling = true;
    runStatus(runId).then(run => {
      settling = false;
      if (ACTIVE.includes(run.status)) { setStatus(run.status); return; }  // resumed: its events follow
      if (source) source.close();
      if (run.status === "done") { note.textContent = "Finished: loading the report…"; window.location.reload(); return; }
      setStatus(run.status);
      note.textContent = "The run stopped.";
      followResume(runId);
    }).catch(() => { settling = false; });
  };
  const onEvent = (msg) => {
    if (msg.lastEventId && seen.has(msg.lastEventId)) return;
    if (msg.lastEventId) seen.add(msg.lastEventId);
    let data;
    try { data = JSON.parse(msg.data); } catch (e) { return; }
    const ev = data && data.event ? data.event : data;
    if (!ev.type && msg.type !== "message") ev.type = msg.type;
    const li = document.createElement("li");
    li.className = "event type-" + ev.type;
    li.textContent = describe(ev);
    list.appendChild(li);
    if (ev.stage) { const st = document.getElementById("run-stage"); if (st) st.textContent = ev.stage; }
    if (ev.type === "done" || ev.type === "failed") {
      setStatus(ev.type === "done" ? "done" : (ev.status || "failed"));
      settle();
    } else {
      note.textContent = "Running…";
      setStatus("running");
    }
  };
  source = new EventSource(box.dataset.events);
  source.onmessage = onEvent;
  TYPES.forEach(t => source.addEventListener(t, onEvent));
  // the server closed the stream (the run ended) or the connection dropped: the run's status decides
  source.onerror = () => settle();
}

// A stopped run may be resumed elsewhere (the API, another page): the page follows it.
function followResume(runId) {
  setTimeout(() => runStatus(runId).then(run => {
    if (ACTIVE.includes(run.status) || run.status === "done") window.location.reload();
    else followResume(runId);
  }).catch(() => followResume(runId)), 3000);
}

// Only an absolute http(s) address becomes a link (as the browser parses it: " java\tscript:" is a script).
function httpUrl(url) {
  if (typeof url !== "string" || !/^https?:\/\//i.test(url) || /[\x00-\x1f\x7f]/.test(url)) return null;
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname ? u.href : null;
  } catch (e) { return null; }
}

function showEvidence(id) {
  const panel = document.getElementById("evidence-panel");
  const body = panel.querySelector(".body");
  body.textContent = "Loading " + id + "…";
  panel.hidden = false;
  fetch("/evidence/" + encodeURIComponent(id), {headers: {accept: "application/json"}})
    .then(r => r.json().then(j => ({ok: r.ok, j})))
    .then(({ok, j}) => {
      body.textContent = "";
      if (!ok) { body.textContent = (j && (j.detail || j.title)) || "Not found"; return; }
      const ev = j.evidence || {};
      const src = ev.source || {};
      const h = document.createElement("h3"); h.textContent = ev.id; body.appendChild(h);
      const q = document.createElement("blockquote"); q.className = "quote"; q.textContent = ev.quote; body.appendChild(q);
      const p = document.createElement("p"); p.className = "source"; p.append("Source: ");
      const link = httpUrl(src.url);
      if (link) {
        const a = document.createElement("a"); a.href = link; a.textContent = src.title || src.url;
        a.target = "_blank"; a.rel = "noreferrer noopener"; p.appendChild(a);
      } else {  // javascript:, data:, a local path: text, never a link
        p.append(src.title || src.url || "");
        if (src.title && src.url) { const u = document.createElement("span"); u.className = "muted url"; u.textContent = " (" + src.url + ")"; p.appendChild(u); }
      }
      if (src.published_at) p.append(" · published " + src.published_at);
      body.appendChild(p);
      const more = document.createElement("a"); more.href = "/ui/evidence/" + encodeURIComponent(ev.id);
      more.textContent = "Provenance"; body.appendChild(more);
    })
    .catch(err => { body.textContent = "Could not load " + id + ": " + err; });
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("progress");
  if (box && box.dataset.events && window.EventSource) watchRun(box);
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest("a.cite[data-evidence]");
    if (link) { e.preventDefault(); showEvidence(link.dataset.evidence); return; }
    if (e.target.closest && e.target.closest("#evidence-panel .close")) document.getElementById("evidence-panel").hidden = true;
  });
});
