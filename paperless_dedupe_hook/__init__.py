"""Near-duplicate detection for Paperless-NGX, run as its post-consume hook."""

__version__ = "0.1.0"
