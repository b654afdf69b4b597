import { Link } from "react-router";
import type { Direction, DirectionName, Result } from "../../../lib/api/types";
import { formatBandwidth, formatDateTime, formatIops, formatNs } from "../../../lib/format";
import { activeDirections, meanSource, percentile, percentileSource } from "../../../lib/latency";
import { FindingsCount, SpecCheckBadges } from "./result-advice";

export interface TargetName {
  id: number;
  name: string;
}

interface ResultsTableProps {
  results: Result[];
  /** Names for target ids (a result keeps its label even if its target is renamed). */
  targets: TargetName[];
}

/** The history, newest first: one row per result and direction that did I/O. */
export function ResultsTable({ results, targets }: ResultsTableProps) {
  if (results.length === 0) return <p className="muted">No results match these filters.</p>;
  const targetNames = new Map(targets.map((target) => [target.id, target.name]));
  return (
    <div className="table-scroll">
      <table className="table table-compact">
        <caption className="sr-only">Result history</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Label / target</th>
            <th scope="col">Storage class</th>
            <th scope="col">Host</th>
            <th scope="col">Job</th>
            <th scope="col">Direction</th>
            <th scope="col" className="num">
              IOPS
            </th>
            <th scope="col" className="num">
              Bandwidth
            </th>
            <th scope="col" className="num">
              Mean latency
            </th>
            <th scope="col" className="num">
              p99 latency
            </th>
            <th scope="col">Spec</th>
            <th scope="col">fio</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {results.flatMap((result) => {
            const directions: [DirectionName | null, Direction | null][] = activeDirections(result);
            if (directions.length === 0) directions.push([null, null]);
            return directions.map(([name, direction]) => (
              <ResultRow
                key={`${result.id}-${name ?? "none"}`}
                result={result}
                direction={name}
                figures={direction}
                targetName={result.target_id !== null ? targetNames.get(result.target_id) : undefined}
              />
            ));
          })}
        </tbody>
      </table>
    </div>
  );
}

interface ResultRowProps {
  result: Result;
  direction: DirectionName | null;
  figures: Direction | null;
  targetName: string | undefined;
}

function ResultRow({ result, direction, figures, targetName }: ResultRowProps) {
  const mean = figures ? meanSource(figures) : null;
  const p99 = figures ? percentile(percentileSource(figures), "99") : undefined;
  const label = result.label ?? targetName;
  // Each direction's row shows its own checks; a row without a direction shows them all.
  const checks = direction ? result.spec_checks.filter((check) => check.direction === direction) : result.spec_checks;
  return (
    <tr>
      <td className="nowrap">
        <time dateTime={result.created_at}>{formatDateTime(result.created_at)}</time>
      </td>
      <th scope="row">
        {label ?? <span className="muted">—</span>}
        {targetName && targetName !== label ? <span className="small muted"> ({targetName})</span> : null}
      </th>
      <td>{result.storage_class ?? "—"}</td>
      <td>{result.host_name}</td>
      <td className="mono">{result.job_name}</td>
      <td>{direction ?? "—"}</td>
      <td className="num">{formatIops(figures?.iops)}</td>
      <td className="num">{formatBandwidth(figures?.bw_bytes)}</td>
      <td className="num">{formatNs(mean?.mean_ns)}</td>
      <td className="num">{formatNs(p99)}</td>
      <td>
        <span className="badges">
          <SpecCheckBadges checks={checks} />
          <FindingsCount findings={result.findings} />
        </span>
      </td>
      <td className="small">{result.fio_version ?? "—"}</td>
      <td>
        <span className="badges">
          {result.run_id !== null ? <Link to={`/runs/${result.run_id}`}>Run #{result.run_id}</Link> : null}
          {result.imported ? <span className="badge badge-info">imported</span> : null}
          {result.partial ? (
            <span className="badge badge-warn" title="fio was stopped before the end">
              partial
            </span>
          ) : null}
        </span>
      </td>
    </tr>
  );
}
