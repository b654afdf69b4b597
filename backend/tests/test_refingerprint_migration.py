"""The migration that recomputes stored fingerprints with the fio package's reader of options."""

import importlib.util
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import select
from sqlalchemy.orm import Session

from storbench_api.models import ChangePoint, GroupRollup
from storbench_api.results import service as results_service
from storbench_api.results.fingerprint import fingerprint
from storbench_api.results.provenance import Provenance
from tests.compare.outputs import shaped, template
from tests.conftest import Caller, make_host, make_target

MIGRATION = next(
    (Path(__file__).parents[2] / "migrations" / "versions").glob("*_refingerprint_fio_options.py")
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return template(tmp_path_factory.mktemp("fio-template"))


def _upgrade(db: Session) -> None:
    spec = importlib.util.spec_from_file_location("refingerprint_migration", MIGRATION)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    with Operations.context(MigrationContext.configure(db.connection())):
        migration.upgrade()
    db.expire_all()


def test_results_the_old_reader_split_get_one_fingerprint(
    db: Session, owner: Caller, base: dict[str, Any]
) -> None:
    host, _ = make_host(db, team=owner.team)
    target = make_target(db, host=host, name="old")
    hand = json.loads(shaped(base, iops=9_000, name="j"))
    options = hand["jobs"][0]["job options"]
    options["timeout"] = options.pop("runtime")
    stored = []
    for output in (shaped(base, iops=10_000, name="j"), json.dumps(hand)):
        report = results_service.parse_output(output)
        stored += results_service.store_report(db, Provenance(owner.team.id, target=target), report, output)
    # As the old reader stored them: timeout kept apart from runtime, fio's defaults left out.
    old = stored[1]
    old.comparability = {**old.comparability, "job": {"timeout": "60", "bs": "4096"}}
    old.fingerprint = "0" * 64
    db.add(
        ChangePoint(
            team_id=owner.team.id,
            target_id=target.id,
            job_name="j",
            direction="read",
            metric="iops",
            fingerprint="0" * 64,
            result_id=old.id,
            measured_at=datetime.now(UTC),
            kind="drop",
            before_median=10_000,
            after_median=9_000,
            ratio=0.9,
            method="test",
        )
    )
    db.execute(GroupRollup.__table__.delete())
    db.commit()

    _upgrade(db)

    assert old.fingerprint == stored[0].fingerprint == fingerprint(stored[0].comparability)
    assert old.comparability["job"]["runtime"] == "60.0"
    point = db.scalars(select(ChangePoint).where(ChangePoint.result_id == old.id)).one()
    assert point.fingerprint == old.fingerprint
    counted = db.scalars(
        select(GroupRollup).where(GroupRollup.target_id == target.id, GroupRollup.figure == "iops")
    ).all()
    assert [(row.rw, row.bs, row.n) for row in counted] == [("randread", "4096", 2)]
