"""Conventions of the API's bodies that pydantic does not have out of the box."""

import re
from typing import Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, create_model, model_serializer

# Text the databases can store: PostgreSQL refuses NUL characters in text (SQLite would keep them).
NO_NUL = r"^[^\x00]*$"
# A name: something besides blanks, and no NUL.
NAME = r"^[^\x00]*[^\s\x00][^\x00]*$"


def _json_integer(value: object) -> object:
    """A JSON number, not a string or a boolean (pydantic's lax int would take "5" and true)."""
    if isinstance(value, str | bool):
        raise ValueError("must be an integer (a JSON number, not a string or a boolean)")
    return value


# After an int's constraints (pydantic documents constraints placed after a validator as unknown
# keys): `Annotated[int, Field(ge=1, strict=False), JSON_INTEGER]` takes 5 and 5.0 (an integer to
# JSON Schema), never "5" or true, in strict and lax models alike.
JSON_INTEGER = BeforeValidator(_json_integer)


def _iso_8601(value: object) -> object:
    """A date in ISO 8601 ("2026-11-23T10:00:00Z"), not a number pydantic would read as Unix seconds."""
    if isinstance(value, str) and not re.match(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("must be a date and time in ISO 8601, such as 2026-11-23T10:00:00Z")
    return value


# A query's date and time as its schema says (format date-time): "0.5" is refused, not 1970.
ISO_DATETIME = BeforeValidator(_iso_8601)


class KnownFieldsOnly(BaseModel):
    """A request body (JSON or form) that refuses fields it does not declare: 422 naming each one.

    As unknown query parameters are refused (query_params.py): a misspelt `repetiton` would
    otherwise be dropped, and the request answered as if it had not been sent. Every request body
    of the API derives from this (tests/test_request_bodies.py holds them to it); response models
    do not, so a reader of an answer tolerates fields added later.
    """

    model_config = ConfigDict(extra="forbid")


class RequestBody(KnownFieldsOnly):
    """A JSON request body whose values must have the types its schema states: 5, not "5"; false, not 0.

    Pydantic would otherwise coerce them, and the schema would not say what the API accepts. Integers
    take JSON_INTEGER (5.0 is an integer to JSON Schema); enums and datetimes stay lax
    (`Field(strict=False)`): JSON carries them as strings. Unknown fields are refused.
    """

    model_config = ConfigDict(strict=True)


class SparseModel(BaseModel):
    """A body that holds only the fields that were given (null included), not every field it may hold.

    Its schema is its fields, all optional unless a subclass requires them: a reader sees which
    fields exist and their types, and the JSON stays what was recorded (a host's facts, an audit
    event's details, the options a job sets).
    """

    # No return annotation on purpose: pydantic would take it as the schema of the output, which
    # is the fields above, not the annotation's `dict`.
    @model_serializer(mode="wrap")
    def _given_fields_only(self, handler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {key: value for key, value in data.items() if key in self.model_fields_set}


def renamed_model(model: type[BaseModel], name: str, **types: Any) -> type[BaseModel]:
    """`model`'s fields, in its order, under another schema name, with the given fields' types replaced.

    For a model another package owns whose schema name clashes, or one of whose fields the API shows
    more precisely; a field added there appears here too.
    """
    fields: dict[str, Any] = {
        field: (types.get(field, info.annotation), info) for field, info in model.model_fields.items()
    }
    return create_model(name, __doc__=model.__doc__, **fields)
