"""Conventions of the API's bodies that pydantic does not have out of the box."""

from typing import Any

from pydantic import BaseModel, create_model, model_serializer


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
