"""One way to page through a list: `limit` and `offset` query parameters with stated bounds.

Every list route takes its page as `page: Annotated[Page, page_params(...)]`, so the schema states
the same bounds the database can take (an offset of 2^64 used to reach SQLite and fail there).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, Query
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from storbench_api.ids import MAX_ID

# Past the last row a page is empty; this bound only keeps the number within the databases' integers.
MAX_OFFSET = MAX_ID


@dataclass(frozen=True)
class Page:
    """How many rows to return, after how many."""

    limit: int
    offset: int


def page_params(*, default_limit: int = 100, max_limit: int = 500) -> object:
    """A dependency reading `limit` (1..max_limit, default_limit when absent) and `offset` (0..MAX_OFFSET)."""

    def page(
        limit: Annotated[
            int, Query(ge=1, le=max_limit, description=f"rows per page (at most {max_limit})")
        ] = default_limit,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET, description="rows to skip")] = 0,
    ) -> Page:
        return Page(limit=limit, offset=offset)

    return Depends(page)


Row = TypeVar("Row")


def fetch_page(db: Session, query: Select[Row], page: Page) -> tuple[Sequence[Row], int]:
    """One page of an ordered query's rows (as scalars), and how many rows there are in all."""
    total = db.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    return db.scalars(query.limit(page.limit).offset(page.offset)).all(), total
