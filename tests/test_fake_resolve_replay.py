"""The fake Paperless answers the recorded resolving exchanges as Paperless 3.0.5 did.

``paperless-api/resolve.json`` (seq 1000-1171) is replayed in its order against a fake
seeded with the recording's twelve documents: each request is sent as recorded, and the
answer must have the recorded status, the same kind of body and, for JSON, the same
structure and values (timestamps, durations and task row ids only by type).  The records
left out need what the fake does not serve: correspondents and document types as
objects, ``next_asn``, ``?version=`` on the document detail, merges, other users, bulk
deletes, and the trash listings that depend on them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fake_paperless import FakePaperless
from tests.resolve_support import RECORDING

REPLAYED = (
    1031, 1032, 1033, 1034, 1035, 1036, 1037, 1038, 1040, 1041, 1042, 1043, 1044, 1045, 1046, 1047, 1048, 1049,
    1050, 1051, 1052, 1053, 1055, 1056, 1060, 1061, 1063, 1068, 1069, 1070, 1071, 1072, 1073, 1074, 1075, 1076,
    1077, 1078, 1080, 1081, 1082, 1084, 1085, 1086, 1089, 1090, 1091, 1092, 1093, 1094, 1095, 1096, 1097, 1098,
    1100, 1109, 1110, 1111, 1112, 1113, 1128, 1130, 1131,
)
_TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
_VOLATILE = {"duration_seconds", "wait_time_seconds", "task_id"}  # task ids: the fake makes its own

pytestmark = pytest.mark.skipif(not RECORDING.is_file(), reason="the recordings (paperless-api/) are not here")


def _records() -> dict[int, dict[str, Any]]:
    return {r["seq"]: r for r in json.loads(RECORDING.read_text(encoding="utf-8"))}


def _seed(fake: FakePaperless, records: dict[int, dict[str, Any]]) -> None:
    for doc in records[1024]["response"]["json"]["results"]:
        fake.add_document(id=doc["id"], title=doc["title"], content=doc["content"], created=doc["created"],
                          added=doc["added"], modified=doc["modified"], original_file_name=doc["original_file_name"],
                          mime_type=doc["mime_type"], page_count=doc["page_count"],
                          checksum=doc["versions"][0]["checksum"])
    fake.add_tag("tax-2025", tag_id=1)
    fake.add_tag("resolved-duplicate", tag_id=2)
    fake.add_custom_field("Reference", "string", field_id=1)
    fake.add_custom_field("Related documents", "documentlink", field_id=2)
    fake.add_correspondent(1, "Hausverwaltung Berger")


def _same(recorded: Any, got: Any, where: str, problems: list[str]) -> None:
    if isinstance(recorded, dict) and isinstance(got, dict):
        if set(recorded) != set(got):
            problems.append(f"{where}: keys {sorted(set(recorded) ^ set(got))} differ")
        for key in set(recorded) & set(got):
            if key in _VOLATILE or (key == "id" and "task_id" in recorded):
                continue
            _same(recorded[key], got[key], f"{where}.{key}", problems)
    elif isinstance(recorded, list) and isinstance(got, list):
        if len(recorded) != len(got):
            problems.append(f"{where}: {len(got)} items, recorded {len(recorded)}")
        for i, (a, b) in enumerate(zip(recorded, got, strict=False)):
            _same(a, b, f"{where}[{i}]", problems)
    elif isinstance(recorded, str) and _TIMESTAMP.match(recorded):
        if not (isinstance(got, str) and _TIMESTAMP.match(got)):
            problems.append(f"{where}: {got!r} is no timestamp")
    elif recorded != got:
        problems.append(f"{where}: {got!r}, recorded {recorded!r}")


def _send(http: httpx.Client, fake: FakePaperless, record: dict[str, Any], aliases: dict[str, str]) -> httpx.Response:
    req = record["request"]
    query = req["query"]
    for old, new in aliases.items():
        query = query.replace(old, new)
    headers = {"Accept": req["headers"].get("Accept", "application/json; version=10"),
               "Authorization": f"Token {fake.token}"}
    url = fake.url + req["path"] + (f"?{query}" if query else "")
    if req.get("multipart"):
        files, data = {}, {}
        for key, value in req["multipart"].items():
            if isinstance(value, dict):
                files[key] = (value["filename"], value["text"].encode("utf-8"), value["content_type"])
            else:
                data[key] = value
        return http.request(req["method"], url, headers=headers, data=data, files=files)
    if req.get("json") is not None:
        return http.request(req["method"], url, headers=headers, json=req["json"])
    return http.request(req["method"], url, headers=headers)


def test_the_fake_answers_the_recorded_resolving_exchanges(tmp_path: Path) -> None:
    records = _records()
    fake = FakePaperless().start()
    problems: list[str] = []
    aliases: dict[str, str] = {}
    try:
        _seed(fake, records)
        with httpx.Client(timeout=10.0) as http:
            for seq in REPLAYED:
                record = records[seq]
                resp = _send(http, fake, record, aliases)
                want = record["response"]
                where = f"seq {seq} {record['name'][:50]}"
                if resp.status_code != want["status"]:
                    problems.append(f"{where}: status {resp.status_code}, recorded {want['status']}: {resp.text[:200]}")
                    continue
                kind = want["headers"].get("content-type", "").split(";")[0]
                if resp.headers.get("content-type", "").split(";")[0] != kind:
                    problems.append(f"{where}: content type {resp.headers.get('content-type')!r}, recorded {kind!r}")
                for header in ("content-disposition", "content-length"):
                    if header in want["headers"] and resp.headers.get(header) != want["headers"][header]:
                        problems.append(f"{where}: {header} {resp.headers.get(header)!r}, "
                                        f"recorded {want['headers'][header]!r}")
                if "json" in want:
                    got = resp.json()
                    if isinstance(want["json"], str) and isinstance(got, str):  # a task id
                        aliases[want["json"]] = got
                        continue
                    _same(want["json"], got, where, problems)
                elif want.get("text") and kind != "text/plain":
                    if resp.text != want["text"]:
                        problems.append(f"{where}: body {resp.text[:120]!r}, recorded {want['text'][:120]!r}")
                elif want.get("text"):
                    if resp.text != want["text"]:
                        problems.append(f"{where}: file differs from the recorded download")
    finally:
        fake.stop()
    assert not fake.errors, "\n".join(fake.errors)
    assert not problems, "\n".join(problems)
