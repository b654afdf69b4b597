"""Property tests: any pasted text yields jobs or FioJobError, never another exception."""

from __future__ import annotations

from fio_testkit import JOB_FILE
from hypothesis import given, settings
from hypothesis import strategies as st

from storbench_fio.errors import FioJobError
from storbench_fio.jobfile import parse_fio_text
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_fio_text

TARGET = SafetyTarget(kind="directory", path="/scratch", free_bytes=1 << 40)
PIECES = [
    "fio ", "--name=a ", "-rw=randread ", "--bs 4k ", "[global]\n", "[job]\n", "rw=write\n",
    "size=1g\n", "=", "\\\n", "'", '"', "${X}", ";", "#", "--io depth=3 ", "job.fio",
    "filename=../x\n", "exec_prerun=ls\n", "%", "runtime=1m\n", "numjobs=", "\x00", "fio.exe ",
    # pastes from terminals and guides
    "$ ", "# ", "C:\\Users\\me>", "PS C:\\> ", '"c:\\Program Files\\ fio\\ fio.exe" ', "DIR=/x",
    "$DIR", "${DIR}", "%DIR%", "$env:DIR", "export ", "set ", "$(", "`", "^\n", "`\n", "\n",
    "Z\\:\\", "\\\\<server>\\", "<", ">", "|", "&&", "2>&1", "--iode\npth=3 ", "--rw=rand\nread ",
]  # fmt: skip


def accepts_or_refuses(text: str) -> None:
    for parse in (parse_fio_text, lambda t: check_fio_text(t, TARGET, SafetyLimits())):
        errors = []
        try:
            jobs = parse(text)
        except FioJobError as exc:
            jobs, errors = [], exc.errors
        assert jobs or errors


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=8), max_size=25).map("".join))
def test_pasted_fragments(text: str) -> None:
    accepts_or_refuses(text)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(JOB_FILE)), st.integers(0, 40), st.text(max_size=10))
def test_damaged_job_file(start: int, length: int, junk: str) -> None:
    accepts_or_refuses(JOB_FILE[:start] + junk + JOB_FILE[start + length :])
