"""Content moderation of an agent (part of its draft): keywords, and for each direction (the
visitor's question, the agent's answer) whether it is moderated and the preset reply that stands in
for a flagged message. Matching is services/moderation.py's."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field, StringConstraints, field_validator, model_validator

from agent_builder.console.schemas.base import RequestModel

MAX_KEYWORDS = 100
MAX_KEYWORD_CHARS = 100
MAX_PRESET_REPLY_CHARS = 1000

PresetReply = Annotated[str, StringConstraints(max_length=MAX_PRESET_REPLY_CHARS)]


def keyword_key(keyword: str) -> str:
    """What makes two keywords the same: case and runs of whitespace do not count."""
    return re.sub(r"\s+", " ", keyword.strip()).casefold()


class ModerationDirection(RequestModel):
    enabled: bool = False
    preset_reply: PresetReply = ""


class ModerationSettings(RequestModel):
    """`keywords`: words or phrases, matched ignoring case, as whole words. `inputs` moderates
    the question (a flagged one never reaches the model), `outputs` the answer (replaced as it
    streams)."""

    keywords: Annotated[
        list[str],
        Field(
            json_schema_extra={
                "maxItems": MAX_KEYWORDS,
                "items": {"type": "string", "minLength": 1, "maxLength": MAX_KEYWORD_CHARS},
            }
        ),
    ] = []
    inputs: ModerationDirection = ModerationDirection()
    outputs: ModerationDirection = ModerationDirection()

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return value  # the list type itself says what is wrong
        if len(value) > MAX_KEYWORDS:
            raise ValueError(f"At most {MAX_KEYWORDS} keywords: this list has {len(value)}.")
        seen: dict[str, str] = {}
        keywords: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError("Each keyword must be text.")  # noqa: TRY004 -- pydantic reports ValueErrors only
            keyword = item.strip()
            if not keyword:
                raise ValueError("A keyword cannot be empty.")
            if len(keyword) > MAX_KEYWORD_CHARS:
                raise ValueError(
                    f'A keyword is longer than {MAX_KEYWORD_CHARS} characters: "{keyword[:20]}…".'
                )
            key = keyword_key(keyword)
            if key in seen:
                raise ValueError(
                    f'"{seen[key]}" and "{keyword}" are the same keyword: keywords ignore case.'
                    if seen[key] != keyword
                    else f'The keyword "{keyword}" is listed twice.'
                )
            seen[key] = keyword
            keywords.append(keyword)
        return keywords

    @model_validator(mode="after")
    def _preset_replies(self) -> ModerationSettings:
        for direction, what in ((self.inputs, "questions"), (self.outputs, "answers")):
            if direction.enabled and not direction.preset_reply.strip():
                raise ValueError(f"Moderating {what} needs a preset reply.")
        return self
