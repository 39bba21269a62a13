"""Shared helpers of the benchmark scripts: running a child process with its wall
time and peak memory, a config file for the CLI, machine facts, result files."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = Path(os.environ.get("PDBENCH_DATA", "/tmp/pdbench"))
PYTHON = sys.executable
BIN = Path(PYTHON).parent


def cli(name: str) -> str:
    """A console script of this environment (``paperless-dedupe``, ``paperless-dedupe-hook``)."""
    path = BIN / name
    return str(path) if path.exists() else name


@dataclass
class Run:
    argv: list[str]
    returncode: int
    wall: float
    tree_peak_rss: int  # bytes: the largest PSS sum over the process and its children, sampled every 50 ms
    max_rss: int  # bytes: peak RSS of the largest single process (GNU time); 0 when unknown
    stdout: str = ""
    stderr: str = ""
    cpu: float = 0.0  # user + system seconds of the process and its waited-for children (GNU time)
    load: float = 0.0  # 1-minute load average when it ended: other jobs on the machine skew ``wall``
    extra: dict[str, Any] = field(default_factory=dict)


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    # The process may exit between two reads: then it simply has no children left to count.
    with suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as fh:
                kids.extend(int(k) for k in fh.read().split())
    return kids


def _tree_rss(root: int) -> int:
    """Proportional resident bytes (PSS) of ``root`` and all its descendants, from /proc."""
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:  # PSS: pages shared by forked workers count once, split among them
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
        stack.extend(_children(pid))
    return total


def run(argv: list[str], *, env: dict[str, str] | None = None, timeout: float = 1800, cwd: Path | None = None,
        sample_rss: bool = True) -> Run:
    """Run ``argv`` to its end; wall time from just before the fork to the reaped exit.

    With GNU time at /usr/bin/time the command runs under it, for the exact peak RSS
    of the largest single process (its own ``wait4`` figure).
    """
    peak = [0]
    done = threading.Event()
    rss_file = None
    if Path("/usr/bin/time").exists():
        fd, name = tempfile.mkstemp(prefix="pdbench-rss-")
        os.close(fd)
        rss_file = Path(name)
        argv_run = ["/usr/bin/time", "-q", "-f", "%M %U %S", "-o", str(rss_file), *argv]
    else:
        argv_run = list(argv)
    started = time.perf_counter()
    proc = subprocess.Popen(argv_run, env=env, cwd=cwd or REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)

    def sampler() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], _tree_rss(proc.pid))

    thread = threading.Thread(target=sampler, daemon=True) if sample_rss else None
    if thread:
        thread.start()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err += f"\n[bench] killed after {timeout:g} s"
    wall = time.perf_counter() - started
    done.set()
    if thread:
        thread.join()
    max_rss, cpu = 0, 0.0
    if rss_file is not None:
        # GNU time writes nothing when the command could not be started: report 0, not a crash.
        with suppress(OSError, ValueError, IndexError):
            fields = rss_file.read_text().split()[-3:]
            max_rss = int(fields[0]) * 1024
            cpu = float(fields[1]) + float(fields[2])
        rss_file.unlink(missing_ok=True)
    return Run(argv, proc.returncode, wall, peak[0], max_rss, out, err, cpu=cpu, load=os.getloadavg()[0])


def compile_bytecode(tree: Path = REPO) -> None:
    """Byte-compile the package in ``tree``, as ``pip install`` does: with
    PYTHONDONTWRITEBYTECODE set (as on some machines) every timed run would otherwise
    compile each of its modules from source again."""
    import compileall

    compileall.compile_dir(str(tree / "paperless_dedupe_hook"), quiet=1)


def time_once(argv: list[str], *, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds user+system, stdout) of one run of a short command.

    The CPU figure does not count time the process waited for a core that another
    process held: on a shared machine it is the steadier of the two.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=REPO, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or "WARNING" in proc.stderr:
        raise RuntimeError(f"{argv[-1]} failed ({proc.returncode}): {proc.stdout.strip()} {proc.stderr.strip()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def wait_for_quiet(*, below: float = 1.0, max_wait: float = 300.0) -> float:
    """Wait (at most ``max_wait`` s) until the 1-minute load average drops below
    ``below``; returns the load average at the start.  Other people's jobs on the
    machine skew wall times: the results record the load."""
    deadline = time.monotonic() + max_wait
    load = os.getloadavg()[0]
    if load >= below:
        log(f"  load average {load:.2f}: waiting up to {max_wait:.0f} s for the machine to quieten")
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(5)
    return os.getloadavg()[0]


def write_config(path: Path, *, index: Path, url: str = "http://127.0.0.1:9", token: str = "bench-token",
                 extra: str = "", redis_url: str | None = None) -> Path:
    """A config file for the CLI; with ``redis_url``, ``index.backend = "redis"`` there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    backend = f'backend = "redis"\nredis_url = "{redis_url}"\n' if redis_url else 'backend = "sqlite"\n'
    path.write_text(
        f'[paperless]\nurl = "{url}"\ntoken = "{token}"\ntimeout_seconds = 30\n\n'
        f'[index]\npath = "{index}"\n{backend}\n{extra}',
        encoding="utf-8",
    )
    path.chmod(0o600)
    return path


def machine() -> dict[str, Any]:
    import numpy

    info: dict[str, Any] = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "platform": platform.platform(),
    }
    # Each of these only describes the machine in the result file; a missing one is left out.
    with suppress(ImportError):
        import datasketch
        import rapidfuzz

        info["datasketch"] = getattr(datasketch, "__version__", "?")
        info["rapidfuzz"] = rapidfuzz.__version__
    with suppress(OSError):
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in lscpu.splitlines():
            if line.split(":")[0].strip() in ("Model name", "CPU(s)", "Thread(s) per core", "L2 cache", "L3 cache"):
                info[line.split(":")[0].strip()] = line.split(":", 1)[1].strip()
    with suppress(OSError):
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split()[1]
        info["memory_gb"] = round(int(mem) / 1024**2, 1)
    info["load_average_at_start"] = os.getloadavg()
    return info


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def mb(n: float) -> str:
    return f"{n / 1e6:,.0f} MB"


def save(results: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
