import type { Run } from "../../../lib/api/types";
import { formatBandwidthBoth, formatIops, formatLatency } from "../../../lib/format";

/** A run's headline: IOPS, or bandwidth (MiB/s, with MB/s) for blocks of 64 KiB and more, with its p99 latency. */
export function RunHeadlineFigure({ run }: { run: Run }) {
  const headline = run.headline;
  if (!headline) return <span className="muted">—</span>;
  const figure =
    headline.metric === "throughput" ? formatBandwidthBoth(headline.bw_bytes) : `${formatIops(headline.iops)} IOPS`;
  const more = headline.jobs > 1 ? ` (first of ${headline.jobs} jobs: ${headline.job_name})` : "";
  return (
    <span className="tabular" title={`${headline.job_name}, all hosts${more}`}>
      {figure}
      {headline.p99_ns != null ? <span className="muted small"> · p99 {formatLatency(headline.p99_ns)}</span> : null}
      {headline.partial ? <span className="muted small"> (partial)</span> : null}
    </span>
  );
}
