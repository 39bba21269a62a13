"""The key registry: every configuration key, declared once.

Each issue that adds a setting adds one ``Key(...)`` line to ``KEYS`` here: its type,
default, allowed range and (optionally) a short environment alias.  ``config.load``
validates values against these declarations; ``config.example.toml`` and
``config init`` are written from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import envnames
from .core.languages import CODES as LANGUAGE_CODES


@dataclass(frozen=True)
class Key:
    name: str  # dotted, e.g. "detection.similarity_threshold"
    kind: str  # "str", "int", "float", "bool", "bands", "choice", "lsh", "languages"
    default: Any
    help: str
    env: str | None = None  # a short alias; every key also reads PAPERLESS_DEDUPE_<SECTION>_<KEY>
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    @property
    def env_names(self) -> tuple[str, ...]:
        """The environment variables this key reads, the documented long name first."""
        return envnames.names_of(self.name, self.env)

    @property
    def allowed(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " or ".join(repr(c) for c in self.choices)
        if self.kind == "bands":
            return f'"auto" or a whole number from {self.low:g} to {self.high:g}'
        if self.kind == "languages":
            return '"auto" or a list of ' + ", ".join(f'"{c}"' for c in self.choices)
        if self.kind == "lsh":
            return f'"auto" or a number from {self.low:g} to {self.high:g}'
        if self.low is not None and self.high is not None:
            what = "a whole number" if self.kind == "int" else "a number"
            return f"{what} from {self.low:g} to {self.high:g}"
        return "a string"


KEYS: tuple[Key, ...] = (
    Key("paperless.url", "str", "http://localhost:8000", "Base URL of Paperless (inside its container: http://localhost:8000)", "PAPERLESS_DEDUPE_URL"),
    Key("paperless.token", "str", "", "API token (Paperless: My Profile -> API Auth Token)", "PAPERLESS_DEDUPE_TOKEN"),
    Key("paperless.token_file", "str", "", "File holding the API token (used when token is empty)", "PAPERLESS_DEDUPE_TOKEN_FILE"),
    Key("paperless.public_url", "str", "", "Address users open in a browser, for links (default: PAPERLESS_URL, else paperless.url)"),
    Key("paperless.timeout_seconds", "float", 30.0, "Connect and read timeout per request, seconds", None, 1, 600),
    Key("paperless.verify_tls", "bool", True, "Verify the server's TLS certificate"),
    Key("index.path", "str", "", "Index file (default: $PAPERLESS_DATA_DIR/dedupe/index.sqlite3, else the user data dir)", "PAPERLESS_DEDUPE_INDEX"),
    Key("index.backend", "choice", "sqlite", "Where the index lives", None, choices=("sqlite", "redis")),
    Key("index.redis_url", "str", "", "Redis URL for backend = redis (default: PAPERLESS_REDIS)"),
    Key("detection.num_permutations", "int", 256, "MinHash signature length", None, 16, 1024),
    Key("detection.num_bands", "bands", "auto", "LSH bands; auto derives bands and rows from lsh_threshold", None, 2, 512),
    Key("detection.lsh_threshold", "lsh", "auto", "Jaccard level the LSH S-curve is centred on; auto = similarity_threshold - 0.35", None, 0.05, 0.99),
    Key("detection.shingle", "choice", "word", "Shingle unit: word n-grams or character n-grams", None, choices=("word", "char")),
    Key("detection.ngram_size", "int", 2, "Words (or characters) per shingle; 2 measured best (docs/quality.md)", None, 1, 12),
    Key("detection.min_words", "int", 20, "Documents with fewer words are compared only with each other, by a stricter rule", None, 1, 10000),
    Key("detection.similarity_threshold", "float", 0.75, "Final score from which a pair is a duplicate", None, 0.0, 1.0),
    Key("detection.jaccard_weight", "int", 60, "Weight of the Jaccard score (sum with fuzzy_weight = 100)", None, 0, 100),
    Key("detection.fuzzy_weight", "int", 40, "Weight of the fuzzy text score", None, 0, 100),
    Key("detection.fuzzy_sample_size", "int", 5000, "Characters of each text the fuzzy score compares", None, 100, 100000),
    Key("detection.discriminative_penalty_strength", "int", 70, "How hard differing dates/amounts/ids pull the score down, percent", None, 0, 100),
    Key("detection.containment", "bool", True, "Count a copy missing a page or with a cover sheet as similar (containment)"),
    Key("detection.report_revisions", "bool", True, "Report a newer version of a document (new version date, a few clauses changed) as a revision"),
    Key("detection.ignore_derived", "bool", True, "Do not report merge/split results and versions as duplicates of their sources"),
    Key("detection.pictures", "bool", True, "Compare documents with too little text (or only OCR junk) by their first page's picture"),
    Key("detection.seed", "int", 1, "MinHash seed (datasketch's default is 1)", None, 0, 2**32 - 1),
    Key("detection.languages", "languages", "auto",
        "Languages of the documents: auto = told per document (PAPERLESS_OCR_LANGUAGE as a hint), or a list such "
        "as [\"fr\", \"de\"]; rebuild-index after a change", None, choices=LANGUAGE_CODES),
    Key("actions.tag", "str", "possible-duplicate", "Tag for the newer document of a pair (empty: no tag)"),
    Key("actions.note", "bool", True, "Add a note naming each match with its scores"),
    Key("actions.link_field", "str", "Possible duplicates", "documentlink custom field holding the matches (empty: none)"),
    Key("actions.saved_view", "str", "Possible duplicates", "Saved view of the tagged documents, newest first, created when missing (empty: none)"),
    Key("actions.pin_saved_view", "bool", False, "Show that view on the dashboard and in the sidebar when creating it (changes your UI settings)"),
    Key("actions.dry_run", "bool", False, "Log what would be written to Paperless, write nothing"),
    Key("actions.confirm_tag", "str", "duplicate-confirmed", "Tag with which a user confirms a copy for resolve (empty: only resolve COPY)"),
    Key("actions.resolve_mode", "choice", "trash", "What resolve does with a copy: trash, or version (3.x: its file stored as a version of the keeper first)", None, choices=("trash", "version")),
    Key("hook.strict", "bool", False, "Exit non-zero when the hook cannot do its job (fails the consume!)"),
    Key("hook.timeout_seconds", "float", 60.0, "The hook gives up after this many seconds", None, 1, 3600),
)
KEY_BY_NAME = {k.name: k for k in KEYS}
