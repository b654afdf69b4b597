"""What documents and terminals do to a pasted fio command, repaired and said as a notice.

The pastes are shaped as public write-ups and vendor guides print them: a hyphenation break
carrying its hyphen to the next line, a name broken mid-word, a variable holding common options,
a command wrapped without a backslash, a UNC path with a blank, placeholders with blanks.
"""

from __future__ import annotations

import pytest

from storbench_fio.errors import FioJobError
from storbench_fio.framing import frame_jobs
from storbench_fio.jobfile import parse_fio_paste


def notices_of(text: str) -> list[str]:
    return [str(n) for n in parse_fio_paste(text).notices]


@pytest.mark.parametrize(
    "text",
    [
        # A vendor guide's PDF: "-time_base" at a line's end, "d" or "-d" on the next.
        "fio -direct=1 -iodepth=128 -rw=randread -ioengine=libaio -bs=4k -size=1G -numjobs=1 "
        "-runtime=1000 -group_reporting -filename=iotest -name=Rand_Read_Testing -time_base\nd",
        "fio -direct=1 -iodepth=128 -rw=randread -ioengine=libaio -bs=4k -size=1G -numjobs=1 "
        "-runtime=1000 -group_reporting -filename=iotest -name=Rand_Read_Testing -time_base\n-d",
    ],
)
def test_a_hyphenation_break_is_rejoined_when_it_makes_a_fio_option(text: str) -> None:
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    assert job.time_based is True
    [notice] = parsed.notices
    assert notice.option == "time_based"
    assert "two lines" in notice.message
    assert "read as -time_based" in notice.message


def test_a_hyphen_on_the_next_line_starting_a_known_option_stays_an_option() -> None:
    # "--direct" then "-d" would not make an option; "-size" is an option of its own.
    [job] = parse_fio_paste("fio --name=a --rw=read --direct=1\n-size=1g").jobs
    assert (job.direct, job.size) == (True, 1 << 30)


def test_a_mid_word_break_is_rejoined() -> None:
    parsed = parse_fio_paste(
        "$ fio --name=seqread --rw=read --bs=1m --size=10g --iod\nepth=32 --direct=1"
    )
    assert parsed.jobs[0].iodepth == 32
    assert notices_of("fio --name=a --rw=read --iod\nepth=32") == [
        "iodepth=32: '--iod' and 'epth=32' were on two lines (a document's layout broke the "
        "word): read as --iodepth=32"
    ]


def test_a_variable_holding_common_options_gives_each_option() -> None:
    text = (
        "$ FIO_COMMON_ARGS='--size=10g --fallocate=none --direct=1 --runtime=60 --time_based'\n"
        "$ fio $FIO_COMMON_ARGS --name=nfs-latency --rw=randwrite --bs=4k --iodepth=1 "
        "--directory=/mnt/nfs"
    )
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    assert (job.size, job.fallocate, job.direct, job.runtime, job.time_based) == (
        10 << 30,
        "none",
        True,
        60,
        True,
    )
    said = {n.option: n.message for n in parsed.notices}
    assert set(said) == {"size", "fallocate", "direct", "runtime", "time_based"}
    assert all("$FIO_COMMON_ARGS replaced" in m for m in said.values())


def test_a_variable_set_on_an_earlier_line_is_substituted_and_no_other() -> None:
    [job] = parse_fio_paste("BS=4k\nfio --name=a --rw=randread --bs=$BS --size=1g").jobs
    assert job.bs == 4096
    with pytest.raises(FioJobError) as info:
        parse_fio_paste("fio --name=a --rw=randread --bs=$BS --size=1g")
    [error] = info.value.errors
    assert error.option == "bs"
    assert "$BS is not set earlier in the paste" in error.reason


def test_a_quoted_variable_stays_one_word() -> None:
    text = "DIR='/mnt/my nas'\nfio --name=a --rw=read --size=1g --directory=\"$DIR\""
    assert parse_fio_paste(text).jobs[0].directory == "/mnt/my nas"


def test_a_command_wrapped_without_a_backslash_is_read_whole_with_a_notice() -> None:
    text = (
        "fio --randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1 --bs=4k "
        "--iodepth=64 --size=4G --readwrite=randwrite -filename=/mnt/ebs/test\n"
        '-name="EBS 4K randwrite test" -iodepth=64 -runtime=60'
    )
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    assert (job.name, job.runtime, job.rw) == ("EBS 4K randwrite test", 60, "randwrite")
    [notice] = parsed.notices
    assert notice.option == "name"
    assert "does not end in '\\'" in notice.message


def test_an_unquoted_unc_path_with_a_blank_is_one_path() -> None:
    text = (
        "C:\\fio> fio.exe --name=smb --rw=write --bs=1m --size=1g --runtime=60 "
        "--filename=\\\\fileserver\\bench share\\fio.dat --thread"
    )
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    assert job.filename == "\\\\fileserver\\bench share\\fio.dat"
    assert job.thread is True
    [notice] = parsed.notices
    assert notice.option == "filename"
    assert "not quoted" in notice.message


_JOB = "--name=a --rw=write --size=1g --runtime=60"


@pytest.mark.parametrize(
    ("text", "option", "placeholders"),
    [
        (
            "fio.exe " + _JOB + " --filename=\\\\<mount point dns>\\myshare\\file",
            "filename",
            "<mount point dns>",
        ),
        (
            "fio --name=a --rw=write --size=1g --runtime=60 --directory=<your share>",
            "directory",
            "<your share>",
        ),
        (
            "fio " + _JOB + " --directory=/mnt/<mount point>",
            "directory",
            "<mount point>",
        ),
    ],
)
def test_a_placeholder_with_blanks_says_what_to_replace(
    text: str, option: str, placeholders: str
) -> None:
    jobs, changed = frame_jobs(parse_fio_paste(text).jobs)
    assert getattr(jobs[0], option) in (None, "file")
    [notice] = changed
    assert notice.option == option
    assert f"{placeholders}: the guide's placeholder for your own place" in notice.message
    assert "replace it by choosing the target" in notice.message


def test_a_redirection_is_not_read_as_a_placeholder() -> None:
    parsed = parse_fio_paste("fio --name=a --rw=read --size=1g < /dev/null > out.txt")
    assert [j.name for j in parsed.jobs] == ["a"]
    assert any("out.txt" in str(n) for n in parsed.notices)
