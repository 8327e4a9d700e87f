"""The glue half of Cucumber Messages: `stepDefinition` and `hook` messages (what the run loaded,
each with its `path:line`), the definition each test step ran, the `suggestion` (a snippet) for
an undefined step, and a step's attachments, failure evidence among them.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import cucumber_messages as cm

from support.reports.model import Attachment, Definition, ScenarioResult, StepResult

_HOOK_TYPE = {
    "before": cm.HookType.before_test_case,
    "after": cm.HookType.after_test_case,
    "before-all": cm.HookType.before_test_run,
    "after-all": cm.HookType.after_test_run,
}
_HOOK_KIND = {"Before": "before", "After": "after", "BeforeAll": "before-all", "AfterAll": "after-all"}
_DECORATOR = {
    cm.PickleStepType.context: "given",
    cm.PickleStepType.action: "when",
    cm.PickleStepType.outcome: "then",
}
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_EVIDENCE_TYPES = {"trace": "application/zip", "html": "text/html", "console": "text/plain"}


def source_reference(source: str | None) -> cm.SourceReference:
    """`path:line` -> a source reference (a bare path when there is no line)."""
    path, _, line = (source or "support/hooks.py").rpartition(":")
    if not path or not line.isdigit():
        return cm.SourceReference(uri=source or "support/hooks.py")
    return cm.SourceReference(uri=path, location=cm.Location(line=int(line)))


def hook_key(keyword: str, name: str, source: str | None) -> tuple[str, str, str]:
    return (_HOOK_KIND.get(keyword, "after"), name, source or "support/hooks.py")


class Glue:
    """Ids for the run's definitions: those it declared, and any a result names that it did not
    (a report from before definitions were kept, or an after-scenario check)."""

    def __init__(
        self,
        definitions: Iterable[Definition],
        results: Iterable[ScenarioResult],
        run_hooks: Iterable[StepResult] = (),
    ) -> None:
        self.steps: dict[str, tuple[str, Definition]] = {}  # source -> (id, definition)
        self.hooks: dict[tuple[str, str, str], str] = {}  # hook_key -> id
        hooks: dict[tuple[str, str, str], None] = {}
        self.parameter_types = [d for d in definitions if d.kind == "parameter-type"]
        for definition in definitions:
            if definition.kind == "step":
                self.steps.setdefault(definition.source, (f"step-definition-{len(self.steps)}", definition))
            elif definition.kind in _HOOK_TYPE:
                hooks[(definition.kind, definition.text, definition.source)] = None
        for hook in run_hooks:
            hooks[hook_key(hook.keyword, hook.name, hook.source)] = None
        for result in results:
            for step in result.steps:
                if step.hook:
                    hooks[hook_key(step.keyword, step.name, step.source)] = None
                elif step.source and step.source not in self.steps:
                    definition = Definition("step", step.name, step.source)
                    self.steps[step.source] = (f"step-definition-{len(self.steps)}", definition)
        self.hooks = {key: f"hook-{index}" for index, key in enumerate(hooks)}

    def envelopes(self) -> Iterator[cm.Envelope]:
        for index, definition in enumerate(self.parameter_types):
            yield cm.Envelope(
                parameter_type=cm.ParameterType(
                    id=f"parameter-type-{index}",
                    name=definition.text,
                    regular_expressions=list(definition.patterns),
                    prefer_for_regular_expression_match=False,
                    use_for_snippets=True,
                    source_reference=source_reference(definition.source),
                )
            )
        for step_id, definition in self.steps.values():
            kind = cm.StepDefinitionPatternType
            pattern = cm.StepDefinitionPattern(
                source=definition.text,
                type=kind.regular_expression if definition.regex else kind.cucumber_expression,
            )
            yield cm.Envelope(
                step_definition=cm.StepDefinition(
                    id=step_id, pattern=pattern, source_reference=source_reference(definition.source)
                )
            )
        for (kind, name, source), hook_id in self.hooks.items():
            hook = cm.Hook(
                id=hook_id,
                name=name or None,
                source_reference=source_reference(source),
                type=_HOOK_TYPE[kind],
            )
            yield cm.Envelope(hook=hook)

    def test_step(self, step_id: str, step: StepResult, pickle_step_id: str | None) -> cm.TestStep:
        if step.hook or pickle_step_id is None:
            return cm.TestStep(id=step_id, hook_id=self.hooks[hook_key(step.keyword, step.name, step.source)])
        found = self.steps.get(step.source or "")
        return cm.TestStep(
            id=step_id,
            pickle_step_id=pickle_step_id,
            step_definition_ids=[found[0]] if found else [],
            step_match_arguments_lists=None,
        )


def suggestion(suggestion_id: str, pickle_step: cm.PickleStep) -> cm.Suggestion:
    """What behave would have one write for an undefined step."""
    decorator = _DECORATOR.get(pickle_step.type or cm.PickleStepType.unknown, "step")
    sentence = pickle_step.text.replace("\\", "\\\\").replace("'", "\\'")
    code = (
        f"@{decorator}('{sentence}')\n"
        "def step_impl(context):\n"
        f"    raise StepNotImplementedError('{decorator.title()} {sentence}')"
    )
    return cm.Suggestion(
        id=suggestion_id, pickle_step_id=pickle_step.id, snippets=[cm.Snippet(code=code, language="python")]
    )


def attachment(item: Attachment) -> dict[str, object]:
    """The fields of an `Attachment` message an attachment of a step fills."""
    encoding = cm.AttachmentContentEncoding
    return {
        "body": item.body,
        "content_encoding": encoding.base64 if item.encoding == "base64" else encoding.identity,
        "media_type": item.media_type,
        "file_name": item.file_name,
        "url": item.url,
    }


def evidence_attachments(
    result: ScenarioResult, report_dir: Path | None, *, on_failing_step: bool
) -> list[Attachment]:
    """Failure evidence (support/browser/evidence.py) as attachments: the screenshot inline on the failing
    step; the rest (trace, page HTML, console log), and a screenshot no step failed for, by
    reference (`url`, relative to the report) on the scenario's last entry, the after-scenario hook
    that captured it."""
    found: list[Attachment] = []
    for key, path in result.evidence.items():
        if on_failing_step:
            if key == "screenshot" and path.is_file():
                body = base64.b64encode(path.read_bytes()).decode("ascii")
                media_type = _IMAGE_TYPES.get(path.suffix.lower(), "image/png")
                found.append(Attachment(media_type, body, "base64", path.name))
        elif key != "screenshot" or result.failing_step() is None:
            url = Path(os.path.relpath(path, report_dir)).as_posix() if report_dir else str(path)
            media_type = _EVIDENCE_TYPES.get(key) or _IMAGE_TYPES.get(path.suffix.lower(), "text/plain")
            found.append(Attachment(media_type, "", "identity", path.name, url=url))
    return found
