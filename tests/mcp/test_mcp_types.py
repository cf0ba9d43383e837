"""The MCP refusal line, pure: every refused parameter named, with what was given, on one line."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import BaseModel, Field, ValidationError

from openresearch.mcp_types import one_line


class Args(BaseModel):
    limit: int = Field(ge=1, le=100)
    as_of: date | None = None


def test_one_line_names_each_refused_parameter_and_the_value_given() -> None:
    with pytest.raises(ValidationError) as e:
        Args.model_validate({"limit": 1000, "as_of": "soon\nnow"})
    line = one_line(e.value)
    assert "\n" not in line
    assert line.startswith("limit: Input should be less than or equal to 100 (got 1000); as_of")
    assert "(got 'soon\\nnow')" in line
