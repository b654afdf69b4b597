import type { Assignment, ProgressSample, RunStatus } from "../../../lib/api/types";
import { formatPercent, formatSeconds } from "../../../lib/format";
import { latestSample, type HostSeries } from "./progress-series";

interface HostProgressBarsProps {
  /** Every host of the run, in the run's order. */
  hosts: { name: string; status: RunStatus | null }[];
  series: HostSeries[];
}

/** One bar per host: how far fio is, and how long it still needs (fio's own estimate). */
export function HostProgressBars({ hosts, series }: HostProgressBarsProps) {
  return (
    <ul className="progress-list">
      {hosts.map((host) => (
        <li key={host.name}>
          <HostProgressBar
            host={host.name}
            status={host.status}
            sample={latestSample(series.find((item) => item.host === host.name))}
          />
        </li>
      ))}
    </ul>
  );
}

function HostProgressBar({ host, status, sample }: { host: string; status: RunStatus | null; sample?: ProgressSample }) {
  // A host that finished before the others is done, whatever its last report said.
  const percent = status === "completed" ? 100 : sample?.percent ?? null;
  const eta = status === "completed" ? 0 : sample?.eta_s ?? null;
  const state = describe(status, sample, percent, eta);
  return (
    <div className="progress-host">
      <div className="progress-head">
        <span className="progress-name">
          {host}
        </span>
        <span className="small muted tabular">{state}</span>
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={`Progress on ${host}`}
        aria-valuemin={0}
        aria-valuemax={100}
        // No value while fio cannot tell: an indeterminate bar.
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? state : `${formatPercent(percent)}${eta !== null ? `, ${formatSeconds(eta)} left` : ""}`}
      >
        <div className={`progress-fill${percent === null ? " progress-fill-unknown" : ""}`} style={{ width: `${percent ?? 100}%` }} />
      </div>
    </div>
  );
}

function describe(status: RunStatus | null, sample: ProgressSample | undefined, percent: number | null, eta: number | null): string {
  if (status === "failed" || status === "cancelled") return status;
  if (status === "completed") return "done";
  if (!sample) return status === "queued" ? "preparing, waiting for the common start" : "waiting for fio's first report";
  // A preconditioning fill is not measured: say so, or its figures read as the workload's.
  const parts = sample.phase === "preconditioning" ? ["preconditioning (filling the working set, not measured)"] : [];
  parts.push(percent === null ? "progress unknown" : formatPercent(percent));
  parts.push(eta === null ? "ETA unknown" : `ETA ${formatSeconds(eta)}`);
  parts.push(`${formatSeconds(sample.elapsed_s)} elapsed`);
  return parts.join(" · ");
}

/** The hosts of a run with their own status: its assignments, else its one host. */
export function runHosts(assignments: Assignment[] | undefined, fallback: string): { name: string; status: RunStatus | null }[] {
  if (assignments?.length) return assignments.map((item) => ({ name: item.host.name, status: item.status }));
  return [{ name: fallback, status: null }];
}
