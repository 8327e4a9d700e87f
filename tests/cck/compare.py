"""Messages compared the way the Compatibility Kit prescribes (its README, "Notes and exceptions"):
the number, type and partial order of the messages and what is the same from run to run, not
ids, timestamps, durations, URIs, source lines or free-text messages and stack traces.

`shape` reads a stream into what must match: how many messages of each type; the step
definitions' patterns; the hooks' types and names; each test case run in order (its pickle, and
each test step's kind, status, exception class, attachments and suggestion); each test run hook
run in order (its hook, status, exception class, attachments); the run's success.
`order_problems` checks the partial order on one stream: everything a message refers to came
before it, started before finished, steps inside their test case, attachments inside their step,
and a test case finished no earlier than its last step.

The reference messages come from a JavaScript implementation; the class of an exception is read
as its Python equivalent (`PYTHON_EXCEPTION`), and a pending step without an exception as one
that raised behave's `StepNotImplementedError`: a Python step can signal pending only by raising.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

Envelope = dict[str, Any]
PYTHON_EXCEPTION = {"Error": "Exception", "PendingException": "PendingStepError"}


def kind(envelope: Envelope) -> str:
    [name] = envelope
    return name


def _index(envelopes: list[Envelope], name: str) -> dict[str, Any]:
    return {e[name]["id"]: e[name] for e in envelopes if kind(e) == name}


def _exception(result: dict[str, Any], *, reference: bool) -> str | None:
    exception = result.get("exception")
    if exception is None:
        return "StepNotImplementedError" if reference and result.get("status") == "PENDING" else None
    name: str = exception["type"]
    return PYTHON_EXCEPTION.get(name, name) if reference else name


def _attachment(attachment: dict[str, Any]) -> tuple[Any, ...]:
    return (
        attachment["mediaType"],
        attachment.get("contentEncoding"),
        attachment["body"],
        attachment.get("fileName"),
    )


def shape(envelopes: list[Envelope], *, reference: bool = False) -> dict[str, Any]:
    """What of a stream must match; `reference` for the kit's own (JavaScript) stream."""
    pickles = _index(envelopes, "pickle")
    pickle_steps = {step["id"]: step for pickle in pickles.values() for step in pickle["steps"]}
    cases = _index(envelopes, "testCase")
    started = _index(envelopes, "testCaseStarted")
    hooks = _index(envelopes, "hook")
    results, attached = _step_outcomes(envelopes)
    suggested = Counter(e["suggestion"]["pickleStepId"] for e in envelopes if kind(e) == "suggestion")

    def test_step(started_id: str, step: dict[str, Any]) -> tuple[Any, ...]:
        result = results.get((started_id, step["id"]), {})
        if "hookId" in step:
            hook = hooks[step["hookId"]]
            what: tuple[Any, ...] = ("hook", hook.get("type"), hook.get("name") or "")
        else:
            text = pickle_steps[step["pickleStepId"]]["text"]
            what = ("step", text, len(step.get("stepDefinitionIds", [])), suggested[step["pickleStepId"]])
        status = result.get("status")
        return (
            *what,
            status,
            _exception(result, reference=reference),
            attached.get((started_id, step["id"])),
        )

    runs = []
    for started_id, run in started.items():
        case = cases[run["testCaseId"]]
        steps = [test_step(started_id, step) for step in case["testSteps"]]
        runs.append((pickles[case["pickleId"]]["name"], run["attempt"], steps))
    finished_run = next((e["testRunFinished"] for e in envelopes if kind(e) == "testRunFinished"), {})
    return {
        "counts": dict(sorted(Counter(kind(e) for e in envelopes).items())),
        "step definitions": sorted(
            (e["stepDefinition"]["pattern"]["source"], e["stepDefinition"]["pattern"]["type"])
            for e in envelopes
            if kind(e) == "stepDefinition"
        ),
        "hooks": sorted((hook.get("type"), hook.get("name") or "") for hook in hooks.values()),
        "test cases run": runs,
        "run hooks run": _run_hooks(envelopes, hooks, reference=reference),
        "run succeeded": finished_run.get("success"),
        "run exception": _exception(finished_run, reference=reference) if finished_run else None,
    }


def _step_outcomes(
    envelopes: list[Envelope],
) -> tuple[dict[tuple[str, str], dict[str, Any]], dict[tuple[str, str], list[tuple[Any, ...]]]]:
    """Each test step's result, and what it attached, by (testCaseStarted id, testStep id)."""
    results: dict[tuple[str, str], dict[str, Any]] = {}
    attached: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    for envelope in envelopes:
        if kind(envelope) == "testStepFinished":
            finished = envelope["testStepFinished"]
            results[(finished["testCaseStartedId"], finished["testStepId"])] = finished["testStepResult"]
        elif kind(envelope) == "attachment" and "testStepId" in envelope["attachment"]:
            item = envelope["attachment"]
            attached.setdefault((item["testCaseStartedId"], item["testStepId"]), []).append(_attachment(item))
    return results, attached


def _run_hooks(envelopes: list[Envelope], hooks: dict[str, Any], *, reference: bool) -> list[tuple[Any, ...]]:
    """Each test run hook run, in order: its type, name, status, exception class, attachments."""
    hook_results = {
        e["testRunHookFinished"]["testRunHookStartedId"]: e["testRunHookFinished"]["result"]
        for e in envelopes
        if kind(e) == "testRunHookFinished"
    }
    run_attachments: dict[str, list[tuple[Any, ...]]] = {}
    for envelope in envelopes:
        if kind(envelope) == "attachment" and "testRunHookStartedId" in envelope["attachment"]:
            item = envelope["attachment"]
            run_attachments.setdefault(item["testRunHookStartedId"], []).append(_attachment(item))
    return [
        (
            hooks[started["hookId"]].get("type"),
            hooks[started["hookId"]].get("name") or "",
            hook_results.get(started["id"], {}).get("status"),
            _exception(hook_results.get(started["id"], {}), reference=reference),
            run_attachments.get(started["id"]),
        )
        for started in (e["testRunHookStarted"] for e in envelopes if kind(e) == "testRunHookStarted")
    ]


def order_problems(envelopes: list[Envelope]) -> list[str]:
    """Where a stream breaks the partial order the kit's README sets out."""
    problems: list[str] = []
    seen: set[str] = set()  # ids of messages already emitted
    open_cases: dict[str, float] = {}  # testCaseStarted id -> time of its last finished step
    open_steps: set[tuple[str, str]] = set()
    open_run_hooks: set[str] = set()
    for position, envelope in enumerate(envelopes):
        name = kind(envelope)
        body = envelope[name]
        where = f"message {position + 1} ({name})"
        for missing in sorted(_references(name, body) - seen):
            problems.append(f"{where} refers to {missing!r} before it was emitted")
        if name == "testRunHookStarted":
            open_run_hooks.add(body["id"])
        elif name == "testRunHookFinished":
            open_run_hooks.discard(body["testRunHookStartedId"])
        elif name == "attachment" and "testRunHookStartedId" in body:
            if body["testRunHookStartedId"] not in open_run_hooks:
                problems.append(f"{where} is outside its test run hook's started/finished")
        elif name == "testCaseStarted":
            open_cases[body["id"]] = _seconds(body["timestamp"])
        elif name == "testStepStarted":
            open_steps.add((body["testCaseStartedId"], body["testStepId"]))
        elif name in ("testStepFinished", "attachment") and "testStepId" in body:
            key = (body["testCaseStartedId"], body["testStepId"])
            if key not in open_steps:
                problems.append(f"{where} is outside its test step's started/finished")
            if name == "testStepFinished":
                open_steps.discard(key)
                open_cases[key[0]] = max(open_cases.get(key[0], 0.0), _seconds(body["timestamp"]))
        elif name == "testCaseFinished":
            case = body["testCaseStartedId"]
            if any(step_case == case for step_case, _ in open_steps):
                problems.append(f"{where} comes before its test steps finished")
            if _seconds(body["timestamp"]) < open_cases.pop(case, 0.0):
                problems.append(f"{where} is stamped before its last test step finished")
        elif name == "testRunFinished" and open_cases:
            problems.append(f"{where} comes before test cases {sorted(open_cases)} finished")
        seen |= _defined(name, body)
    return problems


def _references(name: str, body: dict[str, Any]) -> set[str]:
    keys = (
        "pickleId",
        "testCaseId",
        "testCaseStartedId",
        "testRunStartedId",
        "hookId",
        "pickleStepId",
        "testRunHookStartedId",
    )
    found = {body[key] for key in keys if isinstance(body.get(key), str)}
    for step in body.get("testSteps", []) if name == "testCase" else []:
        found |= {step[key] for key in ("hookId", "pickleStepId") if key in step}
        found |= set(step.get("stepDefinitionIds", []))
    if name in ("testStepStarted", "testStepFinished", "attachment") and "testStepId" in body:
        found.add(body["testStepId"])
    return found


def _defined(name: str, body: dict[str, Any]) -> set[str]:
    found = {body["id"]} if isinstance(body.get("id"), str) else set()
    if name == "pickle":
        found |= {step["id"] for step in body["steps"]}
    if name == "testCase":
        found |= {step["id"] for step in body["testSteps"]}
    return found


def _seconds(stamp: dict[str, int]) -> float:
    return stamp["seconds"] + stamp["nanos"] / 1e9
