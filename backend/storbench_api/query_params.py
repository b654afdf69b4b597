"""Query parameters an operation does not declare are refused (422), never silently ignored.

A filter the API does not know (`?label=` before it existed, a typo such as `?storage-class=`)
used to be dropped and the full list answered, which looks exactly like a filter that matched
everything. `reject_unknown_query_parameters` is a dependency of the API router: it compares the
request's query keys with the parameters the matched route declares (its dependant tree, as
FastAPI reads them) and answers 422 naming the unknown ones and listing what the operation takes.
"""

from typing import Any

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel

from storbench_api.errors import Invalid


def _model_fields(annotation: Any) -> set[str] | None:
    """The query names of a pydantic model taken as query parameters (FastAPI's `Annotated[M, Query()]`)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {field.alias or name for name, field in annotation.model_fields.items()}
    return None


def _declared(dependant: Dependant) -> set[str]:
    names: set[str] = set()
    for param in dependant.query_params:
        names |= _model_fields(param.field_info.annotation) or {param.alias}
    for sub in dependant.dependencies:
        names |= _declared(sub)
    return names


# Routes are built once per application; keyed by identity (routes compare by value, unhashable).
_DECLARED: dict[int, tuple[APIRoute, frozenset[str]]] = {}


def declared_query_parameters(route: APIRoute) -> frozenset[str]:
    """Every query parameter `route` reads, however deep in its dependencies."""
    known = _DECLARED.get(id(route))
    if known is None or known[0] is not route:
        known = (route, frozenset(_declared(route.dependant)))
        _DECLARED[id(route)] = known
    return known[1]


def reject_unknown_query_parameters(request: Request) -> None:
    """Dependency: 422 when the query string holds a parameter the operation does not declare."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not request.query_params:
        return
    accepted = declared_query_parameters(route)
    unknown = sorted({key for key in request.query_params if key not in accepted})
    if not unknown:
        return
    takes = ", ".join(sorted(accepted)) if accepted else "no query parameters"
    reason = f"not a parameter of this operation (it takes: {takes})"
    names = ", ".join(unknown)
    raise Invalid(
        f"unknown query parameter{'s' if len(unknown) > 1 else ''} {names}: this operation takes {takes}",
        errors=[{"field": name, "reason": reason} for name in unknown],
    )
