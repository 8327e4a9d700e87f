"""What every schema module builds on: the request and response bases and the field types
several resources share. Request models forbid unknown fields: a typo must fail loudly, not be
dropped. Not here: any one resource's bodies."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints, model_validator

from agent_builder.settings import http_url

MAX_INT = 2**53  # anything that reaches SQLite must fit its 64-bit integers


def _contains_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, dict):
        return any(_contains_surrogate(key) or _contains_surrogate(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_contains_surrogate(item) for item in value)
    return False


class RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _reject_unpaired_surrogates(cls, data: Any) -> Any:
        # JSON may escape lone surrogates ("\ud800"); they cannot be stored or sent back as UTF-8.
        if _contains_surrogate(data):
            raise ValueError("Text contains an invalid Unicode character (unpaired surrogate).")
        return data


class ResponseModel(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Description = Annotated[str, StringConstraints(max_length=1000)]


HttpUrl = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000), AfterValidator(http_url)]


def _header_safe(value: str) -> str:
    # Keys travel in HTTP headers: only visible ASCII survives that intact.
    if not all("!" <= char <= "~" for char in value):
        raise ValueError("Must contain only visible ASCII characters (no spaces).")
    return value


Secret = Annotated[str, StringConstraints(min_length=1, max_length=2000), AfterValidator(_header_safe)]
ResourceId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
