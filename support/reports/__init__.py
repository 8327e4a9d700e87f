"""A lane's results (`model`) and their writers: JSON, self-contained HTML (`html_report`,
`html_view`, `templates/`), JUnit, Cucumber Messages and Cucumber JSON (`cucumber_*`,
`gherkin_source`), the rerun file, the end-of-lane summary; `lane`: a lane's report folder written
at once, shards merged (`python -m support.reports merge`), the index of every lane.

Product-agnostic: support/run/result.py and the worker pool turn behave's model into these
results; support/lanes/finish.py publishes them. Every writer passes free text through `redact`
with the secrets the caller knows.
"""

from support.reports.html_report import write_html
from support.reports.json_report import read_json, scenario_from_dict, scenario_to_dict, write_json
from support.reports.junit_report import write_junit
from support.reports.lane import (
    merge_reports,
    publish_lane,
    write_index,
    write_lane_reports,
    zero_scenarios_failure,
)
from support.reports.model import (
    Attachment,
    Definition,
    LaneFailure,
    LaneReport,
    RunInfo,
    ScenarioResult,
    ScenarioStatus,
    StepResult,
)
from support.reports.redact import redact
from support.reports.rerun import RERUN_FILE, Rerun, read_rerun, write_rerun
from support.reports.summary import summary_text

__all__ = [
    "RERUN_FILE",
    "Attachment",
    "Definition",
    "LaneFailure",
    "LaneReport",
    "Rerun",
    "RunInfo",
    "ScenarioResult",
    "ScenarioStatus",
    "StepResult",
    "merge_reports",
    "publish_lane",
    "read_json",
    "read_rerun",
    "redact",
    "scenario_from_dict",
    "scenario_to_dict",
    "summary_text",
    "write_html",
    "write_index",
    "write_json",
    "write_junit",
    "write_lane_reports",
    "write_rerun",
    "zero_scenarios_failure",
]
