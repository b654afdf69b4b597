"""Target request and response bodies."""

import posixpath
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from storbench_api.ids import IdField
from storbench_api.models import TargetKind
from storbench_api.targets.directory import DirectoryCheckOut
from storbench_api.wire import RequestBody

# A provisioned figure (GiB, IOPS or MB/s): positive and within what any volume is sold in.
Provisioned = Annotated[float | None, Field(gt=0, le=1e9)]


class TargetCreate(RequestBody):
    """A directory or block device on one of the team's hosts."""

    name: str = Field(min_length=1, max_length=120, examples=["nas-perf-01 /mnt/nas"])
    host_id: IdField
    path: str = Field(min_length=1, max_length=1024, examples=["/mnt/nas/storbench"])
    kind: TargetKind = Field(default=TargetKind.directory, strict=False)
    storage_class: str | None = Field(default=None, max_length=120, description="a free label")
    storage_class_id: IdField | None = Field(
        default=None,
        description="the storage class its results are judged by (GET /storage-classes)",
    )
    capacity_gib: Provisioned = Field(default=None, description="provisioned capacity in GiB")
    provisioned_iops: Provisioned = None
    provisioned_mbps: Provisioned = Field(default=None, description="provisioned throughput in MB/s")
    description: str | None = Field(default=None, max_length=2000)

    @field_validator("name")
    @classmethod
    def _strip_name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("name must not be blank")
        return value

    @field_validator("path")
    @classmethod
    def _absolute_normalised(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith("/"):
            raise ValueError("path must be absolute, e.g. /mnt/nas/storbench or /dev/vdb")
        if "\x00" in value or any(part == ".." for part in value.split("/")):
            raise ValueError("path must not contain '..' or NUL characters")
        return posixpath.normpath(value)


class TargetOut(BaseModel):
    """A storage target as listed."""

    id: int
    name: str
    host_id: IdField
    host_name: str
    path: str
    kind: TargetKind
    storage_class: str | None
    storage_class_id: int | None
    capacity_gib: float | None
    provisioned_iops: float | None
    provisioned_mbps: float | None
    description: str | None
    destructive: bool
    created_at: datetime
    directory: DirectoryCheckOut | None = Field(
        default=None,
        description="a directory target: whether it exists on its host, as the host's worker last reported",
    )


class TargetList(BaseModel):
    """A page of targets."""

    items: list[TargetOut]
    total: int


class TargetUpdate(RequestBody):
    """Change a target's labels; only an owner may mark a block device destructive."""

    storage_class: str | None = Field(default=None, max_length=120)
    storage_class_id: IdField | None = None
    capacity_gib: Provisioned = None
    provisioned_iops: Provisioned = None
    provisioned_mbps: Provisioned = None
    description: str | None = Field(default=None, max_length=2000)
    destructive: bool | None = None
