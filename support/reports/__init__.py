"""Lane results and their writers (JSON, self-contained HTML, end-of-lane summary).

Product-agnostic: the hooks convert behave's model into these results. Every writer passes
free text through `redact` with the secrets the caller knows.
"""

from support.reports.html_report import write_html
from support.reports.json_report import read_json, write_json
from support.reports.model import RunInfo, ScenarioResult, ScenarioStatus, StepResult
from support.reports.redact import redact
from support.reports.summary import summary_text

__all__ = [
    "RunInfo",
    "ScenarioResult",
    "ScenarioStatus",
    "StepResult",
    "read_json",
    "redact",
    "summary_text",
    "write_html",
    "write_json",
]
