import { isApiError } from "../../../lib/api-client";
import type { RunCheck } from "../api/check-run";

interface RunCheckSummaryProps {
  check: RunCheck | undefined;
  error: Error | null;
  pending: boolean;
}

/** What the run needs of its hosts (space, fio's memory) and what would stop it, before it starts. */
export function RunCheckSummary({ check, error, pending }: RunCheckSummaryProps) {
  // The check only informs: starting the run is what the server decides on.
  if (error) {
    return (
      <p className="muted small">Could not check the run beforehand: {isApiError(error) ? error.message : String(error)}</p>
    );
  }
  if (!check) return pending ? <p className="muted small">Checking what the run needs…</p> : null;
  return (
    <div
      className={`run-check ${check.ok ? "alert alert-ok" : "alert alert-warn"}`}
      role="status"
      aria-label="Before starting"
    >
      <p className="small">
        <strong>{check.ok ? "Ready to start" : "The server would refuse this run"}</strong>
        {check.hosts.length ? ` on ${check.hosts.join(", ")}` : ""}
      </p>
      <ul className="plain-list small">
        {check.summary.map((line) => (
          <li key={line}>{line}</li>
        ))}
        {check.problems.map((problem, index) => (
          <li key={`p${index}`} className="field-error">
            {problem.option ?? problem.field ? <span className="mono">{problem.option ?? problem.field}: </span> : null}
            {problem.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
