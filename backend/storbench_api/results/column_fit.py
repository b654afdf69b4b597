"""Holding the strings of a parsed report to the columns they are stored in.

A report's job name, host name and fio version, and an upload's file name, come from outside and
went to the database unchecked: one longer than its column made PostgreSQL refuse the insert, and
the import answered 500. The sizes are read from the models here, so a migration that widens a
column widens what is accepted, with no second number to keep in step.
"""

from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import InstrumentedAttribute

from storbench_api.errors import Invalid

# A text column cannot hold NUL on PostgreSQL (SQLite would keep it): neither ever stores one.
_NUL = "\x00"
_ELLIPSIS = "…"


def length_of(column: InstrumentedAttribute[Any]) -> int:
    """The most characters the column holds."""
    sql_type = column.expression.type
    if not isinstance(sql_type, String) or sql_type.length is None:
        raise TypeError(f"{column} is not a string column of bounded length")
    return sql_type.length


def refuse_unless_fits(column: InstrumentedAttribute[Any], value: str | None, field: str, whose: str) -> None:
    """Invalid (422 naming the field and its limit) unless value fits the column as it is.

    For values that identify something (a job's series, a host, a fio version in a fingerprint):
    shortened, two different values could become one.
    """
    if value is None:
        return
    limit = length_of(column)
    if len(value) > limit:
        reason = f"is {len(value)} characters long; at most {limit} can be stored"
    elif _NUL in value:
        reason = "holds a NUL character, which cannot be stored"
    else:
        return
    raise Invalid(f"{field} of {whose} {reason}", [{"field": field, "value": value[:80], "reason": reason}])


def shortened(
    column: InstrumentedAttribute[Any], value: str | None, field: str
) -> tuple[str | None, str | None]:
    """The value made to fit the column (NULs dropped, cut with an ellipsis), and a notice if it was changed.

    For values that only describe (a label): losing the tail is better than refusing the upload.
    """
    if value is None:
        return None, None
    limit = length_of(column)
    fitted = value.replace(_NUL, "")
    if len(fitted) > limit:
        fitted = fitted[: limit - len(_ELLIPSIS)] + _ELLIPSIS
    if fitted == value:
        return value, None
    return fitted, (
        f"{field} shortened to fit what can be stored (at most {limit} characters, no NUL): "
        f"it had {len(value)}"
    )
