"""Running checks on several scratch copies at once (`--jobs N`): each job owns one copy, so a
mutant applied to it is seen by that job's check only. A check mostly waits on processes it
started (a console, a browser, a runtime), so two jobs keep a 2-core machine busy."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TypeVar

from ci.mutants.scratch import Scratch, scratch_copy

T = TypeVar("T")
R = TypeVar("R")


@contextmanager
def scratch_copies(source: Path, count: int) -> Iterator[list[Scratch]]:
    """`count` independent scratch copies of `source`, removed afterwards."""
    with ExitStack() as stack:
        yield [stack.enter_context(scratch_copy(source)) for _ in range(count)]


def run_on_copies(
    scratches: Sequence[Scratch],
    items: Sequence[T],
    work: Callable[[Scratch, T], R],
    on_done: Callable[[T, R], None] = lambda item, result: None,
) -> list[R]:
    """`work(scratch, item)` for every item, each on a copy no other job uses meanwhile; results
    in the order of `items`, `on_done` called as each finishes."""
    free: queue.Queue[Scratch] = queue.Queue()
    for scratch in scratches:
        free.put(scratch)

    def one(item: T) -> R:
        scratch = free.get()
        try:
            return work(scratch, item)
        finally:
            free.put(scratch)

    results: dict[int, R] = {}
    with ThreadPoolExecutor(max_workers=len(scratches)) as pool:
        futures = {pool.submit(one, item): index for index, item in enumerate(items)}
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            on_done(items[index], results[index])
    return [results[index] for index in range(len(items))]
