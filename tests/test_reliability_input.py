"""Hostile input through the hook (issue item 4): odd contents, a 20 MB text, odd
``DOCUMENT_ID`` values, a document Paperless does not know, JSON that decodes to
lone surrogates.  The real ``hook.main()`` runs in this process (fast); the e2e
tests cover the console script with the basic ``DOCUMENT_ID`` cases."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fake_paperless import FakePaperless
from tests.reliability_support import (
    annotation_state,
    assert_nothing_deleted,
    canary_guard,  # noqa: F401 - session fixture: the token never appears in any output
    corpus,
    hook_in_process,
    index_health,
    new_fake,
    prose,
    vocabulary,
)

HookRun = Callable[..., tuple[int, str, str, float]]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakePaperless]:
    server = new_fake()
    yield server
    server.stop()
    assert_nothing_deleted(server)
    assert not server.errors


@pytest.fixture
def hook_here(fake: FakePaperless, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> HookRun:
    def go(doc_id: object, **env: str) -> tuple[int, str, str, float]:
        return hook_in_process(monkeypatch, capsys, tmp_path, fake.url, doc_id, "hook", **env)

    return go


def _words(alphabet: str, rng: random.Random, n: int, length: tuple[int, int] = (2, 7)) -> list[str]:
    vocab = ["".join(rng.choice(alphabet) for _ in range(rng.randint(*length))) for _ in range(400)]
    return [rng.choice(vocab) for _ in range(n)]


def _twin(words: list[str], rng: random.Random) -> list[str]:
    twin = list(words)
    del twin[rng.randrange(len(twin))]
    twin[rng.randrange(len(twin))] = twin[0]
    return twin


ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهوي"
HEBREW = "אבגדהוזחטיכלמנסעפצקרשת"
HANGUL = "가나다라마바사아자차카타파하거너더러머버서어저처"


def test_odd_contents_never_fail_the_hook(fake: FakePaperless, hook_here: HookRun) -> None:
    rng = random.Random(8)
    vocab = vocabulary(rng, 800)
    base = prose(rng, vocab, 60)
    cases = {
        "empty": "",
        "whitespace-only": " \n\t\r\n   \u00a0\u2003\n" * 50,
        "nul-and-controls": base.replace(" ", " \x00\x01\x07\x1b\x7f ", 20) + "\x00" * 100,
        "zero-width-and-bidi": "\u202e" + base.replace(" ", "\u200b ", 30) + "\u202c\ufeff",
        "emoji-and-symbols": "🧾 " + base + " 💶€€€ ✓✗ \U0001f600" * 3,
        "combining-marks": "".join(ch + "\u0301\u0308" if ch.isalpha() else ch for ch in base[:400]),
        "cjk-without-spaces": "東京都渋谷区請求書合計金額円" * 40,
        "one-huge-word": "x" * 200_000,
        "many-lines": "\n".join(base.split(" ")),
    }
    ids = {}
    for name, content in cases.items():
        ids[name] = fake.add_document(title=f"odd {name}", content=content)["id"]
    for name, doc_id in ids.items():
        code, out, err, _ = hook_here(doc_id)
        assert code == 0 and err == "", (name, err)
        assert f"document {doc_id}" in out, (name, out)
    # Variants of one text stay duplicates of each other: NUL, controls, bidi and
    # zero-width characters, combining accents, emoji and line breaks neither break nor hide a match.
    derived = {ids[n] for n in ("nul-and-controls", "zero-width-and-bidi", "emoji-and-symbols", "many-lines",
                                "combining-marks")}  # (the last: the first 400 characters, accented: contained)
    state = annotation_state(fake)
    flagged = {doc_id for doc_id in ids.values() if state[doc_id]["notes"]}
    assert flagged == derived - {min(derived)}, (flagged, derived)
    for doc_id in flagged:
        assert {x for note in state[doc_id]["notes"] for x in note} == {d for d in derived if d < doc_id}


@pytest.mark.parametrize("alphabet", [pytest.param(ARABIC, id="arabic"), pytest.param(HEBREW, id="hebrew"),
                                      pytest.param(HANGUL, id="hangul")])
def test_right_to_left_and_cjk_twins_are_found(fake: FakePaperless, hook_here: HookRun, alphabet: str) -> None:
    rng = random.Random(len(alphabet))
    words = _words(alphabet, rng, 90)
    lines = [" ".join(words[i : i + 9]) for i in range(0, 90, 9)]
    older = fake.add_document(title="original " + words[0], content="\n".join(lines))["id"]
    newer = fake.add_document(title="re-scan " + words[1], content="\n".join(" ".join(_twin(words, rng)[i : i + 9])
                                                                            for i in range(0, 89, 9)))["id"]
    other = fake.add_document(title="other", content=" ".join(_words(alphabet, random.Random(99), 90)))["id"]
    for doc_id in (older, other):
        assert hook_here(doc_id)[0] == 0
    code, out, err, _ = hook_here(newer)
    assert code == 0 and err == "", err
    assert f"#{older}" in out and f"#{other}" not in out, out
    note = fake.document(newer)["notes"][0]["note"]
    assert words[0] in note  # the title, in its script, survives into the note


@pytest.fixture(scope="module")
def twenty_megabytes() -> str:
    """20 MB of prose: 300 paragraphs of 80 words, repeated in random order."""
    rng = random.Random(20)
    vocab = vocabulary(rng, 3000)
    paragraphs = [prose(rng, vocab, 80) for _ in range(300)]
    parts, size = [], 0
    while size < 20_000_000:
        part = rng.choice(paragraphs)
        parts.append(part)
        size += len(part) + 2
    return "\n\n".join(parts)[:20_000_000]


def test_twenty_megabytes_of_text(fake: FakePaperless, hook_here: HookRun, tmp_path: Path,
                                  twenty_megabytes: str) -> None:
    big = twenty_megabytes
    doc_id = fake.add_document(title="a 20 MB scan", content=big)["id"]
    code, out, err, _elapsed = hook_here(doc_id)
    assert code == 0 and err == "", err  # within hook.timeout_seconds: no "gave up" line
    assert f"document {doc_id}" in out
    index = tmp_path / "index.sqlite3"
    assert doc_id in index_health(index)["documents"]
    stored = sum(p.stat().st_size for p in tmp_path.glob("index.sqlite3*"))
    assert stored < 5_000_000, stored  # the index keeps samples and a signature, not the text


def test_work_that_cannot_meet_the_deadline_is_stopped_by_the_alarm(
    fake: FakePaperless, hook_here: HookRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The CPU-bound part never ends (the real signing of the document, again and
    again): only the hook's SIGALRM can stop it, after every HTTP request is done, so
    the HTTP deadline cannot be what stops it."""
    from paperless_dedupe_hook.core import features

    lib = corpus(77, documents=2, pairs=0)
    doc_id = fake.add_document(title="endless", content=lib.docs[0]["content"])["id"]
    real = features.compute
    rounds: list[int] = []

    def endless(*args: Any, **kwargs: Any) -> Any:
        while True:  # work no deadline can meet
            real(*args, **kwargs)
            rounds.append(1)

    monkeypatch.setattr(features, "compute", endless)
    code, _out, err, _elapsed = hook_here(doc_id, PAPERLESS_DEDUPE_HOOK_TIMEOUT_SECONDS="2")
    assert code == 0
    assert err.strip().splitlines() == [
        f"WARNING paperless-dedupe-hook: document {doc_id} not checked: gave up after hook.timeout_seconds = 2 s: "
        "raise it or check Paperless's response time"], err
    assert rounds, "the work never ran"
    assert not (tmp_path / "index.sqlite3").exists() or doc_id not in index_health(tmp_path / "index.sqlite3")["documents"]


@pytest.mark.parametrize("raw", ["-3", "0", "1.5", "   ", "12abc", "0x10", "1e3", "DOCUMENT_ID", "None ", "٣x"])
def test_bad_document_ids(hook_here: HookRun, raw: str) -> None:
    code, out, err, _ = hook_here(raw)
    assert code == 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "DOCUMENT_ID" in lines[0], err
    assert hook_here(raw, PAPERLESS_DEDUPE_HOOK_STRICT="true")[0] == 2  # usage error when strict


@pytest.mark.parametrize("doc_id", [424242, 10**30])
def test_document_paperless_does_not_know(hook_here: HookRun, doc_id: int) -> None:
    code, _out, err, _ = hook_here(doc_id)
    assert code == 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "404" in lines[0] and str(doc_id) in lines[0], err


def test_lone_surrogate_escapes_in_json_are_replaced(fake: FakePaperless, hook_here: HookRun, tmp_path: Path) -> None:
    """JSON may escape half of a UTF-16 pair (``"\\ud800"``): json.loads gives a string
    no UTF-8 encoder accepts.  The client turns it into U+FFFD."""
    rng = random.Random(3)
    content = prose(rng, vocabulary(rng, 500), 60)
    doc_id = fake.add_document(title="plain", content=content)["id"]
    body = json.dumps({"id": doc_id, "title": "Rechnung \ud800 M\udc00ller", "content": content + " \ud83d",
                       "modified": "2026-01-01T00:00:00Z", "tags": [], "custom_fields": []})
    assert "\\ud800" in body
    fake.inject("status", path_regex=rf"/api/documents/{doc_id}/$", method="GET", times=None, status=200,
                text=body, content_type="application/json")
    try:
        code, out, err, _ = hook_here(doc_id)
    finally:
        fake.clear_faults()
    assert code == 0 and err == "", err
    assert doc_id in index_health(tmp_path / "index.sqlite3")["documents"]
