"""A private ``redis-server`` on a free loopback port, for the tests and the benchmark."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_redis(workdir: Path) -> Iterator[str]:
    """A private ``redis-server`` on a free loopback port, without persistence; its URL.
    Stopped when the block ends, also on an error."""
    import redis

    binary = shutil.which("redis-server")
    assert binary is not None
    workdir.mkdir(parents=True, exist_ok=True)
    for _attempt in range(3):  # the free port may be taken between the probe and the bind
        port = free_port()
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        url = f"redis://127.0.0.1:{port}/0"
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=1)
            deadline = time.monotonic() + 15
            ready = False
            while not ready and proc.poll() is None and time.monotonic() < deadline:
                try:
                    ready = bool(client.ping())
                except redis.exceptions.ConnectionError:
                    time.sleep(0.05)
            client.close()
            if proc.poll() is not None:
                continue  # exited (port taken?): try another port
            if not ready:
                raise RuntimeError(f"redis-server on port {port} did not answer PING in 15 s")
            yield url
            return
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    raise RuntimeError("redis-server did not start (3 attempts on free loopback ports)")
