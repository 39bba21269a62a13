"""One exception tree for the whole package.

Every error carries the exit code the command line maps it to (PRODUCT.md: 2 usage,
3 configuration, 4 Paperless API, 5 index).  Messages are one line that names the
problem and the fix; they never contain the API token (the client never puts it in
a message, and ``redact`` is applied to anything that might echo a header).
"""

from __future__ import annotations


class DedupeError(Exception):
    """Base class: anything this package raises on purpose."""

    exit_code = 1


class UsageError(DedupeError):
    """A command line that cannot be run as given."""

    exit_code = 2


class ConfigError(DedupeError):
    """A configuration value, file or environment variable is wrong."""

    exit_code = 3


class PaperlessError(DedupeError):
    """Talking to Paperless failed.

    ``status`` is the HTTP status (None when no answer came), ``path`` the URL path
    that was asked for, ``document_id`` the document concerned, if any.
    """

    exit_code = 4

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        path: str | None = None,
        document_id: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.path = path
        self.document_id = document_id


class PaperlessConnectionError(PaperlessError):
    """Paperless could not be reached (refused, DNS, TLS, reset)."""


class PaperlessTimeout(PaperlessConnectionError):
    """Paperless did not answer within the connect/read timeout or the deadline."""


class PaperlessAuthError(PaperlessError):
    """The token was refused (401) or lacks a permission (403)."""


class PaperlessPermissionError(PaperlessAuthError):
    """The token is valid, but its user may not do this: a model permission is missing
    (``permission`` names it, e.g. ``view_tag``), or the user may not see or change
    ``document_id`` (an object permission).  Not a wrong URL: Paperless answered."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        path: str | None = None,
        document_id: int | None = None,
        permission: str | None = None,
    ) -> None:
        super().__init__(message, status=status, path=path, document_id=document_id)
        self.permission = permission


class PaperlessNotFound(PaperlessError):
    """The document (or object) does not exist, e.g. deleted meanwhile (404)."""


class PaperlessVersionError(PaperlessError):
    """No API version both sides accept (406)."""


class PaperlessResponseError(PaperlessError):
    """Paperless answered, but not with what the API promises (bad JSON, an HTML
    login page, ``{"error": ...}`` with status 200, an unexpected status)."""


class IndexStoreError(DedupeError):
    """The on-disk (or Redis) index cannot be used."""

    exit_code = 5


class SourceShrinkError(IndexStoreError):
    """A rebuild's source yielded no documents or far fewer than the index holds: the
    index is kept (``rebuild-index --allow-shrink`` replaces it anyway)."""


class IndexMismatchError(IndexStoreError):
    """The index was built with other detection parameters: run rebuild-index."""


class IndexCorruptError(IndexStoreError):
    """The index file is unreadable, truncated or inconsistent: run rebuild-index."""


class IndexBusyError(IndexStoreError):
    """Another run held the index longer than we could wait (the hook queues its document)."""


class PictureError(DedupeError):
    """A page's picture (a thumbnail) cannot be read: Pillow is missing or the bytes are not an
    image.  The hook treats it like any other failure of one document (a warning, exit 0)."""


# Secrets shorter than this are masked only as whole words (see ``redact``).
WHOLE_WORD_BELOW = 16


def redact(text: str, secret: str | None) -> str:
    """Remove ``secret`` from ``text`` (used on anything that may echo a request).

    A short secret is masked only where it stands alone, not inside a longer word: a
    token ``abc`` must not turn "fabric" into "f***ric" (which would also tell a reader
    the token).  A long one (16 characters and more, Paperless's are 40) is masked
    wherever it appears: inside a word it is still the token, not a coincidence.
    """
    if not secret:
        return text
    if len(secret) >= WHOLE_WORD_BELOW:
        return text.replace(secret, "***")
    import re  # rare: only for short secrets

    return re.sub(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", "***", text)
