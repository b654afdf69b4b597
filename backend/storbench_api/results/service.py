"""Turning fio output into stored results, and results into API bodies."""

import gzip
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from storbench_api.advisor import service as advisor
from storbench_api.auth.service import Principal
from storbench_api.errors import Invalid, PayloadTooLarge
from storbench_api.figures.definition import DIRECTION_FIGURES
from storbench_api.history import detection as history
from storbench_api.models import RawOutput, Result, ResultDirection, Target
from storbench_api.ops.metrics import count_results_after_commit
from storbench_api.results import column_fit, fingerprint, listing, provenance, repository
from storbench_api.results.filters import ResultFilters
from storbench_api.results.histogram import log2_buckets
from storbench_api.results.provenance import Provenance
from storbench_api.results.schemas import (
    ImportForm,
    ImportOut,
    ResultList,
    ResultOut,
)
from storbench_api.rollup import service as rollup
from storbench_api.targets import service as targets_service
from storbench_fio.errors import ParseError
from storbench_fio.models import DirectionResult, FioReport, JobResult, LatencyStats
from storbench_fio.results import parse_fio_output
from storbench_protocol.facts import HostFacts

MAX_IMPORT_BYTES = 32 * 1024 * 1024

# Percentile keys kept as columns, and the column each lands in ("99.9" → clat_p99_9_ns).
_PERCENTILE_COLUMNS = {f.percentile: f.key for f in DIRECTION_FIGURES if f.percentile is not None}


def list_results(
    db: Session, team_id: int, filters: ResultFilters, limit: int, cursor: str | None = None
) -> ResultList:
    """A keyset page of the team's results, newest first by measured_at, and how many match."""
    after = listing.decode_cursor(cursor, filters) if cursor else None
    rows = repository.list_results(db, team_id, filters, limit + 1, after)
    page = rows[:limit]
    next_cursor = None
    if len(rows) > limit:
        last = page[-1]
        next_cursor = listing.encode_cursor(listing.Position(last.measured_at, last.id), filters)
    total, estimated = repository.count_results(db, team_id, filters)
    return ResultList(
        items=[describe(r) for r in page], next_cursor=next_cursor, total=total, total_is_estimate=estimated
    )


def import_output(db: Session, principal: Principal, form: ImportForm) -> ImportOut:
    """Store an old or external fio output in the team's history, marked as imported."""
    content = form.file.file.read(MAX_IMPORT_BYTES + 1)
    if len(content) > MAX_IMPORT_BYTES:
        raise PayloadTooLarge(f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MiB")
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = content.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Invalid(f"{form.file.filename or 'the file'} is not text (UTF-8 or UTF-16)") from exc
    target = (
        targets_service.get_target(db, principal.team_id, form.target_id)
        if form.target_id is not None
        else None
    )
    earlier = repository.first_output_with_digest(db, principal.team_id, provenance.digest(text.encode()))
    if earlier is not None:
        known = repository.results_of_output(db, earlier.id)
        return ImportOut(
            source_format=earlier.source_format,
            fio_version=known[0].fio_version,
            results=[describe(r) for r in known],
            duplicate=True,
            first_stored_at=earlier.created_at,
        )
    report = parse_output(text)
    # The label only describes: a file name too long for it is cut, not refused.
    label, notice = column_fit.shortened(
        Result.label, form.label or (target.name if target else form.file.filename), "label"
    )
    source = Provenance.of_import(
        principal.team_id,
        target=target,
        host_name=form.host_name,
        storage_class=form.storage_class or (target.storage_class if target else None),
        label=label,
    )
    results = store_report(db, source, report, text)
    return ImportOut(
        source_format=report.source_format,
        fio_version=report.fio_version,
        results=[describe(r) for r in results],
        notices=[notice] if notice else [],
    )


def parse_output(text: str) -> FioReport:
    """fio output parsed, or Invalid saying what could not be read."""
    try:
        report = parse_fio_output(text)
    except ParseError as exc:
        raise Invalid(f"fio output could not be read: {exc}") from exc
    if not report.jobs:
        raise Invalid("fio output holds no job results")
    return report


def _latency_detail(stats: LatencyStats | None) -> dict[str, Any] | None:
    if stats is None:
        return None
    return stats.model_dump(mode="json")


def _direction_detail(direction: DirectionResult) -> dict[str, Any]:
    return {
        "iops": direction.iops,
        "bw_bytes": direction.bw_bytes,
        "io_bytes": direction.io_bytes,
        "runtime_ms": direction.runtime_ms,
        "total_ios": direction.total_ios,
        "short_ios": direction.short_ios,
        "dropped_ios": direction.dropped_ios,
        "lat_ns": _latency_detail(direction.lat_ns),
        "clat_ns": _latency_detail(direction.clat_ns),
        "slat_ns": _latency_detail(direction.slat_ns),
        "iops_spread": direction.iops_spread.model_dump() if direction.iops_spread else None,
        "bw_spread": direction.bw_spread.model_dump() if direction.bw_spread else None,
    }


def _direction_row(name: str, direction: DirectionResult) -> ResultDirection:
    lat = direction.lat_ns
    percentiles = direction.clat_ns.percentiles if direction.clat_ns else {}
    row = ResultDirection(
        direction=name,
        iops=direction.iops,
        bw_bytes=direction.bw_bytes,
        io_bytes=direction.io_bytes,
        runtime_ms=direction.runtime_ms,
        total_ios=direction.total_ios,
        lat_mean_ns=lat.mean_ns if lat else None,
        lat_min_ns=lat.min_ns if lat else None,
        lat_max_ns=lat.max_ns if lat else None,
        lat_stddev_ns=lat.stddev_ns if lat else None,
    )
    for key, column in _PERCENTILE_COLUMNS.items():
        setattr(row, column, percentiles.get(key))
    return row


def _refuse_what_does_not_fit(report: FioReport, source: Provenance) -> None:
    """Invalid before anything is written if a string bound for a column is longer than it.

    Job name, host name and fio version identify (a job's series, a host's results, the
    comparability fingerprint): cut, two different ones could become one, so they are refused.
    """
    column_fit.refuse_unless_fits(Result.fio_version, report.fio_version, "fio_version", "the output")
    column_fit.refuse_unless_fits(Result.host_name, source.host_name, "host_name", "the upload")
    column_fit.refuse_unless_fits(Result.storage_class, source.storage_class, "storage_class", "the upload")
    column_fit.refuse_unless_fits(Result.label, source.label, "label", "the upload")
    for number, job in enumerate(report.jobs, start=1):
        column_fit.refuse_unless_fits(Result.job_name, job.name, "job_name", f"job {number}")
        column_fit.refuse_unless_fits(Result.host_name, job.hostname, "host_name", f"job {number}")


def _raw_output(team_id: int, report: FioReport, raw_text: str) -> RawOutput:
    raw_bytes = raw_text.encode()
    return RawOutput(
        team_id=team_id,
        source_format=report.source_format,
        size_bytes=len(raw_bytes),
        content_gz=gzip.compress(raw_bytes, compresslevel=6),
        sha256=provenance.digest(raw_bytes),
    )


@dataclass(frozen=True, slots=True)
class _Stored:
    """What every result of one output shares."""

    source: Provenance
    report: FioReport
    raw: RawOutput
    measured_at: datetime
    spec: advisor.SpecContext | None
    host: HostFacts | None


def judge(
    result: Result,
    *,
    target: Target | None,
    spec: advisor.SpecContext | None,
    facts: HostFacts | None,
    hosts_in_run: int = 1,
) -> None:
    """Assess a result on its target (spec checks, findings) and set what makes it comparable.

    Called when a result is stored, and again when an import is filed under a target later.
    """
    assessment = advisor.assess(
        options=result.options,
        directions=advisor.measured_directions(result.detail),
        error=result.error,
        facts=facts,
        target_path=target.path if target else None,
        target_kind=target.kind.value if target else None,
        hosts_in_run=hosts_in_run,
        spec=spec,
    )
    result.storage_class_spec_id = spec.spec.id if spec else None
    result.spec_checks = [c.model_dump(mode="json") for c in assessment.spec_checks]
    result.findings = [f.model_dump(mode="json") for f in assessment.findings]
    result.comparability, result.fingerprint = fingerprint.of_result(
        options=result.options,
        fio_version=result.fio_version,
        facts=facts,
        target_path=target.path if target else None,
        storage_class=result.storage_class,
        capacity_gib=target.capacity_gib if target else None,
    )


def _result(shared: _Stored, index: int, job: JobResult) -> Result:
    """One job of the output as a result: its figures, assessment and comparability."""
    source, report = shared.source, shared.report
    options = {**report.global_options, **job.job_options}
    detail: dict[str, dict[str, Any]] = {name: _direction_detail(d) for name, d in job.directions.items()}
    result = Result(
        team_id=source.team_id,
        run_id=source.run_id,
        assignment_id=source.assignment_id,
        host_id=source.host_id,
        target_id=source.target_id,
        host_name=job.hostname or source.host_name or "unknown",
        job_name=job.name,
        job_index=index,
        repetition=source.repetitions[index] if source.repetitions else 0,
        fio_version=report.fio_version,
        measured_at=shared.measured_at,
        imported=source.imported,
        partial=source.partial,
        storage_class=source.storage_class,
        label=source.label,
        options=options,
        cpu=job.cpu.model_dump(mode="json") if job.cpu else {},
        detail=detail,
        raw_output_id=shared.raw.id,
        error=job.error,
    )
    result.directions = [_direction_row(name, d) for name, d in job.directions.items()]
    judge(result, target=source.target, spec=shared.spec, facts=shared.host, hosts_in_run=source.hosts_in_run)
    return result


def store_report(db: Session, source: Provenance, report: FioReport, raw_text: str) -> list[Result]:
    """Store the raw output once and one result per job, each assessed; flushed, not committed.

    The rollup and change detection learn of the new results in the same transaction.
    """
    _refuse_what_does_not_fit(report, source)
    raw = _raw_output(source.team_id, report, raw_text)
    db.add(raw)
    db.flush()
    shared = _Stored(
        source=source,
        report=report,
        raw=raw,
        measured_at=provenance.measured_at(report, just_finished=source.just_finished),
        spec=advisor.spec_context(db, source.target),
        host=advisor.host_facts(source.host_facts),
    )
    results = [_result(shared, index, job) for index, job in enumerate(report.jobs)]
    db.add_all(results)
    db.flush()
    rollup.add_results(db, results)
    history.detect_after_store(db, results)
    count_results_after_commit(db, "import" if source.imported else "run", len(results))
    return results


def _latency(detail: dict[str, Any] | None) -> dict[str, Any] | None:
    if detail is None:
        return None
    return {
        "min_ns": detail["min_ns"],
        "max_ns": detail["max_ns"],
        "mean_ns": detail["mean_ns"],
        "stddev_ns": detail["stddev_ns"],
        "percentiles": detail.get("percentiles") or {},
    }


def describe(result: Result) -> ResultOut:
    """A result as the API shows it (fio's bins merged into power-of-two buckets).

    Built as plain data and validated once, nested parts included: a page of 50 took 3.8 ms when
    each nested part was a model built on its own (bench/history_scale.py, the results list).
    """
    directions = {
        name: {
            "iops": d["iops"],
            "bw_bytes": d["bw_bytes"],
            "io_bytes": d["io_bytes"],
            "runtime_ms": d["runtime_ms"],
            "total_ios": d["total_ios"],
            "lat_ns": _latency(d.get("lat_ns")),
            "clat_ns": _latency(d.get("clat_ns")),
            "slat_ns": _latency(d.get("slat_ns")),
            "clat_histogram": log2_buckets((d.get("clat_ns") or {}).get("histogram")),
            "iops_spread": d.get("iops_spread") or None,
            "bw_spread": d.get("bw_spread") or None,
        }
        for name, d in result.detail.items()
    }
    return ResultOut.model_validate(
        {
            "id": result.id,
            "run_id": result.run_id,
            "target_id": result.target_id,
            "storage_class": result.storage_class,
            "label": result.label,
            "created_at": result.created_at,
            "measured_at": result.measured_at,
            "job_name": result.job_name,
            "repetition": result.repetition,
            "host_name": result.host_name,
            "fio_version": result.fio_version,
            "imported": result.imported,
            "partial": result.partial,
            "directions": directions,
            "cpu": result.cpu or None,
            "options": result.options,
            "error": result.error,
            "storage_class_spec_id": result.storage_class_spec_id,
            "spec_checks": result.spec_checks,
            "findings": result.findings,
            "steady_state": result.steady_state,
        }
    )
