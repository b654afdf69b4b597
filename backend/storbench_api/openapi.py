"""What the OpenAPI schema says beyond each route's own models, stated once for every route.

`document_errors(app)` makes the schema list every error an operation can answer, in the one error
shape (ErrorOut), derived from what the operation depends on:

- a signed-in caller (deps.current_principal): 401; 403 when it needs more than a viewer's role, or
  when it changes something (a browser session must send its CSRF token)
- a host's credential (deps.current_host): 401
- a public sign-in (deps.PUBLIC_ROUTES): 401 for a wrong credential, 429 when tried too often
- a path parameter (a resource's id): 404
- a request body: 413 (kit.body) and 422; any parameter: 422; none: 422 all the same (a query
  parameter the operation does not declare, query_params.py)
- every operation: 503 (the service was too busy to take the request in time)

plus what the route declares its domain raises beyond that: `responses=errors(Conflict, ...)`.
An operation whose 422 also covers rules JSON Schema cannot state (fio's grammar, a host's allowed
paths, another team's ids) says so with `openapi_extra=rules_beyond_schema("...")`.

`answer_unrouted_methods(app)` answers a method an API path does not take with 405 and an Allow
header listing what the path does take (every route of it, not the first one Starlette tried),
OPTIONS with 204 and that Allow header, and an unknown API path with 404.
"""

import re
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute, iter_route_contexts

from storbench_api import deps
from storbench_api.errors import DomainError, ErrorOut, error_body
from storbench_api.models import Role

RULES_BEYOND_SCHEMA = "x-rules-beyond-schema"
_HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_DESCRIPTIONS = {
    401: "Not signed in, or the credential is wrong, expired or revoked",
    403: "Signed in, but without the right to do this (role, or a browser session's CSRF token)",
    404: "No such resource in your team",
    409: "The request clashes with the current state",
    413: "The request body is larger than this operation accepts",
    422: "The request cannot be accepted: one {field or option, value, reason} per problem",
    429: "Too many attempts: retry after the number of seconds in Retry-After",
    503: "The service is busy or a service it needs is unreachable: retry shortly",
}


def errors(*raised: type[DomainError]) -> dict[int | str, dict[str, Any]]:
    """responses= for a route: the domain errors it raises beyond what its dependencies imply."""
    return {
        cls.status_code: {"description": _first_line(cls.__doc__) or _DESCRIPTIONS[cls.status_code]}
        for cls in raised
    }


def rules_beyond_schema(rules: str) -> dict[str, Any]:
    """openapi_extra for an operation whose 422 also enforces rules the schema cannot state."""
    return {RULES_BEYOND_SCHEMA: {"status": 422, "rules": rules}}


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0].rstrip(".") if text else ""


def _calls(dependant: Dependant) -> Iterable[Callable[..., Any]]:
    """Every dependency the route's dependencies pull in, however deep."""
    pending = list(dependant.dependencies)
    while pending:
        dependency = pending.pop()
        if dependency.call is not None:
            yield dependency.call
        pending.extend(dependency.dependencies)


def _has_parameters(dependant: Dependant) -> bool:
    if dependant.path_params or dependant.query_params or dependant.header_params or dependant.cookie_params:
        return True
    return any(_has_parameters(d) for d in dependant.dependencies)


def implied_errors(route: APIRoute, public: deps.PublicAccess | None) -> dict[int, str]:
    """The error statuses an operation can answer because of what it depends on, with why."""
    found: dict[int, str] = {503: "The service was too busy to take the request in time: retry shortly"}
    calls = set(_calls(route.dependant))
    unsafe = bool(set(route.methods or ()) - _SAFE_METHODS)
    if deps.current_principal in calls:
        found[401] = _DESCRIPTIONS[401]
        minimum = max(
            (getattr(call, "minimum_role", Role.viewer) for call in calls),
            key=lambda role: deps.RANK[role],
        )
        if unsafe or deps.RANK[minimum] > deps.RANK[Role.viewer]:
            found[403] = _DESCRIPTIONS[403]
    if deps.current_host in calls:
        found[401] = "No host credential, or it is unknown or revoked"
    if public == "sign_in":
        found[401] = "Wrong credentials (email and password, or the token sent)"
        found[429] = _DESCRIPTIONS[429]
    if route.dependant.path_params or any(d.path_params for d in route.dependant.dependencies):
        found[404] = _DESCRIPTIONS[404]
    if route.body_field is not None:
        found[413] = _DESCRIPTIONS[413]
    if route.body_field is not None or _has_parameters(route.dependant):
        found[422] = _DESCRIPTIONS[422]
    else:
        # Every operation refuses query parameters it does not declare (query_params.py).
        found[422] = "A query parameter this operation does not take"
    return found


def _error_content() -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}


def _add_error_schemas(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    generated = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(generated.pop("$defs", {}))
    components["ErrorOut"] = generated
    # FastAPI's default 422 body, which this API never sends.
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)


def _document_operation(operation: dict[str, Any], route: APIRoute, public: deps.PublicAccess | None) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    for status, description in implied_errors(route, public).items():
        # A status the route declares too (errors(...)) keeps its own words first.
        declared = route.responses.get(status, {}).get("description")
        if declared and declared != description:
            description = f"{declared}; or: {description[0].lower()}{description[1:]}"
        responses[str(status)] = {"description": description}
    rules = operation.get(RULES_BEYOND_SCHEMA)
    if rules and "422" in responses:
        responses["422"]["description"] = f"{_DESCRIPTIONS[422]}. Beyond the schema: {rules['rules']}"
    for code, response in responses.items():
        if code.isdigit() and int(code) >= 400:
            response["content"] = _error_content()


def document_errors(app: FastAPI) -> None:
    """Make app.openapi() list every operation's error responses (see the module's docstring)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        for context in iter_route_contexts(app.routes):
            route, path = context.original_route, context.path_format
            if not isinstance(route, APIRoute) or not route.include_in_schema or path is None:
                continue
            for method in context.methods or ():
                operation = schema["paths"].get(path, {}).get(method.lower())
                if operation is not None:
                    _document_operation(operation, route, deps.PUBLIC_ROUTES.get((method, path)))
        _add_error_schemas(schema)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def answer_unrouted_methods(app: FastAPI, prefix: str) -> None:
    """405 with the path's real Allow header, 204 to OPTIONS, 404 for an unknown path under prefix.

    Added after the API's routes: Starlette tries it only when no route took the path and method.
    """
    table: list[tuple[re.Pattern[str], frozenset[str]]] = []

    def allowed(path: str) -> list[str]:
        if not table:
            for context in iter_route_contexts(app.routes):
                route_path = context.path or ""
                if route_path.startswith(prefix) and context.endpoint is not unrouted:
                    table.append((re.compile(context.path_regex.pattern), frozenset(context.methods or ())))
        methods = set().union(*(methods for regex, methods in table if regex.match(path)))
        return sorted(methods - {"HEAD"})

    async def unrouted(request: Request) -> Response:
        methods = allowed(request.url.path)
        if not methods:
            return JSONResponse(error_body("not_found", f"no API route {request.url.path}"), 404)
        allow = ", ".join([*methods, "OPTIONS"])
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": allow})
        message = f"{request.method} is not allowed on {request.url.path}: it takes {allow}"
        return JSONResponse(error_body("method_not_allowed", message), 405, headers={"Allow": allow})

    app.add_route(f"{prefix}/{{path:path}}", unrouted, methods=list(_HTTP_METHODS), include_in_schema=False)
