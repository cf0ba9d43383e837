"""People's judgements through the API: feedback changes trust (and so ranking and credibility), resolutions
show in /conflicts and through the store method reports call."""

from __future__ import annotations

import pytest
from api_support import Server

from openresearch.graph.judgements import trust_after

pytestmark = pytest.mark.integration


def test_trust_after_is_pure_and_bounded() -> None:
    assert trust_after(0.5, 0, 0, 0, 0) == 0.5
    assert trust_after(0.5, 1, 0, 0, 0) == 0.4
    assert trust_after(0.5, 0, 0, 1, 0) == 0.45
    assert trust_after(0.5, 1, 1, 0, 0) == 0.5  # an accept cancels a dispute
    assert trust_after(0.5, 0, 5, 0, 5) == 0.5  # but never raises trust above its base
    assert trust_after(0.5, 50, 0, 0, 0) == 0.05


def test_a_dispute_lowers_trust_and_shows_on_the_evidence(api: Server) -> None:
    with api.client() as c:
        kafka = c.get("/evidence", params={"entity": "Kafka"}).json()["items"]
        target = kafka[0]
        before = target["source"]["trust"]
        r = c.post("/feedback", json={"target": "evidence", "target_id": target["id"], "verdict": "dispute",
                                      "note": "one broker, not three", "author": "ana"})
        assert r.status_code == 201
        fb = r.json()
        assert fb["source_id"] == target["source"]["id"] and fb["source_trust"] < before and fb["created_at"] > 0
        prov = c.get(f"/evidence/{target['id']}").json()
        assert prov["evidence"]["source"]["trust"] == fb["source_trust"]
        assert [(f["author"], f["verdict"], f["note"]) for f in prov["feedback"]] == [
            ("ana", "dispute", "one broker, not three")]
        src = c.post("/feedback", json={"target": "source", "target_id": target["source"]["id"], "verdict": "dispute"})
        assert src.json()["source_trust"] < fb["source_trust"]
        listed = c.get("/feedback", params={"target_id": [target["id"], target["source"]["id"]]}).json()["items"]
        assert len(listed) == 2
        # conflict credibility reads the lowered trust
        group = next(g for g in c.get("/conflicts").json()["items"] if g["entity"] == "Apache Kafka")
        value = next(v for v in group["values"] if target["id"] in v["evidence_ids"])
        assert value["trust"] == src.json()["source_trust"]


def test_unknown_feedback_target_is_404(api: Server) -> None:
    with api.client() as c:
        r = c.post("/feedback", json={"target": "source", "target_id": "S-nope", "verdict": "accept"})
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"


def test_resolutions_show_in_conflicts_and_in_the_store(api: Server) -> None:
    with api.client() as c:
        group = next(g for g in c.get("/conflicts").json()["items"] if g["entity"] == "Apache Kafka")
        bad = c.post(f"/conflicts/{group['id']}/resolution", json={"decision": "value_correct", "value": 999})
        assert bad.status_code == 400 and "not one of the values" in bad.json()["detail"]
        missing = c.post(f"/conflicts/{group['id']}/resolution", json={"decision": "value_correct"})
        assert missing.status_code == 422
        ok = c.post(f"/conflicts/{group['id']}/resolution",
                    json={"decision": "value_correct", "value": 605, "note": "newer benchmark", "author": "li"})
        assert ok.status_code == 201 and ok.json()["value"] == 605.0
        resolved = c.get("/conflicts", params={"status": "resolved"}).json()["items"]
        assert [g["id"] for g in resolved] == [group["id"]]
        assert resolved[0]["resolution"]["decision"] == "value_correct"
        assert resolved[0]["resolution"]["author"] == "li"
        assert group["id"] not in [g["id"] for g in c.get("/conflicts", params={"status": "open"}).json()["items"]]
        later = c.post(f"/conflicts/{group['id']}/resolution", json={"decision": "both_hold", "note": "see runs"})
        assert later.status_code == 201
        assert c.get(f"/conflicts/{group['id']}").json()["resolution"]["decision"] == "both_hold"  # latest wins
        assert c.post("/conflicts/C-000000000000/resolution", json={"decision": "not_conflict"}).status_code == 404
    assert api.store.conflict_resolutions([group["id"]])[group["id"]].decision == "both_hold"
