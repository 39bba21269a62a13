"""May this process write the index file, its lock and its side files?

The common Docker slip is a command run as root inside the Paperless container
(``docker compose exec webserver paperless-dedupe rebuild-index`` without ``-u
paperless``): the index, its ``.lock`` and its ``.regex`` then belong to root, and
every hook, run by the ``paperless`` user, is refused.  The checks here turn that
into one line naming the files, their owner, the running user and the fix.  They
cost a few ``stat`` calls and run only when opening the index failed (and in
``doctor``), never on a hook's good path.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

# What lives beside ``<index>``: SQLite's write-ahead log and shared memory, our lock and the
# annotation lock (_sqlite_user.py), the hooks' queue and holder record (pending.py), the
# compiled patterns (regexcache.py), a rebuild's new file (indexfile.py).  The
# folder itself must be writable too: SQLite creates -wal/-shm there, and the holder and
# pattern files are written beside it and renamed.
SIDE_SUFFIXES = ("-wal", "-shm", ".lock", ".annotate.lock", ".pending", ".holder", ".regex", ".rebuild")


def index_files(path: Path) -> list[Path]:
    """The index file and every side file it may have (existing or not)."""
    return [path, *(path.with_name(path.name + suffix) for suffix in SIDE_SUFFIXES)]


def _writable(path: Path) -> bool:
    effective = os.access in os.supports_effective_ids  # setuid wrappers: the user that opens the file
    return os.access(path, os.W_OK, effective_ids=effective)


def not_writable(path: Path) -> list[Path]:
    """The files of the index at ``path`` (and its folder, or the nearest folder that
    exists when it does not yet) that this process may not write."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    bad = [f for f in index_files(path) if f.exists() and not _writable(f)]
    if folder.exists() and not _writable(folder):
        bad.append(folder)
    return bad


def user_name(uid: int | None = None) -> str:
    """The name of user ``uid`` (default: this process's effective user), else ``uid N``."""
    uid = os.geteuid() if uid is None else uid
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def _owner(path: Path) -> str:
    try:
        return user_name(path.stat().st_uid)
    except OSError:
        return "unknown"


def permission_message(path: Path, bad: list[Path]) -> str:
    """One line: which files, whose they are, who runs, and the fix."""
    me = user_name()
    named = [("the folder " + str(f)) if f.is_dir() else f.name for f in bad[:4]]
    more = f" and {len(bad) - 4} more" if len(bad) > 4 else ""
    owners = sorted({_owner(f) for f in bad})
    # Only our files (and their folder when it is refused too): index.path may sit in a folder
    # shared with other programs, which a chown -R of it would change.
    targets = ([str(path.parent)] if path.parent in bad else []) + [f"{path}*"]
    return (f"index {path}: {', '.join(named)}{more} (owner {', '.join(owners)}) not writable by user {me}: "
            f"run 'chown {me}: {' '.join(targets)}' as root, then run paperless-dedupe as {me} "
            "(Docker: 'docker compose exec -u paperless webserver paperless-dedupe ...')")


def explain(path: Path) -> str | None:
    """``permission_message`` when some index file is not writable by this process, else None."""
    bad = not_writable(path)
    return permission_message(path, bad) if bad else None


def is_permission(exc: BaseException) -> bool:
    """A refusal by the file system's permissions (or a read-only mount)."""
    if isinstance(exc, PermissionError):
        return True
    if isinstance(exc, OSError):
        return exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    text = str(exc).lower()  # sqlite3 says it in words
    return "readonly database" in text or "unable to open database file" in text or "permission" in text


# What to do about the errors of the file system a user meets (strerror names the problem).
_FIXES = {
    errno.ENOSPC: "free space on that disk",
    errno.EDQUOT: "free space or raise the disk quota",
    errno.EROFS: "the file system is mounted read-only: mount it writable or set index.path elsewhere",
    errno.EACCES: "fix its owner or permissions",
    errno.EPERM: "fix its owner or permissions",
    errno.ENOENT: "check the path",
    errno.EIO: "check the disk",
}


def os_error_line(exc: OSError, index_path: Path | None = None) -> str:
    """One line for an ``OSError`` from outside our code: the file, the problem and the fix;
    the index's own ownership message when the index is what was refused."""
    if index_path is not None and is_permission(exc):
        reason = explain(index_path)
        if reason is not None:
            return reason
    where = f" {exc.filename}" if exc.filename else ""
    fix = _FIXES.get(exc.errno or 0, "check the file and the disk")
    return f"cannot use{where} ({exc.strerror or exc}): {fix}"


def foreign_to_folder(path: Path) -> tuple[list[Path], str] | None:
    """Run as root, every file is writable, but the hook runs as the Paperless user: the
    index files whose owner is not the folder's owner (the folder belongs to that user in
    every install we know), and the folder owner's name; None when they all agree."""
    try:
        folder_uid = path.parent.stat().st_uid
        odd = [f for f in index_files(path) if f.exists() and f.stat().st_uid != folder_uid]
    except OSError:
        return None
    return (odd, user_name(folder_uid)) if odd else None
