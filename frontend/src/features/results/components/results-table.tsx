import { Link } from "react-router";
import type { Direction, DirectionName, Result } from "../../../lib/api/types";
import { figureLabel, type FigureName } from "../../../lib/figures";
import { formatBandwidth, formatDateTime, formatIops, formatNs } from "../../../lib/format";
import { activeDirections, meanSource, percentile, percentileSource } from "../../../lib/latency";
import { FindingsCount, SpecCheckBadges } from "../../../components/ui/result-advice";
import { ResultLabelEditor } from "./result-label-editor";
import { ResultRowActions } from "./result-row-actions";

/** The figures each direction row shows, in its columns. */
const TABLE_FIGURES: readonly FigureName[] = ["iops", "bw_bytes", "lat_mean_ns", "clat_p99_ns"];

export interface TargetName {
  id: number;
  name: string;
}

/** What the signed-in user may do with the rows, and the ticked results (omit for a read-only table). */
export interface ResultsTableControls {
  selected: ReadonlySet<number>;
  onToggle: (id: number, selected: boolean) => void;
  canRelabel: boolean;
  canDelete: boolean;
}

interface ResultsTableProps {
  results: Result[];
  /** Names for target ids (a result keeps its label even if its target is renamed). */
  targets: TargetName[];
  controls?: ResultsTableControls;
}

/** The history, newest first: one row per result and direction that did I/O, dated when fio measured. */
export function ResultsTable({ results, targets, controls }: ResultsTableProps) {
  if (results.length === 0) return <p className="muted">No results match these filters.</p>;
  const targetNames = new Map(targets.map((target) => [target.id, target.name]));
  return (
    <div className="table-scroll">
      <table className="table table-compact">
        <caption className="sr-only">Result history</caption>
        <thead>
          <tr>
            {controls ? (
              <th scope="col">
                <span className="sr-only">Select</span>
              </th>
            ) : null}
            <th scope="col">Measured</th>
            <th scope="col">Label / target</th>
            <th scope="col">Storage class</th>
            <th scope="col">Host</th>
            <th scope="col">Job</th>
            <th scope="col">Direction</th>
            {TABLE_FIGURES.map((figure) => (
              <th key={figure} scope="col" className="num">
                {figureLabel(figure)}
              </th>
            ))}
            <th scope="col">Spec</th>
            <th scope="col">fio</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {results.flatMap((result) => {
            const directions: [DirectionName | null, Direction | null][] = activeDirections(result);
            if (directions.length === 0) directions.push([null, null]);
            return directions.map(([name, direction], index) => (
              <ResultRow
                key={`${result.id}-${name ?? "none"}`}
                result={result}
                direction={name}
                figures={direction}
                targetName={result.target_id !== null ? targetNames.get(result.target_id) : undefined}
                // A result's own cells (selection, label, actions) span its direction rows.
                span={index === 0 ? directions.length : 0}
                controls={controls}
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
  /** Rows the result's own cells span; 0 on its second and later direction rows. */
  span: number;
  controls: ResultsTableControls | undefined;
}

function ResultRow({ result, direction, figures, targetName, span, controls }: ResultRowProps) {
  const mean = figures ? meanSource(figures) : null;
  const p99 = figures ? percentile(percentileSource(figures), "99") : undefined;
  const label = result.label ?? targetName;
  // Each direction's row shows its own checks; a row without a direction shows them all.
  const checks = direction ? result.spec_checks.filter((check) => check.direction === direction) : result.spec_checks;
  return (
    <tr>
      {controls && span > 0 ? (
        <td rowSpan={span}>
          <input
            type="checkbox"
            aria-label={`Select result ${result.id} (${result.job_name}${label ? `, ${label}` : ""})`}
            checked={controls.selected.has(result.id)}
            onChange={(e) => controls.onToggle(result.id, e.target.checked)}
          />
        </td>
      ) : null}
      <td className="nowrap">
        {/* When fio measured it (its own date for imports); when it was stored is in the title. */}
        <time dateTime={result.measured_at} title={`stored ${formatDateTime(result.created_at)}`}>
          {formatDateTime(result.measured_at)}
        </time>
      </td>
      <th scope="row">
        {controls && span > 0 ? (
          <ResultLabelEditor
            resultId={result.id}
            label={result.label}
            fallback={targetName}
            canEdit={controls.canRelabel}
          />
        ) : (
          (label ?? <span className="muted">—</span>)
        )}
        {targetName && targetName !== label ? <span className="small muted"> ({targetName})</span> : null}
        {controls && span > 0 ? (
          // Beside the label, not in a last column a wide table would scroll out of sight.
          <ResultRowActions
            result={result}
            canDelete={controls.canDelete}
            onDeleted={() => controls.onToggle(result.id, false)}
          />
        ) : null}
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
