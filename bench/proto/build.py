"""Build the proposed C signature kernel (``_sigkernel.c``) next to this file.

    python bench/proto/build.py

Needs a C compiler and the Python headers; the benchmark skips the kernel when it
is not built.  A proposal for the lead, not part of the package.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent


def build() -> Path:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = HERE / f"_sigkernel{suffix}"
    source = HERE / "_sigkernel.c"
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    cc = sysconfig.get_config_var("CC") or "cc"
    include = sysconfig.get_paths()["include"]
    cmd = [*cc.split(), "-O3", "-shared", "-fPIC", "-Wall", f"-I{include}", str(source), "-o", str(target)]
    # With OpenSSL's headers, its SHA1 (SHA-NI where the CPU has it); else the portable one.
    openssl = [*cmd[:-3], "-DSIGKERNEL_OPENSSL", "-Wno-deprecated-declarations", str(source), "-o", str(target), "-lcrypto"]
    if subprocess.run(openssl, check=False, capture_output=True).returncode != 0:
        subprocess.run(cmd, check=True)
    return target


if __name__ == "__main__":
    print(build())
    sys.exit(0)
