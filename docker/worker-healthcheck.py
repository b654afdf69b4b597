#!/usr/bin/env python3
"""Healthy when the server answers this worker's own credential: reachable, and the host not revoked."""

import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

state_dir = Path(os.environ.get("STORBENCH_WORKER_STATE_DIR", "/var/lib/storbench-worker"))
saved = state_dir / "credential"  # what an enrollment token was exchanged for
token = saved.read_text().strip() if saved.exists() else os.environ.get("STORBENCH_WORKER_TOKEN", "")
server = os.environ.get("STORBENCH_SERVER", "").rstrip("/")
request = urllib.request.Request(f"{server}/api/v1/worker/me", headers={"Authorization": f"Bearer {token}"})
try:
    with urllib.request.urlopen(request, timeout=8) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except (urllib.error.URLError, OSError) as exc:
    sys.exit(f"server {server} did not accept this worker: {exc}")
