"""One lint finding, printed `path:line: rule: message`: what the feature linter (`support.lint.features`)
and the cassette drift checks (`support.lint.cassettes`) both report."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"
