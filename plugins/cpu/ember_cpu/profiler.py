"""The CPU backend's profiler: cProfile over the host, which is where NumPy kernels run."""

from __future__ import annotations

import cProfile
import io
import os
import pstats
from pathlib import Path


class HostProfile:
    """A running cProfile collection; ``stop()`` writes ``cpu_profile_<pid>.pstats`` (for
    ``pstats``/snakeviz) and ``cpu_profile_<pid>.txt`` (the 40 costliest functions)."""

    def __init__(self, output_path: str) -> None:
        self.output = Path(output_path)
        self.profile = cProfile.Profile()
        self.profile.enable()

    def stop(self) -> list[str]:
        self.profile.disable()
        stem = self.output / f"cpu_profile_{os.getpid()}"
        self.profile.dump_stats(f"{stem}.pstats")
        text = io.StringIO()
        pstats.Stats(self.profile, stream=text).sort_stats("tottime").print_stats(40)
        Path(f"{stem}.txt").write_text(text.getvalue(), encoding="utf-8")
        return [f"{stem}.pstats", f"{stem}.txt"]
