"""Queries for storage classes and their specs."""

from collections.abc import Sequence

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session, selectinload

from storbench_api.models.storage_class import StorageClass, StorageClassSpec
from storbench_api.pagination import Page, fetch_page


def _visible_to(team_id: int) -> ColumnElement[bool]:
    """Published classes and the team's own."""
    return or_(StorageClass.team_id.is_(None), StorageClass.team_id == team_id)


def list_classes(db: Session, team_id: int) -> Sequence[StorageClass]:
    """The published catalogue and the team's own classes, with their specs, catalogue first."""
    query = (
        select(StorageClass)
        .where(_visible_to(team_id))
        .options(selectinload(StorageClass.specs))
        .order_by(StorageClass.team_id.is_not(None), StorageClass.protocol, StorageClass.name)
    )
    return db.scalars(query).all()


def page_of_classes(db: Session, team_id: int, page: Page) -> tuple[Sequence[StorageClass], int]:
    """A page of what list_classes lists, and how many classes that is."""
    query = (
        select(StorageClass)
        .where(_visible_to(team_id))
        .options(selectinload(StorageClass.specs))
        .order_by(
            StorageClass.team_id.is_not(None), StorageClass.protocol, StorageClass.name, StorageClass.id
        )
    )
    return fetch_page(db, query, page)


def get_class(db: Session, team_id: int, class_id: int) -> StorageClass | None:
    """A class the team can see (published or its own), with its specs."""
    query = (
        select(StorageClass)
        .where(StorageClass.id == class_id, _visible_to(team_id))
        .options(selectinload(StorageClass.specs))
    )
    return db.scalar(query)


def class_by_name(db: Session, team_id: int, name: str) -> StorageClass | None:
    """The team's own class with this name."""
    return db.scalar(select(StorageClass).where(StorageClass.team_id == team_id, StorageClass.name == name))


def get_spec(db: Session, spec_id: int) -> StorageClassSpec | None:
    """One spec version, with its class."""
    query = (
        select(StorageClassSpec)
        .where(StorageClassSpec.id == spec_id)
        .options(selectinload(StorageClassSpec.storage_class))
    )
    return db.scalar(query)
