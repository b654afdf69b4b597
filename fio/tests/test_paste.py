"""Commands pasted from vendor guides and terminals validate as the guide meant them.

The commands are the published recipes of tests/published/recipes.md (METHODOLOGY.md section 2):
the SMB check verbatim, the others written out from their published parameters, in the forms
users paste them (prompts, Windows program paths, a document's line breaks, shell variables).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from fio_testkit import FIO, requires_fio

from storbench_fio.command import render_job_file
from storbench_fio.errors import FioJobError, OptionError
from storbench_fio.job import FioJob
from storbench_fio.jobfile import ParsedPaste, parse_fio_paste, parse_fio_text
from storbench_fio.presets import get_preset
from storbench_fio.results import parse_fio_output

NAS_LINUX = (
    "fio --name=nas-randread-iops --numjobs=1 --iodepth=128 --direct=1 --ioengine=libaio "
    "--sync=1 --size=1G --time_based --runtime=60 --rw=randread --bs=4K --directory=/mnt/nas"
)
NAS_WINDOWS_ARGS = (
    "--name=nas-randread-iops --numjobs=2 --iodepth=128 --direct=1 --ioengine=windowsaio "
    "--thread --group_reporting --sync=1 --size=1G --time_based --runtime=60 --rw=randread "
    "--bs=4K --directory=Z:\\"
)
# Verbatim from the guide (section 2, "SMB share from Windows").
SMB = (
    "fio.exe --name=./iotest1 --direct=1 --rwmixread=0 --rw=write --bs=4K --numjobs=1 --thread "
    "--iodepth=128 --runtime=300 --group_reporting --size=5G --verify=md5 --randrepeat=0 "
    "--norandommap --refill_buffers --filename=\\\\<server>\\<share>\\<file>"
)


def preset_job(preset_id: str) -> FioJob:
    preset = get_preset(preset_id)
    assert preset is not None
    [job] = preset.jobs
    return job


def same_job(parsed: FioJob, preset_id: str, **where: str) -> None:
    """The parsed job is the preset's, plus where the guide points fio (its directory)."""
    assert parsed == preset_job(preset_id).model_copy(update=where)


def refusals(text: str) -> list[OptionError]:
    with pytest.raises(FioJobError) as info:
        parse_fio_paste(text)
    return info.value.errors


@pytest.mark.parametrize(
    "prompt",
    ["$ ", "# ", "% ", "user@client:~$ ", "[root@client nas]# ", "bash-5.1$ ", "$ sudo "],
)
def test_shell_prompts_are_left_out(prompt: str) -> None:
    [job] = parse_fio_text(prompt + NAS_LINUX)
    same_job(job, "nas-linux-randread-iops", directory="/mnt/nas")


@pytest.mark.parametrize(
    "program",
    [
        '"c:\\Program Files\\ fio\\ fio.exe"',  # as the NAS guide prints it, stray spaces
        '"C:\\Program Files\\fio\\fio.exe"',
        "fio.exe",
    ],
)
@pytest.mark.parametrize("prompt", ["", "C:\\Users\\me>", "C:\\Users\\me> ", "PS C:\\Users\\me> "])
def test_windows_prompts_and_quoted_program_paths(prompt: str, program: str) -> None:
    [job] = parse_fio_text(f"{prompt}{program} {NAS_WINDOWS_ARGS}")
    same_job(job, "nas-windows-randread-iops", directory="Z:\\")


def test_the_published_smb_command_verbatim() -> None:
    parsed = parse_fio_paste(SMB)
    [job] = parsed.jobs
    assert job.name == "./iotest1"
    assert job.filename == "\\\\<server>\\<share>\\<file>"  # the UNC path, backslashes kept
    assert (job.rw, job.bs, job.iodepth, job.runtime, job.size, job.verify) == (
        "write",
        4096,
        128,
        300,
        5 << 30,
        "md5",
    )
    assert (job.rwmixread, job.randrepeat, job.norandommap, job.refill_buffers) == (
        0,
        False,
        True,
        True,
    )
    assert parsed.notices == []


def test_the_smb_preset_pastes_back_as_its_published_command() -> None:
    preset = get_preset("smb-windows-write-verify")
    assert preset is not None
    assert preset.published_command == SMB
    [job] = parse_fio_paste(SMB).jobs
    assert job.filename == preset.target_options["filename"]
    assert job.model_copy(update={"filename": None}) == preset.jobs[0]


def test_escaped_drive_colon_with_a_trailing_backslash_is_a_path_not_a_continuation() -> None:
    # The managed NFS guide's Windows form: fio escapes the drive colon, the path ends in '\'.
    text = (
        "fio.exe --name=nfs-iops --directory=Z\\:\\\n"
        "--size=10g --fallocate=none --direct=1 --runtime=60 --time_based --ramp_time=5 "
        "--ioengine=windowsaio --thread --rw=randread --bs=4k --iodepth=16 --numjobs=1"
    )
    [job] = parse_fio_text(text)
    same_job(job, "nfs-windows-iops", directory="Z\\:\\")
    # In the middle of a line too, and as the last word.
    [job] = parse_fio_text(text.replace("\n", " ") + " --directory=Z\\:\\")
    assert job.directory == "Z\\:\\"


def test_cmd_and_powershell_continuations_join_lines() -> None:
    cmd = "fio.exe --name=a ^\n --rw=randread ^\n --directory=Z:\\"
    powershell = "fio.exe --name=a `\n --rw=randread `\n --directory=Z:\\"
    for text in (cmd, powershell):
        [job] = parse_fio_text(text)
        assert (job.rw, job.directory) == ("randread", "Z:\\")


CLOUD_FS_READ_IOPS = (
    "fio --name=cloudfs-read-iops --time_based=1 --thread --direct=1 --ioengine=libaio "
    "--runtime=60 --group_reporting --rw=randread --bs=4K --size=100M --numjobs=128 --iodepth=1"
)


@pytest.mark.parametrize(
    ("broken", "joined"),
    [
        ("--num\njobs=128", "numjobs"),  # a name broken in two
        ("--numjobs\n=128", "numjobs"),  # "=" on the next line
        ("--ioeng\nine=libaio", "ioengine"),
        ("--group_\nreporting", "group_reporting"),  # a flag
        ("--rw=rand\nread", "rw"),  # a value broken in two
        ("--size=100\nM", "size"),
        ("--numjobs=\n128", "numjobs"),
    ],
)
def test_a_line_break_a_document_put_inside_a_word_is_rejoined_with_a_notice(
    broken: str, joined: str | None
) -> None:
    whole = broken.replace("\n", "")
    option = whole.lstrip("-").partition("=")[0]
    text = CLOUD_FS_READ_IOPS.replace(whole, broken)
    assert text != CLOUD_FS_READ_IOPS
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    same_job(job, "cloudfs-read-iops")
    if joined is not None:
        [notice] = parsed.notices
        assert notice.option == joined == option
        assert "two lines" in notice.message
        assert whole in notice.message


def test_a_line_break_is_not_mended_into_an_unknown_option() -> None:
    errors = refusals("fio --name=a --rw=read --frob\nnicate=1")
    assert [(e.option, "rejoin" in e.reason) for e in errors] == [("--frob nicate=1", True)]
    # A value fio would not take stays two words: the second is refused as a stray word.
    errors = refusals("fio --name=a --rw=rand\nwrite2")
    assert "write2" in {e.option for e in errors}


def test_a_line_break_between_words_is_a_word_boundary() -> None:
    [job] = parse_fio_text("$ fio --name=a --rw=randread\n  --bs=4k\n--iodepth 32")
    assert (job.bs, job.iodepth) == (4096, 32)


@pytest.mark.parametrize(
    "text",
    [
        'fio --name="random read IOPS" --rw=randread',
        "fio --name='random read IOPS' --rw=randread",
        'fio.exe --name="random read IOPS" --rw=randread --directory=Z:\\',
        "[random read IOPS]\nrw=randread\n",
    ],
)
def test_job_names_with_spaces(text: str) -> None:
    [job] = parse_fio_text(text)
    assert job.name == "random read IOPS"


@requires_fio
def test_fio_runs_a_job_named_with_spaces_and_its_results_keep_the_name(tmp_path: Path) -> None:
    [job] = parse_fio_text(
        'fio --name="random read" --rw=randread --bs=4k --size=1m --runtime=1 --ioengine=psync'
    )
    path = tmp_path / "jobs.fio"
    path.write_text(render_job_file([job], directory=str(tmp_path)))
    assert FIO is not None
    done = subprocess.run(
        [FIO, "--output-format=json", str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["jobs"][0]["jobname"] == "random read"
    assert [j.name for j in parse_fio_output(done.stdout).jobs] == ["random read"]


@pytest.mark.parametrize(
    "text",
    [
        "DIR=/mnt/nas; " + NAS_LINUX.replace("/mnt/nas", "$DIR"),
        "DIR=/mnt/nas && " + NAS_LINUX.replace("/mnt/nas", '"$DIR"'),
        "$ export DIR=/mnt/nas\n$ " + NAS_LINUX.replace("/mnt/nas", "${DIR}"),
        "export DIR=/mnt/nas\n" + NAS_LINUX.replace("/mnt/nas", "$DIR"),
        "MNT=/mnt; DIR=$MNT/nas\n" + NAS_LINUX.replace("/mnt/nas", "$DIR"),
    ],
)
def test_shell_variables_set_earlier_in_the_paste(text: str) -> None:
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    same_job(job, "nas-linux-randread-iops", directory="/mnt/nas")
    [notice] = parsed.notices
    assert (notice.option, notice.value) == ("directory", "/mnt/nas")
    assert "$DIR" in notice.message


@pytest.mark.parametrize(
    "text",
    [
        "set DIR=Z:\\\nfio.exe " + NAS_WINDOWS_ARGS.replace("Z:\\", "%DIR%"),
        'set "DIR=Z:\\"\nfio.exe ' + NAS_WINDOWS_ARGS.replace("Z:\\", "%DIR%"),
        "PS C:\\> $dir = 'Z:\\'\nPS C:\\> fio.exe " + NAS_WINDOWS_ARGS.replace("Z:\\", "$dir"),
        "$env:DIR = 'Z:\\'\nfio.exe " + NAS_WINDOWS_ARGS.replace("Z:\\", "$env:DIR"),
    ],
)
def test_windows_variables_set_earlier_in_the_paste(text: str) -> None:
    parsed = parse_fio_paste(text)
    [job] = parsed.jobs
    same_job(job, "nas-windows-randread-iops", directory="Z:\\")
    assert [n.option for n in parsed.notices] == ["directory"]


def test_a_variable_the_paste_does_not_set_is_refused_for_its_option_only() -> None:
    errors = refusals(NAS_LINUX.replace("/mnt/nas", "$MOUNT") + " --iodepth=0")
    reasons = {e.option: e.reason for e in errors}
    assert set(reasons) == {"directory", "iodepth"}
    assert "$MOUNT is not set earlier in the paste" in reasons["directory"]
    # A variable set from one the paste does not set is unknown too.
    errors = refusals("DIR=$BASE/nas; " + NAS_LINUX.replace("/mnt/nas", "$DIR"))
    assert [(e.option, "$DIR" in e.reason) for e in errors] == [("directory", True)]


def test_single_quotes_keep_a_dollar_for_fio() -> None:
    parsed = parse_fio_paste("fio --name=a --rw=read --filename='$jobname'")
    assert parsed.jobs[0].filename == "$jobname"
    assert parsed.notices == []


@pytest.mark.parametrize(
    ("text", "option", "words"),
    [
        ("fio --name=a --rw=read --size=$(cat size)", "size", "command substitution"),
        ("fio --name=a --rw=read --size=`cat size`", "size", "command substitution"),
        ("fio --name=a --rw=read --size=${SIZE:-1g}", "size", "${...}"),
        ("fio --name=a --rw=read --directory='/mnt/nas", "directory", "quote is not closed"),
    ],
)
def test_what_cannot_be_understood_is_refused_per_option(
    text: str, option: str, words: str
) -> None:
    errors = refusals(text)
    assert [e.option for e in errors] == [option]
    assert words in errors[0].reason


def test_other_commands_and_redirections_are_left_out_with_a_notice() -> None:
    parsed = parse_fio_paste(
        "mkdir -p /mnt/nas/test && cd /mnt/nas/test\n"
        "fio --name=a --rw=read --output-format=json > result.json 2>&1 | tee x"
    )
    assert [j.name for j in parsed.jobs] == ["a"]
    said = " ".join(str(n) for n in parsed.notices)
    assert "mkdir" in said
    assert "cd /mnt/nas/test" in said
    assert "result.json" in said
    assert "tee" in said


def test_two_fio_commands_are_refused_not_merged() -> None:
    errors = refusals("fio --name=a --rw=read\nfio --name=b --rw=write")
    assert [e.option for e in errors] == ["command"]
    assert "2 fio commands" in errors[0].reason


def test_parsed_paste_is_what_parse_fio_text_returns_plus_notices() -> None:
    text = "DIR=/mnt/nas; " + NAS_LINUX.replace("/mnt/nas", "$DIR")
    parsed = parse_fio_paste(text)
    assert isinstance(parsed, ParsedPaste)
    assert parsed.jobs == parse_fio_text(text)


@pytest.mark.parametrize(
    "prompt",
    [
        "root@truenas[/mnt/pool/dir]# ",
        "root@truenas[~]# ",
        "user@host ~ % ",
        "me@mac-mini ~/bench % ",
        "$",
        "#",
        "$ ",
    ],
)
def test_prompts_of_terminals_and_guides_are_left_out(prompt: str) -> None:
    [job] = parse_fio_paste(f"{prompt}fio --name=a --rw=randread --bs=4k --size=1g").jobs
    assert (job.name, job.rw, job.bs) == ("a", "randread", 4096)
