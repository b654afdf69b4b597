"""fio 3.33's own examples/*.fio: read as fio reads them; refused only by a named safety rule.

Each example runs on the target it was written for: one that names a device under /dev on a
destructive block-device target (it is written to), any other on a directory target.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from storbench_fio.errors import RULES, FioJobError, Notice, OptionError
from storbench_fio.framing import frame_jobs
from storbench_fio.jobfile import jobs_from_raw, parse_raw_job_file
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety

EXAMPLES = sorted((Path(__file__).parent / "fio_examples").glob("*.fio"))
_RULE = re.compile(r"\(safety rule: [a-z ]+\)$")
_NOT_KNOWN = "not known to fio 3.33, which this host runs"

# Every example refused, with the rules refusing it: engines that leave the host or run code,
# engines or options of builds this host's fio lacks, ${ENV} values and the service's limits.
REFUSED = {
    "butterfly.fio": {"limits"},
    "cpp_null.fio": {"not known"},
    "dfs.fio": {"host changes", "other hosts"},
    "e4defrag2.fio": {"limits"},
    "exec.fio": {"code execution"},
    "filecreate-ioengine.fio": {"limits"},
    "gfapi.fio": {"other hosts"},
    "gpudirect-rdmaio-client.fio": {"not known", "other hosts"},
    "gpudirect-rdmaio-server.fio": {"not known", "other hosts"},
    "http-s3-crypto.fio": {"host changes", "other hosts"},
    "http-s3-storage-class.fio": {"host changes", "other hosts"},
    "http-s3.fio": {"host changes", "other hosts"},
    "http-swift.fio": {"device and absolute paths", "host changes", "other hosts"},
    "http-webdav.fio": {"device and absolute paths", "other hosts"},
    "ime.fio": {"other hosts"},
    "libcufile-cufile.fio": {"host changes"},
    "libcufile-posix.fio": {"host changes"},
    "libhdfs.fio": {"other hosts"},
    "libiscsi.fio": {"other hosts"},
    "librpma_apm-client.fio": {"not known", "other hosts"},
    "librpma_apm-server.fio": {"not known", "other hosts"},
    "librpma_gpspm-client.fio": {"not known", "other hosts"},
    "librpma_gpspm-server.fio": {"limits", "not known", "other hosts"},
    "nbd.fio": {"host changes", "other hosts"},
    "netio.fio": {"other hosts"},
    "netio_multicast.fio": {"other hosts"},
    "nfs.fio": {"other hosts"},
    "pmemblk.fio": {"device and absolute paths", "limits"},
    "rados.fio": {"other hosts"},
    "rbd.fio": {"other hosts"},
    "rdmaio-client.fio": {"other hosts"},
    "rdmaio-server.fio": {"other hosts"},
    "surface-scan.fio": {"destroying data"},
    "xnvme-compare.fio": {"host changes"},
    "xnvme-zoned.fio": {"host changes"},
}


def _target(text: str) -> SafetyTarget:
    if re.search(r"^\s*filename\s*=\s*/dev/", text, re.MULTILINE):
        return SafetyTarget(
            kind="block_device", path="/dev/sdb", destructive=True, confirmed_destructive=True
        )
    return SafetyTarget(kind="directory", path="/mnt/bench")


def read_example(path: Path) -> tuple[list[OptionError], list[Notice]]:
    """(refusals, notices) of one example on the target it was written for."""
    text = path.read_text(errors="replace")
    try:
        jobs, notices = frame_jobs(jobs_from_raw(parse_raw_job_file(text)))
    except FioJobError as exc:
        return exc.errors, []
    return check_jobs_safety(jobs, _target(text), SafetyLimits()), notices


def _kind(error: OptionError) -> str:
    if error.rule is not None:
        assert _RULE.search(error.reason), error.reason
        return error.rule
    return "not known" if _NOT_KNOWN in error.reason else "value"


def test_examples_are_fios_own() -> None:
    # 86 examples: 51 accepted (43 of them with a notice of what storbench changed), 35 refused.
    assert len(EXAMPLES) == 86


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_is_read_as_fio_reads_it(path: Path) -> None:
    errors, _ = read_example(path)
    assert {_kind(e) for e in errors} == REFUSED.get(path.name, set()), [str(e) for e in errors]


def test_every_refusal_of_an_example_names_its_safety_rule_or_fio() -> None:
    kinds = {_kind(e) for path in EXAMPLES for e in read_example(path)[0]}
    assert kinds <= {*RULES, "not known"}


def test_what_storbench_changes_is_said() -> None:
    _, notices = read_example(next(p for p in EXAMPLES if p.name == "backwards-read.fio"))
    assert [str(n) for n in notices] == [
        "runtime=600: runtime=600 added as a safety cap: the job ends when its size is done "
        "or after 10 min"
    ]
