"""Error bodies: `{code, message}` and the richer shapes some statuses add."""

from __future__ import annotations

from agent_builder.console.schemas.base import ResponseModel


class ErrorResponse(ResponseModel):
    code: str
    message: str


class FieldError(ResponseModel):
    field: str
    message: str


class ValidationErrorResponse(ErrorResponse):
    errors: list[FieldError]


class RevisionConflictResponse(ErrorResponse):
    current_revision: int


class DraftInvalidResponse(ErrorResponse):
    reasons: list[str]
