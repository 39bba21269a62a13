"""The persisted index: SQLite (``sqlite``) and Redis (``redis`` and its private parts).

Knows the core's values (signatures, features); knows nothing of Paperless or of the
configuration file.
"""
