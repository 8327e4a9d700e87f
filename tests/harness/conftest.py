"""Fixtures shared by the harness tests."""

from tests.harness.lint_project import project

__all__ = ["project"]
