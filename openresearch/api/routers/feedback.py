"""`POST /feedback`: accept or dispute an evidence item or a source; a dispute lowers the source's trust."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from openresearch.api.deps import StateDep, StoreDep, page_size
from openresearch.api.pagination import CursorParam, LimitParam, Page, decode_cursor, offset_of, offset_page
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.graph.judgements import Feedback, FeedbackIn

router = APIRouter(prefix="/feedback", tags=["feedback"])


@router.post("", response_model=Feedback, status_code=201,
             responses={404: PROBLEM_RESPONSES[404], 413: PROBLEM_RESPONSES[413], 422: PROBLEM_RESPONSES[422]})
def give_feedback(st: StateDep, body: FeedbackIn) -> Feedback:
    fb = st.store.record_feedback(body)
    st.cache.invalidate()  # a dispute changes trust, which conflict credibility reads
    return fb


@router.get("", response_model=Page[Feedback], responses={400: PROBLEM_RESPONSES[400]})
def feedback_on(st: StateDep, store: StoreDep,
                target_id: Annotated[list[str], Query(min_length=1, max_length=50,
                                                      description="Evidence or source ids; repeatable.")],
                cursor: CursorParam = None, limit: LimitParam = None) -> Page[Feedback]:
    """The feedback given on some evidence items or sources, oldest first."""
    return offset_page(store.feedback_on(target_id), offset_of(decode_cursor(cursor)), page_size(st, limit))
