"""What an anonymous client or a host can throw at the served API's edge (loopback only).

Shared by tests/integration/test_edge_limits.py (what must hold) and bench/edge_limits.py (how fast).
"""

import gzip
import socket
import time
from functools import cache
from pathlib import Path
from typing import Any

import httpx


def stalled_body(port: int, path: str) -> socket.socket:
    """A connection that sent its headers and a part of its body, then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f'Content-Length: 1000\r\n\r\n{{"name": "'.encode()
    )
    return sock


def answer_until_closed(sock: socket.socket, deadline_s: float) -> bytes:
    """Everything the server sends until it closes the connection (AssertionError past the deadline)."""
    sock.settimeout(deadline_s)
    received = b""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk
    raise AssertionError(f"still open after {deadline_s} s: {received!r}")


def timed(call: Any) -> tuple[float, httpx.Response]:
    """How long a call took, and its answer."""
    started = time.monotonic()
    response = call()
    return time.monotonic() - started, response


def rss_bytes(pid: int) -> int:
    """A process's resident memory."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@cache
def gzip_bomb() -> bytes:
    """160 MiB of zeros in 159 KiB of gzip, as in the review."""
    return gzip.compress(bytes(160 * 1024 * 1024), compresslevel=9)
