"""Domain errors and the one JSON error shape every failure is answered with."""

from typing import Any, get_args

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy.exc import DataError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

# What FastAPI says when a body cannot be decoded at all (not UTF-8); Starlette's form parser says
# its own words ("Invalid multipart data."). Both are 400s about the body, as are all the framework's.
_UNPARSABLE_BODY = "There was an error parsing the body"


class ErrorItem(BaseModel):
    """One offending field or fio option, and why."""

    field: str | None = None
    option: str | None = None
    job: str | None = None
    value: str | None = None
    reason: str


class ErrorOut(BaseModel):
    """The one error shape: a stable code, a message to show, and the offending fields or options."""

    code: str
    message: str
    errors: list[ErrorItem] = []


class DomainError(Exception):
    """An expected condition with its HTTP status; never a 500."""

    status_code = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or []
        self.headers = headers or {}


class BrokerUnavailable(DomainError):
    """The message broker refused or timed out."""

    status_code = 503
    code = "broker_unavailable"


class NotFound(DomainError):
    """The resource does not exist in the caller's team."""

    status_code = 404
    code = "not_found"


class Conflict(DomainError):
    """The request clashes with the current state."""

    status_code = 409
    code = "conflict"


class Invalid(DomainError):
    """The request is well-formed but its content cannot be accepted."""

    status_code = 422
    code = "validation_error"


class PayloadTooLarge(DomainError):
    """A body or upload above the service's limit."""

    status_code = 413
    code = "too_large"


class Unauthorized(DomainError):
    """No valid credentials."""

    status_code = 401
    code = "unauthorized"


class Forbidden(DomainError):
    """Valid credentials without the right to do this."""

    status_code = 403
    code = "forbidden"


def error_body(code: str, message: str, errors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON error shape: code, message, and per-field or per-option errors."""
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return body


def _field_name(loc: tuple[Any, ...]) -> str:
    """'body.jobs.0.bs' → 'jobs.0.bs': the first element only says where the field was sent."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "form", "header"):
        parts = parts[1:] or parts
    return ".".join(parts)


def _reason(message: str) -> str:
    return message.removeprefix("Value error, ")


def model_in(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds (itself, or inside a list, an optional or Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return next((m for arg in get_args(annotation) if (m := model_in(arg)) is not None), None)


def _fields_taken(route: APIRoute | None, loc: tuple[Any, ...]) -> list[str] | None:
    """The fields of the body model holding the field at loc (None: not known)."""
    if route is None or len(route.dependant.body_params) != 1 or not loc or loc[0] != "body":
        return None
    annotation: Any = route.dependant.body_params[0].field_info.annotation
    for part in loc[1:-1]:
        model = model_in(annotation)
        if model is not None and isinstance(part, str) and part in model.model_fields:
            annotation = model.model_fields[part].annotation
    model = model_in(annotation)
    return sorted(f.alias or name for name, f in model.model_fields.items()) if model else None


def _unknown_field_reason(route: APIRoute | None, loc: tuple[Any, ...]) -> str:
    taken = _fields_taken(route, loc)
    return f"not a field of this body (it takes: {', '.join(taken)})" if taken else "not a field of this body"


def request_validation_errors(
    exc: RequestValidationError, route: APIRoute | None = None
) -> list[dict[str, Any]]:
    """Pydantic's errors as {field, reason} items a person can act on.

    A field the body does not declare is named with the fields it does take (route: the operation).
    """
    items = []
    for err in exc.errors():
        loc = tuple(err.get("loc", ()))
        unknown = err.get("type") == "extra_forbidden"
        item: dict[str, Any] = {
            "field": _field_name(loc),
            "reason": _unknown_field_reason(route, loc) if unknown else _reason(err["msg"]),
        }
        if "input" in err and isinstance(err["input"], str | int | float | bool):
            item["value"] = str(err["input"])
        items.append(item)
    return items


def install_error_handlers(app: FastAPI) -> None:
    """Map every error to the one JSON shape."""

    @app.exception_handler(DomainError)
    async def _domain(_: Request, exc: DomainError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status_code == 401 else {}
        headers.update(exc.headers)
        return JSONResponse(
            error_body(exc.code, exc.message, exc.errors), status_code=exc.status_code, headers=headers
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        route = request.scope.get("route")
        errors = request_validation_errors(exc, route if isinstance(route, APIRoute) else None)
        first = errors[0] if errors else {"field": "body", "reason": "invalid request"}
        message = f"{first['field']}: {first['reason']}"
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more)"
        return JSONResponse(error_body("validation_error", message, errors), status_code=422)

    @app.exception_handler(DataError)
    @app.exception_handler(OverflowError)
    async def _data(_: Request, exc: Exception) -> JSONResponse:
        # The request was valid for the API but a value does not fit the database column
        # (PostgreSQL says DataError; SQLite's driver raises OverflowError beyond 64 bits).
        return JSONResponse(
            error_body("validation_error", "a value is out of the range this service can store"),
            status_code=422,
        )

    @app.exception_handler(OperationalError)
    async def _database_down(_: Request, exc: OperationalError) -> JSONResponse:
        # PostgreSQL restarting, unreachable, or the connection dropped mid-request: measured with
        # bench/faults.py, every request during a crash answered 500 before. It is not the caller's
        # fault and retrying shortly works; workers and clients retry a 503.
        return JSONResponse(
            error_body("database_unavailable", "the database did not answer: try again in a few seconds"),
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # Like a body that is not JSON: one status for "this body cannot be used".
            reason = "the body could not be read: send UTF-8 JSON (or the form the operation takes)"
            if exc.detail != _UNPARSABLE_BODY:
                reason = f"{reason}; {str(exc.detail).rstrip('.')}"
            return JSONResponse(
                error_body("validation_error", f"body: {reason}", [{"field": "body", "reason": reason}]),
                status_code=422,
            )
        code = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized"}.get(
            exc.status_code, "http_error"
        )
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )
