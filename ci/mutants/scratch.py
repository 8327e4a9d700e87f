"""A scratch copy of the checkout that mutants are applied to: the working tree is never touched.

Everything the checks start (lanes, their workers, consoles, runtimes, pytest) runs with the
scratch copy as working directory and first on PYTHONPATH, so `agent_builder` and the suite are
imported from it; `verify` proves that before every mutant, because a check that ran the
unmutated product would report every mutant as survived for the wrong reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ci.mutants.catalogue_loader import Mutant


class ScratchError(RuntimeError):
    pass


class Scratch:
    def __init__(self, root: Path, source: Path) -> None:
        self.root = root
        self.source = source

    @classmethod
    def copy_of(cls, source: Path, into: Path) -> Scratch:
        """The files git knows (tracked, or untracked and not ignored), as they are on disk now."""
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=source,
            capture_output=True,
            check=True,
        ).stdout.split(b"\0")
        for name in filter(None, (entry.decode() for entry in listed)):
            origin = source / name
            if origin.is_file():
                target = into / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target)
        return cls(into, source)

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        # No bytecode caches: a mutant that keeps a file's size, restored within the same second,
        # would otherwise leave a stale compiled copy of the mutated module behind.
        return {**os.environ, "PYTHONPATH": str(self.root), "PYTHONDONTWRITEBYTECODE": "1", **(extra or {})}

    def verify(self) -> None:
        """The interpreter, started like the checks start it, imports the scratch copy."""
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import agent_builder, support; print(agent_builder.__file__, support.__file__)",
            ],
            cwd=self.root,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode != 0:
            raise ScratchError(
                f"the checks cannot import the scratch copy {self.root}: {probe.stderr.strip()}"
            )
        paths = probe.stdout.split()
        outside = [path for path in paths if not Path(path).resolve().is_relative_to(self.root.resolve())]
        if outside:
            raise ScratchError(
                f"the checks would import {', '.join(outside)}, not the scratch copy {self.root}"
            )

    @contextmanager
    def mutated(self, mutant: Mutant) -> Iterator[None]:
        """`mutant` applied for the duration of the block, then the original restored."""
        target = self.root / mutant.file
        original = target.read_text(encoding="utf-8")
        if original.count(mutant.find) != 1:
            raise ScratchError(f"mutant {mutant.id}: `find` is not exactly once in {mutant.file}")
        target.write_text(original.replace(mutant.find, mutant.replace), encoding="utf-8")
        try:
            yield
        finally:
            target.write_text(original, encoding="utf-8")


@contextmanager
def scratch_copy(source: Path) -> Iterator[Scratch]:
    with tempfile.TemporaryDirectory(prefix="mutants-") as folder:
        scratch = Scratch.copy_of(source, Path(folder))
        scratch.verify()
        yield scratch
