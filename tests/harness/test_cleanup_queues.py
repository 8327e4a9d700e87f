"""Cleanup: children before owners, callbacks LIFO after the typed queues, every item attempted."""

from __future__ import annotations

from collections.abc import Callable

from support.cleanup import Cleanup, CleanupFailure, ResourceGone, ResourceKind


def recorder(log: list[str], entry: str, error: Exception | None = None) -> Callable[[], None]:
    def remove() -> None:
        log.append(entry)
        if error is not None:
            raise error

    return remove


def test_typed_queues_remove_children_before_owners_then_callbacks_lifo() -> None:
    log: list[str] = []
    cleanup = Cleanup()
    # Tracked in creation order, owners first, the way a scenario creates them.
    cleanup.register(recorder(log, "callback 1"), "first callback")
    cleanup.track(ResourceKind.DATASET, "d1", recorder(log, "dataset d1"), "dataset")
    cleanup.track(ResourceKind.AGENT, "a1", recorder(log, "agent a1"), "agent")
    cleanup.track(ResourceKind.AGENT, "a2", recorder(log, "agent a2"), "agent")
    cleanup.track(ResourceKind.FILE, "f1", recorder(log, "file f1"), "file")
    cleanup.track(ResourceKind.API_KEY, "k1", recorder(log, "api key k1"), "key")
    cleanup.track(ResourceKind.TOOL_CREDENTIAL, "t1", recorder(log, "tool credential t1"), "credential")
    cleanup.register(recorder(log, "callback 2"), "second callback")

    assert cleanup.run() == []
    assert log == [
        "tool credential t1",
        "api key k1",
        "file f1",
        "agent a2",  # newest first within a kind
        "agent a1",
        "dataset d1",
        "callback 2",
        "callback 1",
    ]


def test_removal_order_is_declared_by_the_enum() -> None:
    assert list(ResourceKind) == [
        ResourceKind.TOOL_CREDENTIAL,
        ResourceKind.API_KEY,
        ResourceKind.FILE,
        ResourceKind.AGENT,
        ResourceKind.DATASET,
    ]


def test_a_failing_removal_does_not_stop_the_others_and_is_reported() -> None:
    log: list[str] = []
    cleanup = Cleanup()
    cleanup.track(ResourceKind.AGENT, "a1", recorder(log, "agent a1"), "E2E-r1-w0-bot-1")
    cleanup.track(ResourceKind.FILE, "f1", recorder(log, "file f1", RuntimeError("HTTP 500")), "notes.txt")
    cleanup.register(recorder(log, "callback", ValueError("boom")), "restore draft")

    failures = cleanup.run()

    assert log == ["file f1", "agent a1", "callback"]
    assert failures == [
        CleanupFailure(ResourceKind.FILE, "f1", "notes.txt", "RuntimeError: HTTP 500"),
        CleanupFailure(None, None, "restore draft", "ValueError: boom"),
    ]
    assert str(failures[0]) == "file f1 (notes.txt): RuntimeError: HTTP 500"
    assert str(failures[1]) == "restore draft: ValueError: boom"


def test_an_already_gone_resource_counts_as_removed() -> None:
    log: list[str] = []
    cleanup = Cleanup()
    cleanup.track(ResourceKind.API_KEY, "k1", recorder(log, "key", ResourceGone("404")), "key")
    cleanup.track(ResourceKind.AGENT, "a1", recorder(log, "agent"), "agent")
    assert cleanup.run() == []
    assert log == ["key", "agent"]


def test_running_twice_does_nothing_the_second_time() -> None:
    log: list[str] = []
    cleanup = Cleanup()
    cleanup.track(ResourceKind.AGENT, "a1", recorder(log, "agent", RuntimeError("down")), "agent")
    cleanup.register(recorder(log, "callback"), "callback")
    assert len(cleanup.run()) == 1
    assert cleanup.run() == []
    assert log == ["agent", "callback"]
