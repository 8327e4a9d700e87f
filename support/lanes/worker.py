"""A pool worker: `python -m support.lanes.worker [behave args] -D pool=ADDRESS -D pool_worker=ID`.

It is behave with our hooks, steps and formatters, and one difference: instead of the feature
files on its command line, it runs the scenarios the coordinator hands out, one at a time, so a
worker that finishes early takes the next one. The hooks run once per worker, as in a serial run:
one embedded console (or stack), one browser, one sign-in per worker.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from behave.__main__ import run_behave
from behave.configuration import Configuration
from behave.formatter._registry import make_formatters
from behave.model import Feature
from behave.model_type import FileLocation
from behave.runner import Context, Runner
from behave.runner_util import parse_features

from support.lanes.link import POOL_ADDRESS, POOL_WORKER, WorkerLink


class PoolRunner(Runner):  # type: ignore[misc]  # Runner is Any: types-behave stubs only runner.Context
    def run_with_paths(self) -> bool:
        self.context = Context(self)
        self.load_hooks()
        self.load_step_definitions()
        link = WorkerLink(self.config.userdata[POOL_ADDRESS], self.config.userdata[POOL_WORKER])
        self.context.pool_link = link  # the hooks report each result through it
        self.formatters = make_formatters(self.config, self.config.outputs)
        try:
            failed: bool = self.run_model(self._assigned_features(link))
            return failed
        finally:
            link.close()

    def _assigned_features(self, link: WorkerLink) -> Iterator[Feature]:
        # behave keeps iterating after an abort (to report features as not run): an aborted
        # worker (failed before_all, Ctrl-C) must not take scenarios it will not run.
        while not self.aborted and (assignment := link.next_assignment()) is not None:
            location = FileLocation(assignment.ref.feature_path, assignment.ref.line)
            # Not kept in self.features (behave's reporters get each feature as it ends): a worker
            # holding every feature it ran grew by its whole feature file per scenario (1.5 GB at
            # 1,000 scenarios, benchmarks/scale.py).
            yield parse_features([location], language=self.config.lang)[0]


def main(argv: list[str]) -> int:
    code: int = run_behave(Configuration(command_args=argv), runner_class=PoolRunner)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
