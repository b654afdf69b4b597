"""Every published preset says what its source published: options, figures, platform, target.

The published lines are read from tests/published/recipes.md (a verbatim copy of the source's
recipe section) by the small readers below, never from the presets' modules, so a preset that
drifts from its line fails here. One case per preset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from storbench_fio.job import FioJob, validate_job_dict
from storbench_fio.presets import PRESETS, Preset, get_preset

PUBLISHED = (Path(__file__).parent / "published" / "recipes.md").read_text()
_BARE_FLAGS = {"thread", "time_based", "group_reporting", "norandommap", "refill_buffers"}


# ---- reading the published text --------------------------------------------------------------


def section(title_start: str) -> str:
    """The paragraph that starts with **title_start...** up to the next bold title or heading."""
    match = re.search(
        r"^\*\*" + re.escape(title_start) + r".*?(?=^\*\*|^## |\Z)", PUBLISHED, re.M | re.S
    )
    assert match is not None, title_start
    return match[0]


def options_in(text: str) -> dict[str, str]:
    """key=value and bare fio flags written as words ("time_based", "thread")."""
    found: dict[str, str] = {}
    for word in re.split(r"[\s,;()]+", text):
        key, sep, value = word.partition("=")
        if sep and re.fullmatch(r"[a-z_]+", key):
            found[key] = value
        elif word in _BARE_FLAGS:
            found[word] = "1"
    return found


def table(text: str) -> list[dict[str, str]]:
    """The rows of the markdown table in text, by column header."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def row(text: str, test: str) -> dict[str, str]:
    [found] = [r for r in table(text) if r["test"] == test]
    return found


def figures(cell: str) -> list[tuple[float, str, str | None]]:
    """'capacity type ~150 MB/s; ...' -> [(150, 'MB/s', 'capacity type'), ...]"""
    parsed = []
    for part in cell.split(";"):
        match = re.fullmatch(
            r"\s*(?P<note>.*?)\s*~(?P<num>[\d.,]+)(?P<k>k?) (?P<unit>\S+)\s*", part
        )
        assert match is not None, part
        value = float(match["num"].replace(",", "")) * (1000 if match["k"] else 1)
        parsed.append((value, match["unit"], match["note"] or None))
    return parsed


def number(text: str) -> float:
    """'~5,900' or '129k' as a number."""
    text = text.strip("~ ")
    scale = 1000 if text.endswith("k") else 1
    return float(text.rstrip("k").replace(",", "")) * scale


# ---- what each preset must be -----------------------------------------------------------------


@dataclass
class Published:
    """One published recipe: its options, where it points fio, its figures and how it runs."""

    options: dict[str, str]
    figures: list[tuple[float, str, str | None]] = field(default_factory=list)
    platform: str = "linux"
    target_kind: str = "directory"
    measures: str | None = None
    command: str | None = None
    derived: bool = False
    figure_basis: str = "expected"


def _is_target(key: str, value: str) -> bool:
    """A directory or file the publisher names on its own storage (the target stands in)."""
    return key in ("directory", "filename") and bool(re.match(r"<|[A-Za-z]\\?:|\\\\", value))


def _measures(test: str) -> str:
    return next(m for m in ("latency", "iops", "throughput") if m in test.lower())


NAS = section("NAS (general-purpose NAS service), Linux")
NAS_WINDOWS = re.search(r"Windows variant \(same expected figures as the table\): (.*?) —", NAS)
CLOUD_FS = section("Cloud file system")
CLOUD_DISK = section("Cloud block storage (disk)")
NFS = section("Managed NFS volume")
NFS_WINDOWS = re.search(r"Windows variants \((.*?)\): (.*?), each with (.*?)\. ", NFS)
DEVICE = section("Device survey")
SMB = section("SMB share from Windows")
DISKS = next(line for line in PUBLISHED.splitlines() if line.startswith("Disks ("))
CLOUD_FS_SPEC = next(line for line in PUBLISHED.splitlines() if line.startswith("Cloud file sys"))


def nas(test: str, windows: bool) -> Published:
    common = options_in(NAS.split("— common:", 1)[1].splitlines()[0])
    published = row(NAS, test)
    options = {**common, "rw": published["rw"], "bs": published["bs"]}
    if windows:
        assert NAS_WINDOWS is not None
        options.update(options_in(NAS_WINDOWS[1]))
    return Published(
        options,
        figures(published["expected (one host)"]),
        platform="windows" if windows else "linux",
        measures=_measures(test),
    )


def cloud_fs(test: str) -> Published:
    common = options_in(CLOUD_FS.split("— common:", 1)[1].splitlines()[0])
    published = row(CLOUD_FS, test)
    options = {**common, **{k: published[k] for k in ("rw", "bs", "size", "numjobs", "iodepth")}}
    found: list[tuple[float, str, str | None]] = []
    if test == "write latency":
        latency = re.search(r"standard tier (4 KiB write latency) ~(\d+) (ms)", CLOUD_FS_SPEC)
        assert latency is not None
        found = [(float(latency[2]), latency[3], f"standard tier {latency[1]}")]
    basis = "expected"
    if "throughput" in test:
        cap = re.search(r"a (2 Gbps) client reaches ~([\d.]+) (GiB/s)", CLOUD_FS)
        assert cap is not None
        found, basis = [(float(cap[2]), cap[3], f"network ceiling of a {cap[1]} client")], "ceiling"
    return Published(options, found, measures=_measures(test), figure_basis=basis)


def cloud_disk(test: str) -> Published:
    common = options_in(CLOUD_DISK.split("— ", 1)[1].splitlines()[0])
    published = row(CLOUD_DISK, test)
    options = {**common, **{k: published[k] for k in ("rw", "bs", "iodepth")}}
    return Published(options, measures=_measures(test))


def nfs(test: str, windows: bool) -> Published:
    options = options_in(NFS.split("— common:", 1)[1].splitlines()[0])
    published = row(NFS, test)
    options.update({k: published[k].split()[0] for k in ("rw", "bs", "iodepth", "numjobs")})
    if windows:
        assert NFS_WINDOWS is not None
        engine, variants, each = NFS_WINDOWS.groups()
        options.update(options_in(each))
        options.update(options_in(engine.replace("`", " ").replace("--", "")))
        variant = re.search(
            re.escape(test) + r" \((\w+) (\w+) iodepth (\d+)(?: numjobs (\d+))?\)", variants
        )
        assert variant is not None, test
        rw, bs, iodepth, numjobs = variant.groups()
        options.update({"rw": rw, "bs": bs, "iodepth": iodepth})
        if numjobs is not None:
            options["numjobs"] = numjobs
    return Published(options, platform="windows" if windows else "linux", measures=_measures(test))


def device(rw: str) -> Published:
    head = re.search(r"raw device, (.*?), (bs=\S+ iodepth=\S+) for ([\w/]+);", DEVICE)
    assert head is not None
    assert rw in head[3].split("/")
    options = {**options_in(head[1]), **options_in(head[2]), "rw": rw}
    kind = {"read": "seq read", "randread": "random read", "randwrite": "random write"}.get(rw)
    found = []
    for disk_part in DISKS.split(": ", 1)[1].split(". ")[0].split("; "):
        disk = re.match(r"(SATA HDD|SAS HDD|SSD) ", disk_part)
        assert disk is not None
        for entry in disk_part[disk.end() :].split(", "):
            match = re.fullmatch(
                r"(?P<kind>[a-z ]+?) ~(?P<num>[\d.,k]+) (?P<unit>\S+?)"
                r"(?: \((?P<paren>[^)]*)\))?\.?",
                entry,
            )
            assert match is not None, entry
            if match["kind"] == kind or (kind == "seq read" and match["kind"] == "seq"):
                note = disk[1] + (f" ({match['paren']})" if match["paren"] else "")
                found.append((number(match["num"]), match["unit"], note))
    return Published(options, found, target_kind="block_device", figure_basis="measured")


def cloud_disk_check(rw: str, bs: str) -> Published:
    head = re.search(r"raw device, (.*?), bs=", DEVICE)
    check = re.search(r"Cloud-disk check \(([^)]*) on the raw device\): (.*?) for peak", DEVICE)
    assert head is not None
    assert check is not None
    options = {**options_in(head[1]), **options_in(check[1])}
    for item in check[2].split("; "):
        match = re.fullmatch(r"(\d+k) (randwrite|randread|sequential write) iodepth=(\d+)", item)
        assert match is not None, item
        item_rw = "write" if match[2] == "sequential write" else match[2]
        if (item_rw, match[1]) == (rw, bs):
            options.update({"rw": item_rw, "bs": match[1], "iodepth": match[3]})
    assert "rw" in options, (rw, bs)
    sla = re.search(r"A cloud disk with a (.*?) SLA measured (.*?)\.$", DISKS)
    assert sla is not None
    disk = f"cloud disk with a {sla[1]} SLA"
    found: list[tuple[float, str, str | None]] = []
    # "~5,900 IOPS at 4K **random write** QD32 (mean 5.42 ms, p95 6.24 ms)"
    iops = re.search(
        r"~([\d,]+) IOPS at (\d+)K \*\*random write\*\* QD(\d+) "
        r"\(mean ([\d.]+) ms, p95 ([\d.]+) ms\)",
        sla[2],
    )
    # "~170 MB/s (174,226 KB/s) at 512K sequential write QD64"
    peak = re.search(r"~(\d+) MB/s \(([\d,]+ KB/s)\) at (\d+)K sequential write QD(\d+)", sla[2])
    assert iops is not None
    assert peak is not None
    if (rw, bs, options["iodepth"]) == ("randwrite", f"{iops[2]}k", iops[3]):
        found = [
            (number(iops[1]), "IOPS", disk),
            (float(iops[4]), "ms", f"mean latency; {disk}"),
            (float(iops[5]), "ms", f"95th percentile latency; {disk}"),
        ]
    if (rw, bs, options["iodepth"]) == ("write", f"{peak[3]}k", peak[4]):
        found = [(float(peak[1]), "MB/s", f"{disk} ({peak[2]})")]
    return Published(options, found, target_kind="block_device", figure_basis="measured")


def smb() -> Published:
    command = re.search(r"`(fio\.exe [^`]*)`", SMB)
    assert command is not None
    options: dict[str, str] = {}
    for word in command[1].split()[1:]:
        key, sep, value = word.removeprefix("--").partition("=")
        options[key] = value if sep else "1"
    return Published(options, platform="windows", measures="throughput", command=command[1])


CASES: dict[str, Published] = {
    **{
        f"nas-{platform}-{slug}": nas(test, platform == "windows")
        for slug, test in [
            ("randread-iops", "random read IOPS"),
            ("randwrite-iops", "random write IOPS"),
            ("randread-throughput", "random read throughput"),
            ("randwrite-throughput", "random write throughput"),
        ]
        for platform in ("linux", "windows")
    },
    "smb-windows-write-verify": smb(),
    **{f"cloudfs-{test.replace(' ', '-').lower()}": cloud_fs(test) for test in
       ["read latency", "write latency", "read IOPS", "write IOPS", "read throughput",
        "write throughput"]},
    **{f"clouddisk-{slug}": cloud_disk(test) for slug, test in [
        ("randwrite-iops", "random write IOPS"), ("randread-iops", "random read IOPS"),
        ("seqwrite-throughput", "sequential write throughput"),
        ("seqread-throughput", "sequential read throughput")]},
    **{f"nfs-{slug}": nfs(test, False) for slug, test in
       [("latency", "latency"), ("iops", "IOPS"), ("throughput", "throughput")]},
    **{f"nfs-windows-{slug}": nfs(test, True) for slug, test in
       [("latency", "latency"), ("iops", "IOPS"), ("throughput", "throughput")]},
    **{f"device-{rw}-4k": device(rw) for rw in ("read", "randread", "write", "randwrite")},
    "device-clouddisk-randwrite-4k": cloud_disk_check("randwrite", "4k"),
    "device-clouddisk-randread-4k": cloud_disk_check("randread", "4k"),
    "device-clouddisk-seqwrite-512k": cloud_disk_check("write", "512k"),
}  # fmt: skip
STARTERS = {"randread-4k-iops", "seqwrite-1m-throughput"}
DERIVED = {"device-qd-sweep-randwrite-4k"}


def preset_for(preset_id: str) -> Preset:
    preset = get_preset(preset_id)
    assert preset is not None, f"no preset {preset_id} for a published recipe"
    return preset


def without_name(job: FioJob) -> dict[str, object]:
    return job.model_dump(exclude={"name"}, exclude_none=True)


@pytest.mark.parametrize("preset_id", sorted(CASES))
def test_preset_matches_its_published_recipe(preset_id: str) -> None:
    published = CASES[preset_id]
    preset = preset_for(preset_id)
    targets = {k: v for k, v in published.options.items() if _is_target(k, v)}
    options = {k: v for k, v in published.options.items() if k not in targets}
    name = options.pop("name", None)
    [job] = preset.resolved_jobs()
    assert without_name(job) == without_name(validate_job_dict({"name": "x", **options}))
    if name is not None:
        assert job.name == name
    assert preset.target_options == targets
    assert [(f.value, f.unit, f.note) for f in preset.expected] == published.figures
    assert all(f.basis == published.figure_basis for f in preset.expected)
    assert (preset.platform, preset.target_kind) == (published.platform, published.target_kind)
    if published.measures is not None:
        assert preset.measures == published.measures
    assert preset.published_command == published.command
    assert preset.derived is False


def test_every_preset_is_a_published_recipe_a_starter_or_marked_derived() -> None:
    assert {p.id for p in PRESETS} == set(CASES) | STARTERS | DERIVED
    assert [p.id for p in PRESETS if p.derived] == sorted(DERIVED)


def test_the_queue_depth_sweep_is_derived_from_the_published_description() -> None:
    sweep = preset_for("device-qd-sweep-randwrite-4k")
    described = re.search(r"queue-depth sweep ([\d, …]+) at 4 KiB (\w+) \((.*?)\)", DEVICE)
    assert described is not None
    assert "derived recipe, not a published fio command" in described[3]
    assert sweep.derived is True
    assert "Derived" in sweep.description
    first, *_, last = (int(n) for n in re.findall(r"\d+", described[1]))
    depths = [job.iodepth for job in sweep.jobs]
    assert depths == [1 << k for k in range(depths.index(first), 9)]
    assert depths[-1] == last
    head = re.search(r"raw device, (.*?), bs=", DEVICE)
    assert head is not None
    for job in sweep.jobs:
        assert (job.rw, job.bs, job.stonewall) == (described[2], 4096, True)
        common = validate_job_dict({"name": "x", "rw": "read", **options_in(head[1])})
        assert (job.ioengine, job.direct, job.runtime) == (
            common.ioengine,
            common.direct,
            common.runtime,
        )
    sata = re.search(r"stays ~(\d+) IOPS from QD 1 to 256 .*?\((\d+) ms → (\d+) ms\)", DISKS)
    raid = re.search(r"from ~([\d,]+) IOPS at QD 1 to a ~([\d,]+) plateau from QD 4", DISKS)
    assert sata is not None
    assert raid is not None
    assert [(f.value, f.unit, f.job) for f in sweep.expected] == [
        (number(sata[1]), "IOPS", None),
        (float(sata[2]), "ms", "qd1"),
        (float(sata[3]), "ms", "qd256"),
        (number(raid[1]), "IOPS", "qd1"),
        (number(raid[2]), "IOPS", None),
    ]
    assert {f.job for f in sweep.expected} <= {None, *(j.name for j in sweep.jobs)}


def test_the_nfs_iops_windows_sixteen_is_its_iodepth() -> None:
    # The table's "1 (Windows: 16, thread)" sits in the numjobs column, but the Windows variants
    # line spells the recipe out: iodepth 16, numjobs 1.
    assert "1 (Windows: 16, thread)" in row(NFS, "IOPS")["numjobs"]
    [job] = preset_for("nfs-windows-iops").jobs
    assert (job.iodepth, job.numjobs, job.thread) == (16, 1, True)
