"""Every fio command of the guides storbench follows is read as the guide meant it.

The commands are extracted from tests/published/recipes.md, a verbatim copy of METHODOLOGY.md's
section 2 (the vendor and practitioner guides' recipes): each table row with its block's common
options, each Windows variant and device check the prose describes, and the SMB command as
printed. Each is pasted in the form its guide prints it (the Windows program path with its stray
blanks, fio's escaped drive colon) and read as storbench reads a paste: the jobs, what storbench
changed (notices) and the safety rules on the target the guide meant (a directory on the storage
under test, or the raw device the guide writes to).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from storbench_fio.errors import FioJobError
from storbench_fio.framing import frame_jobs
from storbench_fio.jobfile import parse_fio_paste
from storbench_fio.safety import SafetyLimits, SafetyTarget, check_jobs_safety
from storbench_fio.units import parse_size

RECIPES = (Path(__file__).parent / "published" / "recipes.md").read_text()
NAS_WINDOWS_FIO = '"c:\\Program Files\\ fio\\ fio.exe"'  # as the NAS guide prints it
DIRECTORY = SafetyTarget(kind="directory", path="/mnt/bench")
DEVICE = SafetyTarget(
    kind="block_device", path="/dev/vdb", destructive=True, confirmed_destructive=True
)


@dataclass(frozen=True)
class GuideCommand:
    id: str
    text: str
    target: SafetyTarget


def _block(title: str) -> str:
    """The text of one recipe block: from its bold title to the next one."""
    start = RECIPES.index(f"**{title}")
    end = RECIPES.find("\n**", start + 1)
    return RECIPES[start : end if end > 0 else len(RECIPES)]


def _common(block: str) -> list[str]:
    """The options every row of a block shares (`common: a=1 b ...` or the title line's)."""
    first = block.splitlines()[0]
    options = first.split("common:", 1)[1] if "common:" in first else first.split("—", 1)[1]
    return [w for w in options.split() if re.fullmatch(r"[a-z_]+(=\S+)?", w)]


def _rows(block: str) -> list[dict[str, str]]:
    """The block's table as dicts by column name."""
    lines = [line for line in block.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def _command(program: str, name: str, options: list[str]) -> str:
    return " ".join([program, f'--name="{name}"', *(f"--{o}" for o in options)])


def _merged(*groups: list[str]) -> list[str]:
    """Options in order, a later group's value replacing an earlier one's (fio's last wins)."""
    merged: dict[str, str] = {}
    for group in groups:
        for option in group:
            merged[option.partition("=")[0]] = option
    return list(merged.values())


def _common(block: str) -> list[str]:
    """The options every row of a block shares (`common: a=1 b ...` or the title line's)."""
    first = re.sub(r"\([^)]*\)", "", block.splitlines()[0])
    options = first.split("common:", 1)[1] if "common:" in first else first.split("—", 1)[1]
    return [w.rstrip(",") for w in options.split() if re.fullmatch(r"[a-z_]+(=\S+)?,?", w)]


def _rows(block: str) -> list[dict[str, str]]:
    """The block's table as dicts by column name."""
    lines = [line for line in block.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def _table(title: str, columns: tuple[str, ...], *extra: str) -> list[tuple[str, list[str]]]:
    """(test, options) of each row: the block's common options, extra ones, the row's columns."""
    block = _block(title)
    return [
        (
            row["test"],
            _merged(_common(block), list(extra), [f"{c}={row[c].split()[0]}" for c in columns]),
        )
        for row in _rows(block)
    ]


def _guide_commands() -> list[GuideCommand]:
    found: list[GuideCommand] = []

    def add(
        group: str, test: str, options: list[str], target: SafetyTarget, program: str = "fio"
    ) -> None:
        found.append(GuideCommand(f"{group}: {test}", _command(program, test, options), target))

    nas = _table("NAS (general-purpose NAS service), Linux", ("rw", "bs"))
    for test, options in nas:
        add("NAS Linux", test, options, DIRECTORY)
    windows = re.search(r"Windows variant \([^)]*\): (?P<options>.*?) —", _block("NAS")).group(
        "options"
    )
    for test, options in nas:
        add("NAS Windows", test, _merged(options, windows.split()), DIRECTORY, NAS_WINDOWS_FIO)
    for test, options in _table("Cloud file system", ("rw", "bs", "size", "numjobs", "iodepth")):
        add("cloud file system", test, options, DIRECTORY)
    block = _table("Cloud block storage (disk)", ("rw", "bs", "iodepth"))
    for test, options in block:
        add("cloud block storage", test, options, DIRECTORY)
    for test, options in block:
        raw = _merged(options, ["filename=/dev/vdb"])
        add("cloud block storage, raw device", test, raw, DEVICE)
    nfs_block = _block("Managed NFS volume")
    for test, options in _table("Managed NFS volume", ("rw", "bs", "iodepth", "numjobs")):
        add("managed NFS", test, options, DIRECTORY)
    variants = re.search(r"Windows variants \((?P<engine>[^,]*), `(?P<dir>[^`]*)`", nfs_block)
    each = re.search(r"each with (?P<options>[^.]*)\.", nfs_block).group("options").split()
    for match in re.finditer(r"(\w+) \((\w+) (\w+) iodepth (\d+)(?: numjobs (\d+))?\)", nfs_block):
        test, rw, bs, depth, jobs = match.groups()
        options = [*each, *variants["engine"].split(), variants["dir"].removeprefix("--")]
        options += [f"rw={rw}", f"bs={bs}", f"iodepth={depth}", f"numjobs={jobs or 1}"]
        add("managed NFS Windows", test, options, DIRECTORY, "fio.exe")
    survey = _block("Device survey")
    common = re.search(
        r"raw device, (?P<o>[^,]*), bs=(?P<bs>\S+) iodepth=(?P<d>\d+) for (?P<rws>\S+);", survey
    )
    base = [*common["o"].split(), "filename=/dev/vdb"]
    for rw in common["rws"].split("/"):
        add(
            "device survey",
            rw,
            [*base, f"rw={rw}", f"bs={common['bs']}", f"iodepth={common['d']}"],
            DEVICE,
        )
    check = re.search(
        r"Cloud-disk check \((?P<o>.*?) on the raw device\): (?P<tests>[^.]*) for", survey
    )
    for test in check["tests"].split("; "):
        bs, *what, depth = test.split()
        rw = {"sequential write": "write"}.get(" ".join(what), " ".join(what))
        add(
            "cloud-disk check",
            f"{bs} {' '.join(what)} QD{depth.partition('=')[2]}",
            [*base, *check["o"].split(), f"rw={rw}", f"bs={bs}", depth],
            DEVICE,
        )
    smb = re.search(r"`(fio\.exe [^`]*)`", _block("SMB share from Windows"))
    found.append(GuideCommand("SMB from Windows: write check", smb[1], DIRECTORY))
    return found


COMMANDS = _guide_commands()


def reading(command: GuideCommand) -> tuple[str, tuple[str, ...]]:
    """("accepted", the options storbench's notices concern) or ("refused", the rules)."""
    try:
        paste = parse_fio_paste(command.text)
        jobs, changed = frame_jobs(paste.jobs)
    except FioJobError as exc:
        return "refused", tuple(sorted({e.rule or "fio" for e in exc.errors}))
    refusals = check_jobs_safety(jobs, command.target, SafetyLimits())
    if refusals:
        return "refused", tuple(sorted({e.rule or "fio" for e in refusals}))
    return "accepted", tuple(sorted({n.option for n in [*paste.notices, *changed]}))


_PLACE = ("accepted", ("directory",))  # where the guide ran fio becomes the target's business
_DEVICE = ("accepted", ("filename",))  # the raw device is the block-device target's own
_AS_WRITTEN = ("accepted", ())
# How each command is meant: every one runs, what storbench changes said as a notice.
EXPECTED = {
    **dict.fromkeys((c.id for c in COMMANDS if c.id.startswith("NAS ")), _PLACE),
    **dict.fromkeys((c.id for c in COMMANDS if c.id.startswith("cloud file system")), _AS_WRITTEN),
    **dict.fromkeys(
        (c.id for c in COMMANDS if c.id.startswith("cloud block storage:")), _AS_WRITTEN
    ),
    **dict.fromkeys((c.id for c in COMMANDS if c.id.startswith("cloud block storage,")), _DEVICE),
    **dict.fromkeys((c.id for c in COMMANDS if c.id.startswith("managed NFS:")), _AS_WRITTEN),
    **dict.fromkeys((c.id for c in COMMANDS if c.id.startswith("managed NFS Windows")), _PLACE),
    **dict.fromkeys(
        (c.id for c in COMMANDS if c.id.startswith(("device survey", "cloud-disk"))), _DEVICE
    ),
    "SMB from Windows: write check": ("accepted", ("filename",)),
}


def test_every_command_of_the_guides_is_extracted() -> None:
    # NAS 4 + 4 Windows, cloud file system 6, block storage 4 + 4 on the raw device, managed NFS
    # 3 + 3 Windows, device survey 4, cloud-disk check 3, SMB 1.
    assert len(COMMANDS) == 36
    assert len({c.id for c in COMMANDS}) == 36
    assert set(EXPECTED) == {c.id for c in COMMANDS}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.id)
def test_guide_command_is_read_as_meant(command: GuideCommand) -> None:
    assert reading(command) == EXPECTED[command.id], command.text
    [job] = frame_jobs(parse_fio_paste(command.text).jobs)[0]
    written = dict(re.findall(r"--(rw|bs|iodepth|numjobs)=(\S+)", command.text))
    assert job.name in command.text
    assert job.rw == written["rw"]
    assert job.bs == parse_size(written["bs"])
    assert job.iodepth == int(written.get("iodepth", "1"))


def test_the_placeholder_of_a_guide_says_what_to_replace() -> None:
    nas = next(c for c in COMMANDS if c.id.startswith("NAS Linux"))
    [notice] = frame_jobs(parse_fio_paste(nas.text).jobs)[1]
    assert (notice.option, notice.value) == ("directory", "<mount>")
    assert "<mount>: the guide's placeholder" in notice.message
    assert "replace it by choosing the target" in notice.message


def test_a_raw_device_write_needs_a_confirmed_destructive_target() -> None:
    # The guide warns that testing the raw device destroys its file system.
    write = next(c for c in COMMANDS if c.id == "device survey: randwrite")
    unconfirmed = GuideCommand(
        write.id, write.text, SafetyTarget(kind="block_device", path="/dev/vdb")
    )
    assert reading(unconfirmed) == ("refused", ("destroying data",))
