"""fio outputs with chosen figures: a real fio json output, its numbers and job options replaced."""

import copy
import json
from pathlib import Path
from typing import Any

from tests.support.fio import run_fio_json


def template(workdir: Path) -> dict[str, Any]:
    """A real fio json+ output of a short random read, to reshape."""
    return dict(
        json.loads(
            run_fio_json(
                workdir,
                "--name=t",
                "--rw=randread",
                "--bs=4k",
                "--size=4m",
                "--runtime=1",
                "--time_based",
                "--ioengine=psync",
            )
        )
    )


def shaped(
    base: dict[str, Any],
    *,
    iops: float,
    name: str = "randread-4k",
    rw: str = "randread",
    bs: str = "4k",
    iodepth: int = 32,
    numjobs: int = 1,
    lat_us: float | None = None,
    fio_version: str = "fio-3.33",
    timestamp: int = 1_700_000_000,
    usr_cpu: float = 5.0,
) -> str:
    """One job that read at iops with block size bs (bandwidth and latency follow from them)."""
    out = copy.deepcopy(base)
    out["fio version"] = fio_version
    out["timestamp"] = timestamp
    out["timestamp_ms"] = timestamp * 1000
    out.pop("global options", None)
    job = out["jobs"][0]
    job["jobname"] = name
    job["job options"] = {
        "name": name,
        "rw": rw,
        "bs": bs,
        "iodepth": str(iodepth),
        "numjobs": str(numjobs),
        "ioengine": "libaio",
        "direct": "1",
        "runtime": "60",
        "time_based": "1",
        "size": "1g",
        "filename": f"/mnt/x/{name}",
    }
    block = {"4k": 4096, "32k": 32768, "64k": 65536, "1m": 1 << 20, "4096": 4096}[bs]
    runtime_ms = 60_000
    total = int(iops * runtime_ms / 1000)
    mean_ns = (lat_us if lat_us is not None else iodepth / iops * 1e6) * 1000
    read = job["read"]
    read.update(
        iops=iops,
        bw_bytes=int(iops * block),
        bw=int(iops * block / 1024),
        io_bytes=total * block,
        io_kbytes=total * block // 1024,
        runtime=runtime_ms,
        total_ios=total,
    )
    for key in ("lat_ns", "clat_ns"):
        read[key].update(mean=mean_ns, min=mean_ns / 4, max=mean_ns * 8, stddev=mean_ns / 10)
    read["clat_ns"]["percentile"] = {
        "50.000000": int(mean_ns),
        "90.000000": int(mean_ns * 1.5),
        "95.000000": int(mean_ns * 2),
        "99.000000": int(mean_ns * 3),
        "99.900000": int(mean_ns * 5),
        "99.990000": int(mean_ns * 7),
    }
    read["clat_ns"].pop("bins", None)
    job["usr_cpu"] = usr_cpu
    job["sys_cpu"] = usr_cpu * 2
    return json.dumps(out)
