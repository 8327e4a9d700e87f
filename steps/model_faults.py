"""Deterministic model-provider faults, and what the model was sent, through the record/replay
server (support/replay)."""

from behave import given, then, when
from behave.runner import Context

from support.replay.control import ReplayControl
from support.replay.scope import FailPatch, HangPatch, PacePatch
from support.step_helpers import need
from support.tags import PROVIDER_FAULT, REPLAYED_CALLS
from support.world import World


def _replay(world: World) -> ReplayControl:
    hint = (
        "Provider faults need the record/replay server: tag the scenario @external-model and run it "
        "through `make post-merge` (which sets E2E_REPLAY_URL)."
    )
    return need(world.replay, hint)


@given("the model provider fails the next call with status {int}")
@PROVIDER_FAULT
def step_fail_next(context: Context, status: int) -> None:
    """The next model call answers this HTTP status (a replay server patch)."""
    _replay(context.world).add_patch(FailPatch(status=status))


@given("the model provider fails the next {int} calls with status {int}")
@PROVIDER_FAULT
def step_fail_next_calls(context: Context, count: int, status: int) -> None:
    """Each of the next model calls answers this HTTP status: more failures than the retry budget."""
    replay = _replay(context.world)
    first = replay.add_patch(FailPatch(status=status)).call
    assert first is not None  # the server resolves "the next call" to its number
    for call in range(first + 1, first + count):
        replay.add_patch(FailPatch(call=call, status=status))


@given("the model provider fails the next transcription with status {int}")
def step_fail_next_transcription(context: Context, status: int) -> None:
    """The next transcription (voice input) answers this HTTP status (a replay server patch)."""
    _replay(context.world).add_patch(FailPatch(target="transcription", status=status))


@given("the model provider streams the next reply one chunk every {int} ms")
@PROVIDER_FAULT
def step_pace_next(context: Context, ms: int) -> None:
    """The next model call is served as recorded, with this pause between its streamed chunks."""
    _replay(context.world).add_patch(PacePatch(pace_ms=ms))


@given("the model provider stalls the next call")
@PROVIDER_FAULT
def step_stall_next(context: Context) -> None:
    """The next model call hangs until the product gives up on it."""
    _replay(context.world).add_patch(HangPatch())


@given("the model provider stalls the next {int} calls")
@PROVIDER_FAULT
def step_stall_next_calls(context: Context, count: int) -> None:
    """Each of the next model calls hangs until the product gives up on it: replies held at once."""
    replay = _replay(context.world)
    first = replay.add_patch(HangPatch()).call
    assert first is not None  # the server resolves "the next call" to its number
    for call in range(first + 1, first + count):
        replay.add_patch(HangPatch(call=call))


@given("the model provider stalls the call after the next one")
@PROVIDER_FAULT
def step_stall_second(context: Context) -> None:
    """The next model call is served as recorded, the one after it hangs: a tool ran, the answer waits."""
    replay = _replay(context.world)
    made = replay.scope_so_far().calls.get("chat", 0)
    replay.add_patch(HangPatch(call=made + 1))


@when("the model call is provably stalled")
@PROVIDER_FAULT
def step_wait_parked(context: Context) -> None:
    """Act (e.g. click Stop) only once the replay server holds the call open, never on a timer."""
    _replay(context.world).wait_until_parked()


@when("{int} model calls are provably stalled")
@PROVIDER_FAULT
def step_wait_parked_count(context: Context, count: int) -> None:
    """Act only once the replay server holds that many calls open: each reply is in progress."""
    _replay(context.world).wait_until_parked(count=count)


@then("the model was instructed exactly as when its answers were recorded")
@REPLAYED_CALLS
def step_no_prompt_drift(context: Context) -> None:
    """Every model call so far carried the system prompt its recording was made with.

    The prompt is not in the replay key, so a replayed answer alone proves nothing about the
    instructions sent.
    """
    drift = _replay(context.world).scope_so_far().prompt_drift
    assert not drift, (
        "the model was sent other instructions than when its answers were recorded: "
        + "; ".join(
            f"call #{d.call} [{d.key}] system prompt {d.sent_digest} (recorded {d.recorded_digest})"
            for d in drift
        )
    )
