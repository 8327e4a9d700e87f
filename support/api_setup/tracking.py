"""Removing what a scenario created, for the World's cleanup queues."""

from __future__ import annotations

from collections.abc import Callable

from support.api.console import ConsoleApiError
from support.cleanup import ResourceGone


def gone_on_404(action: Callable[[], None]) -> Callable[[], None]:
    """`action`, with a 404 reported as "already gone" (the scenario removed it) rather than a failure."""

    def remove() -> None:
        try:
            action()
        except ConsoleApiError as error:
            if error.status == 404:
                raise ResourceGone from error
            raise

    return remove
