"""What every schema module builds on: the request and response bases and the field types
several resources share. Request models forbid unknown fields (a typo must fail loudly, not be
dropped) and take JSON types as they are. Not here: any one resource's bodies."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)

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


def _integral_numbers(value: Any) -> Any:
    """`56.0` as `56`: for JSON (and JSON Schema's `integer`) they are the same number."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral_numbers(item) for item in value]
    return value


class RequestModel(BaseModel):
    # strict: `0` is not `false` and `false` is not `0`, as /openapi.json's types say.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)

    @model_validator(mode="before")
    @classmethod
    def _json_values(cls, data: Any) -> Any:
        # JSON may escape lone surrogates ("\ud800"); they cannot be stored or sent back as UTF-8.
        if _contains_surrogate(data):
            raise ValueError("Text contains an invalid Unicode character (unpaired surrogate).")
        return _integral_numbers(data)


class ResponseModel(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Description = Annotated[str, StringConstraints(max_length=1000)]


def _pattern_message(message: str) -> WrapValidator:
    """Say `message` instead of pydantic's "String should match pattern '...'"."""

    def validate(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError as error:
            if any(detail["type"] == "string_pattern_mismatch" for detail in error.errors()):
                raise ValueError(message) from None
            raise

    return WrapValidator(validate)


# The URLs the console calls (providers, tools): http(s), an optional `user:password@`, a host
# name or IPv4 address (dot-separated labels of 1 to 63 characters, as DNS has them), an optional
# port, path and query; no spaces, no fragment. The pattern is the rule (so /openapi.json states it
# exactly), plus at most 253 characters of host; http_url then drops a trailing slash.
_URL_CHARS = r"A-Za-z0-9._~%!$&'()*+,;="
_HOST_LABEL = r"[A-Za-z0-9-]{1,63}"
HTTP_URL_PATTERN = (
    rf"^https?://(?:[{_URL_CHARS}-]+(?::[{_URL_CHARS}-]*)?@)?{_HOST_LABEL}(?:\.{_HOST_LABEL})*\.?"
    rf"(?::[0-9]{{1,5}})?(?:/[{_URL_CHARS}:@/-]*)?(?:\?[{_URL_CHARS}:@/?-]*)?$"
)
MAX_HOST_CHARS = 253


def _host_length(value: str) -> str:
    if len(urlsplit(value).hostname or "") > MAX_HOST_CHARS:
        raise ValueError(f"The host name is longer than {MAX_HOST_CHARS} characters.")
    return value


HttpUrl = Annotated[
    str,
    StringConstraints(max_length=2000, pattern=HTTP_URL_PATTERN),
    _pattern_message(
        "Must be an http(s):// URL with a host (dot-separated names of 1 to 63 characters), "
        "without spaces or a #fragment."
    ),
    AfterValidator(_host_length),
    AfterValidator(http_url),
]

# Keys travel in HTTP headers: only visible ASCII survives that intact (no spaces).
Secret = Annotated[
    str,
    StringConstraints(min_length=1, max_length=2000, pattern=r"^[!-~]+$"),
    _pattern_message("Must contain only visible ASCII characters (no spaces)."),
]
ResourceId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
