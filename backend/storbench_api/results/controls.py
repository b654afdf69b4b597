"""What a team does with stored results: relabel, delete, download fio's output and the job file."""

import gzip
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError
from sqlalchemy.orm import Session

from storbench_api.audit import service as audit
from storbench_api.auth.service import Principal
from storbench_api.errors import NotFound
from storbench_api.models import Result, Run
from storbench_api.results import repository
from storbench_api.rollup import service as rollup
from storbench_fio.command import render_job_file
from storbench_fio.errors import FioJobError
from storbench_fio.job import validate_job_dict

# What a stored output is, as a download (fio's formats: JSON documents or text).
_JSON_FORMATS = frozenset({"json", "json+", "client_server"})


@dataclass(frozen=True)
class Download:
    """A file to send: its bytes, media type and the name a browser saves it under."""

    content: bytes
    media_type: str
    filename: str


def get_result(db: Session, team_id: int, result_id: int) -> Result:
    """One of the team's results; NotFound otherwise (another team's result included)."""
    result = repository.get_result(db, team_id, result_id)
    if result is None:
        raise NotFound(f"result {result_id} not found")
    return result


def _clean_label(label: str | None) -> str | None:
    return label.strip() or None if label is not None else None


def relabel(db: Session, principal: Principal, result_ids: Sequence[int], label: str | None) -> list[Result]:
    """Give results one label (None clears it); NotFound names the ids the team does not have."""
    wanted = list(dict.fromkeys(result_ids))
    results = list(repository.get_results(db, principal.team_id, wanted))
    missing = sorted(set(wanted) - {r.id for r in results})
    if missing:
        raise NotFound(f"result{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} not found")
    new_label = _clean_label(label)
    for result in results:
        if result.label == new_label:
            continue
        audit.record(
            db,
            team_id=principal.team_id,
            actor=principal.actor,
            action="result.relabelled",
            resource_type="result",
            resource_id=result.id,
            hosts=[result.host_name],
            job=result.job_name,
            previous_label=result.label,
            label=new_label,
        )
        result.label = new_label
    db.flush()
    return results


def delete(db: Session, principal: Principal, result_id: int) -> None:
    """Delete a result (its output too, once no other result uses it), recorded in the audit log."""
    result = get_result(db, principal.team_id, result_id)
    audit.record(
        db,
        team_id=principal.team_id,
        actor=principal.actor,
        action="result.deleted",
        resource_type="result",
        resource_id=result.id,
        hosts=[result.host_name],
        job=result.job_name,
        label=result.label,
        run_id=result.run_id,
        imported=result.imported,
    )
    delete_result(db, result)
    db.flush()


def delete_result(db: Session, result: Result) -> None:
    """Delete a result and take it out of the rollup (its output too, once no other result uses it)."""
    counted = rollup.removal_of(db, result.team_id, [result.id])
    team_id = result.team_id
    if repository.delete_result(db, result):  # another request that deleted it meanwhile took its counts out
        rollup.remove(db, team_id, counted)


def raw_output(db: Session, team_id: int, result_id: int) -> Download:
    """fio's output the result was read from, as fio wrote it (or as it was uploaded)."""
    result = get_result(db, team_id, result_id)
    raw = (
        repository.get_raw_output(db, team_id, result.raw_output_id)
        if result.raw_output_id is not None
        else None
    )
    if raw is None:
        raise NotFound(f"result {result_id} has no stored fio output")
    if raw.pruned_at is not None:
        raise NotFound(
            f"fio's output of result {result_id} was removed on {raw.pruned_at:%Y-%m-%d} under the team's "
            "retention setting (its figures are kept)"
        )
    is_json = raw.source_format in _JSON_FORMATS
    return Download(
        content=gzip.decompress(raw.content_gz),
        media_type="application/json" if is_json else "text/plain; charset=utf-8",
        filename=f"fio-output-result-{result.id}.{'json' if is_json else 'txt'}",
    )


def _ini(job_name: str, options: dict[str, str]) -> str:
    """A job section from the options as fio printed them (a flag prints with an empty value)."""
    lines = [f"[{job_name}]"]
    for option, value in options.items():
        if option == "name":
            continue
        lines.append(option if value == "" else f"{option}={value}")
    return "\n".join(lines) + "\n"


def _run_job_file(run: Run, result: Result) -> str:
    try:
        jobs = [validate_job_dict(job) for job in run.jobs]
    except (FioJobError, ValidationError):
        # Jobs stored before a rule tightened: shown as stored.
        return "\n".join(
            _ini(str(job.get("name", "job")), {k: str(v) for k, v in job.items()}) for job in run.jobs
        )
    header = (
        f"; storbench run {run.id}: the jobs fio ran on {result.host_name}.\n"
        "; filename and directory are relative to the run's private directory in the target,\n"
        "; which the worker made for the run and gave fio as absolute paths.\n"
    )
    return header + render_job_file(jobs)


def job_file(db: Session, team_id: int, result_id: int) -> Download:
    """The job file a run executed, or for an import the job options fio printed in its output."""
    result = get_result(db, team_id, result_id)
    run = db.get(Run, result.run_id) if result.run_id is not None else None
    if run is not None and run.team_id == team_id:
        text = _run_job_file(run, result)
        name = f"run-{run.id}.fio"
    elif result.options:
        text = (
            f"; the options fio printed for job '{result.job_name}' in the imported output\n"
            "; (fio leaves out options it was not given; a text output names only rw, ioengine, iodepth)\n"
            + _ini(result.job_name, {str(k): str(v) for k, v in result.options.items()})
        )
        name = f"result-{result.id}.fio"
    else:
        raise NotFound(
            f"result {result_id} was imported from an output that carried no job options: "
            "there is no job file to give"
        )
    return Download(content=text.encode(), media_type="text/plain; charset=utf-8", filename=name)
