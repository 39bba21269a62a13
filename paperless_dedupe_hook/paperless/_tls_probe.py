"""``http://`` in paperless.url, but the port speaks HTTPS: told precisely.

A TLS server that receives a plain HTTP request resets the connection (Python, Node),
sends a TLS alert that httpx reads as an illegal status line, or answers 400 with a
sentence of its own (nginx: "The plain HTTP request was sent to HTTPS port"; Go and
Caddy: "Client sent an HTTP request to an HTTPS server").  The sentences are matched
on the answer; for the other two, one TLS handshake with that port (only after such a
failure, at most ``PROBE_SECONDS``) tells whether it speaks TLS.
"""

from __future__ import annotations

import socket
import ssl
from urllib.parse import urlsplit

HTTPS_PORT_FIX = ("the server speaks HTTPS on that port: use https:// in paperless.url, or the port where "
                  "Paperless serves plain HTTP (inside its container: http://localhost:8000)")
PROBE_SECONDS = 1.0
# What a TLS port says in words to a plain HTTP request (nginx, Go's net/http and Caddy).
_SENTENCES = ("plain http request was sent to https port", "http request to an https server")
# Transport errors a TLS port causes (not "connection refused": nothing listens there).
_SIGNS = ("reset by peer", "disconnected without sending", "illegal status line", "connection reset")


def says_https_port(body: bytes) -> bool:
    text = body[:2000].decode("utf-8", errors="replace").lower()
    return any(sentence in text for sentence in _SENTENCES)


def speaks_tls(url: str, exc_text: str) -> bool:
    """For an ``http://`` URL whose request failed with ``exc_text``: does the port
    complete a TLS handshake?"""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname or not any(s in exc_text.lower() for s in _SIGNS):
        return False
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # only whether it speaks TLS: no data is sent
    try:
        with socket.create_connection((parts.hostname, parts.port or 80), timeout=PROBE_SECONDS) as raw, \
                context.wrap_socket(raw, server_hostname=parts.hostname):
            return True
    except (OSError, ssl.SSLError):
        return False
