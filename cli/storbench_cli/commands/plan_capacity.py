"""`storbench plan-capacity`: every storage class sized for a workload, ranked, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..api import Api
from ..display import MISSING, render_table
from ..errors import EXIT_OK, UsageError

PROTOCOLS = ("block", "nfs", "smb", "cfs")
RWS = ("randread", "randwrite", "read", "write")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text!r}")
    return value


def _class_id(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"expected a storage class id (see GET /storage-classes), got {text!r}"
        )
    return int(text)


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parent: argparse.ArgumentParser
) -> None:
    """Register `plan-capacity`."""
    parser = commands.add_parser(
        "plan-capacity",
        parents=[parent],
        help="which storage class, how big, how many hosts, at what cost",
        description="Size every storage class (the catalogue and the team's own) for a workload: "
        "the smallest capacity whose spec carries it, client hosts, monthly cost, the team's "
        "measured-to-spec ratios, and why the others cannot. Feasible first, by cost then headroom.",
    )
    demand = parser.add_argument_group("workload")
    demand.add_argument("--iops", type=_positive, help="IOPS needed")
    demand.add_argument("--rw", choices=RWS, default="randread", help="kind of I/O of --iops (randread)")
    demand.add_argument("--bs", default="4k", help="block size of --iops (4k)")
    demand.add_argument("--p99-ms", type=_positive, help="p99 latency bound of --iops, in ms")
    demand.add_argument("--mbps", type=_positive, help="MB/s needed (10^6 bytes, as vendors publish)")
    demand.add_argument("--mbps-rw", choices=RWS, default="write", help="kind of I/O of --mbps (write)")
    demand.add_argument("--mbps-bs", default="1M", help="block size of --mbps (1M)")
    limits = parser.add_argument_group("constraints")
    limits.add_argument("--protocol", choices=PROTOCOLS, help="only classes of this protocol")
    limits.add_argument("--vendor", help="only classes of this vendor")
    limits.add_argument("--max-hosts", type=int, help="most client hosts")
    limits.add_argument("--budget", type=_positive, help="most per month")
    limits.add_argument("--data-gib", type=_positive, help="data the volume must hold, GiB")
    limits.add_argument("--nic-mbps", type=_positive, help="one client's network, MB/s")
    limits.add_argument(
        "--class", dest="include", type=_class_id, action="append", help="only this class (repeat)"
    )
    limits.add_argument(
        "--exclude", type=_class_id, action="append", default=[], help="not this class (repeat)"
    )
    parser.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    parser.set_defaults(handler=execute)


def request_body(args: argparse.Namespace) -> dict[str, Any]:
    """The planner request the options describe."""
    demands: list[dict[str, Any]] = []
    if args.iops is not None:
        shape: dict[str, Any] = {"figure": "iops", "value": args.iops, "rw": args.rw, "bs": args.bs}
        if args.p99_ms is not None:
            shape.update(latency_percentile=99, latency_ms=args.p99_ms)
        demands.append(shape)
    if args.mbps is not None:
        demands.append({"figure": "mbps", "value": args.mbps, "rw": args.mbps_rw, "bs": args.mbps_bs})
    if not demands:
        raise UsageError("give the workload: --iops N and/or --mbps N (see storbench plan-capacity --help)")
    given = {
        "protocol": args.protocol,
        "vendor": args.vendor,
        "max_hosts": args.max_hosts,
        "budget": args.budget,
        "data_gib": args.data_gib,
        "host_nic_mbps": args.nic_mbps,
        "include_classes": args.include,
        "exclude_classes": args.exclude or None,
    }
    return {"demands": demands, "constraints": {k: v for k, v in given.items() if v is not None}}


def _number(value: float | None, digits: int = 0) -> str:
    return MISSING if value is None else f"{value:,.{digits}f}"


def _measured(candidate: dict[str, Any]) -> str:
    ratio = candidate.get("measured_ratio")
    if ratio is None or ratio.get("median") is None:
        return "not measured" if not candidate["measurements"] else "cache only"
    return f"{ratio['median']:.2f}x (n={ratio['n']})"


def _why(candidate: dict[str, Any]) -> str:
    if candidate["feasible"]:
        return ""
    # Notes on what the team measured, not why the class cannot.
    skipped = ("no measurements", "no price", "one client host reached", "at what one host", "measured p")
    reasons = [r for r in candidate["reasons"] if not r.startswith(skipped)]
    return reasons[0] if reasons else ""


def candidates_text(answer: dict[str, Any]) -> str:
    """The ranked candidates as a table, then the client bound assumed."""
    headers = (
        "rank",
        "class",
        "fits",
        "GiB",
        "GiB as measured",
        "hosts",
        "per month",
        "headroom",
        "measured",
        "why not",
    )
    rows = [
        [
            str(rank),
            c["name"],
            "yes" if c["feasible"] else "no",
            _number(c["capacity_gib"]),
            _number(c["measured_capacity_gib"]),
            _number(c["hosts"]),
            _number(c["monthly_cost"], 2),
            MISSING if c["headroom"] is None else f"{c['headroom']:.2f}x",
            _measured(c),
            _why(c),
        ]
        for rank, c in enumerate(answer["candidates"], start=1)
    ]
    client = answer["client"]
    nic = MISSING if client["host_nic_mbps"] is None else f"{client['host_nic_mbps']:,.0f} MB/s"
    table = render_table(
        headers, rows, right=("rank", "GiB", "GiB as measured", "hosts", "per month", "headroom")
    )
    return f"{table}\n\nclient network: {nic} ({client['source']})"


def execute(api: Api, args: argparse.Namespace) -> int:
    """Ask the planner and print its ranked candidates."""
    answer = api.post("/planner", json=request_body(args))
    if args.format == "json":
        json.dump(answer, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(candidates_text(answer))
    return EXIT_OK
