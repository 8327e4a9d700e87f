"""The one error of the seeded state: a resource cannot be brought into, or checked against, its
specified state. The seed reports it as a `blocked` task; a fixture step turns it into a
prerequisite failure. Either way it names the reason and the remediation, never skips."""

from __future__ import annotations


class Blocked(Exception):
    def __init__(self, reason: str, remediation: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.remediation = remediation
