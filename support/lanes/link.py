"""The worker side of the pool protocol: ask for the next scenario, report each result.

A worker is a behave process whose scenarios come from the coordinator one at a time over a
local socket (in a private directory, so no other user can connect). Every assignment must be
answered by exactly one result: the coordinator treats an assignment without one as a scenario
that a dead or broken worker never finished.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from multiprocessing.connection import Client, Connection
from typing import Any

from support.lanes.selection import ScenarioRef

# behave userdata (`-D name=value`) the coordinator passes to each worker.
POOL_ADDRESS = "pool"
POOL_WORKER = "pool_worker"


@dataclass(frozen=True)
class Assignment:
    ref: ScenarioRef
    attempt: int  # 1..N with --repeat N

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Assignment:
        return cls(ScenarioRef(**data["ref"]), data["attempt"])


def send(connection: Connection, message: Any) -> None:
    """JSON on the wire: plain data only, so nothing behave-specific has to survive unpickling."""
    connection.send_bytes(json.dumps(message).encode())


def receive(connection: Connection) -> Any:
    return json.loads(connection.recv_bytes())


# Messages a worker sends; the coordinator answers only NEXT (an Assignment, or None when done).
NEXT = "next"
RESULT = "result"
LANE_FAILURE = "lane_failure"
DEFINITIONS = "definitions"  # the step definitions and hooks the worker loaded, once, for the reports


class WorkerLink:
    """One worker's connection to the coordinator; connects on first use."""

    def __init__(self, address: str, worker_id: str) -> None:
        self.address = address
        self.worker_id = worker_id
        self.current: Assignment | None = None
        self._connection: Connection | None = None

    def _send(self, *message: Any) -> None:
        if self._connection is None:
            self._connection = Client(self.address, family="AF_UNIX")
        send(self._connection, [message[0], self.worker_id, *message[1:]])

    def next_assignment(self) -> Assignment | None:
        self._send(NEXT)
        assert self._connection is not None
        answer = receive(self._connection)
        self.current = None if answer is None else Assignment.from_json(answer)
        return self.current

    def report(self, result: dict[str, Any]) -> None:
        """`result` is the scenario as report.json writes it."""
        self._send(RESULT, result)

    def report_lane_failure(self, failure: dict[str, Any]) -> None:
        self._send(LANE_FAILURE, failure)

    def report_definitions(self, definitions: list[dict[str, Any]]) -> None:
        self._send(DEFINITIONS, definitions)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
