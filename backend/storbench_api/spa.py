"""Serving the built single-page app from the API process, so one URL serves both."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response

_MISSING = """<!doctype html><title>storbench</title>
<p>The web UI has not been built. Run <code>make up</code> (or <code>npm run build</code> in frontend/).</p>
<p>The API is at <a href="/docs">/docs</a>.</p>"""


def mount_spa(app: FastAPI, spa_dir: Path) -> None:
    """Files from spa_dir; index.html for any other path (client-side routes).

    API paths never get here: openapi.answer_unrouted_methods answers every path under /api.
    """
    root = spa_dir.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    def spa(path: str) -> Response:
        index = root / "index.html"
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            headers = (
                {"Cache-Control": "public, max-age=31536000, immutable"} if path.startswith("assets/") else {}
            )
            return FileResponse(candidate, headers=headers)
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(_MISSING, status_code=503)
