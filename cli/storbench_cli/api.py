"""A thin client of storbench's REST API under /api/v1; every failure becomes a CliError."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx

from . import __version__
from .errors import ApiError, Unreachable

API_PREFIX = "/api/v1"
PAGE_SIZE = 500  # the largest page every list endpoint accepts
# Connecting should be quick; an import of a large fio output may take a while to parse.
TIMEOUT = httpx.Timeout(60.0, connect=10.0)


def _error_from(response: httpx.Response) -> ApiError:
    """The API's {code, message, errors} body, or what a non-storbench answer said."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        errors = body.get("errors")
        return ApiError(
            response.status_code,
            str(body.get("code", "error")),
            body["message"],
            [e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else [],
        )
    text = " ".join(response.text.split())[:200] or response.reason_phrase
    return ApiError(
        response.status_code, "http_error", f"HTTP {response.status_code} from {response.url}: {text}"
    )


class Api:
    """Authenticated calls to one storbench service."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self._token = token
        self._http = self._new_http()

    def _new_http(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.url + API_PREFIX,
            headers={"Authorization": f"Bearer {self._token}", "User-Agent": f"storbench-cli/{__version__}"},
            timeout=TIMEOUT,
        )

    def __enter__(self) -> Api:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._http.close()

    def reconnect(self) -> None:
        """Drop pooled connections, e.g. after Ctrl-C interrupted a request half-way."""
        self._http.close()
        self._http = self._new_http()

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """The decoded JSON answer of a call, ApiError for a non-2xx answer, Unreachable without one."""
        try:
            response = self._http.request(method, path, **kwargs)
        except (httpx.TransportError, httpx.InvalidURL) as exc:
            raise Unreachable(self.url, str(exc) or type(exc).__name__) from exc
        if response.is_error:
            raise _error_from(response)
        if response.status_code == 204:  # done, nothing to say
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise ApiError(
                response.status_code, "bad_response", f"{self.url} did not answer with JSON; is it storbench?"
            ) from exc

    def get_text(self, path: str, params: dict[str, Any] | None = None) -> str:
        """GET a file the API writes (CSV, …) as text, dropping parameters that are None."""
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self._http.request("GET", path, params=query)
        except (httpx.TransportError, httpx.InvalidURL) as exc:
            raise Unreachable(self.url, str(exc) or type(exc).__name__) from exc
        if response.is_error:
            raise _error_from(response)
        return response.text

    def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        """GET, dropping parameters that are None."""
        return self.request("GET", path, params={k: v for k, v in (params or {}).items() if v is not None})

    def post(self, path: str, json: Any = None) -> Any:
        """POST a JSON body."""
        return self.request("POST", path, json=json)

    def list_all(self, path: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every item of a paged list endpoint ({items, total})."""
        items: list[dict[str, Any]] = []
        while True:
            page = self.get(path, {**(params or {}), "limit": PAGE_SIZE, "offset": len(items)})
            items.extend(page["items"])
            if not page["items"] or len(items) >= page["total"]:
                return items
