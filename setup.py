"""Build the optional C signature kernel; everything else is in pyproject.toml.

The kernel (``paperless_dedupe_hook/core/_sigkernel.c``) is tried first with OpenSSL's
SHA-1 (libssl headers), then with its portable SHA-1; without a C compiler the
install goes on without it and ``minhash`` signs with numpy (same values, ~4x
slower).  Set ``PAPERLESS_DEDUPE_NO_C_KERNEL=1`` at install time to skip it.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNEL = "paperless_dedupe_hook.core._sigkernel"
SOURCE = "paperless_dedupe_hook/core/_sigkernel.c"


class OptionalKernel(build_ext):
    """Try OpenSSL's SHA-1, then the portable one, then give up with a warning."""

    def build_extension(self, ext: Extension) -> None:
        if os.environ.get("PAPERLESS_DEDUPE_NO_C_KERNEL"):
            self.warn("PAPERLESS_DEDUPE_NO_C_KERNEL is set: signatures will use numpy")
            return
        try:
            super().build_extension(ext)
            return
        except Exception as exc:  # noqa: BLE001 - any compiler or linker failure
            self.warn(f"C kernel with OpenSSL SHA-1 did not build ({exc}); trying the portable SHA-1")
        portable = Extension(KERNEL, [SOURCE], extra_compile_args=["-O3"])
        try:
            super().build_extension(portable)
        except Exception as exc:  # noqa: BLE001
            self.warn(f"C kernel did not build ({exc}); signatures will use numpy (same values, slower)")


setup(
    ext_modules=[
        Extension(
            KERNEL,
            [SOURCE],
            define_macros=[("SIGKERNEL_OPENSSL", "1")],
            libraries=["crypto"],
            extra_compile_args=["-O3", "-Wno-deprecated-declarations"],
        )
    ],
    cmdclass={"build_ext": OptionalKernel},
)
