import { useRef } from "react";
import { Link } from "react-router";
import type { Direction, DirectionName, Result } from "../../../lib/api/types";
import { figureLabel, type FigureName } from "../../../lib/figures";
import { formatBandwidth, formatDateTime, formatIops, formatNs } from "../../../lib/format";
import { activeDirections, meanSource, percentile, percentileSource } from "../../../lib/latency";
import { useMenuDismiss } from "../../../lib/use-menu-dismiss";
import { FindingsCount, SpecCheckBadges } from "../../../components/ui/result-advice";
import { ResultLabelEditor } from "./result-label-editor";
import { ResultRowActions } from "./result-row-actions";

/** The figures each direction row shows in its columns: the ones a reader compares first. */
const TABLE_FIGURES: readonly FigureName[] = ["iops", "bw_bytes", "clat_p99_ns"];

/** The job's shape as fio printed its options (sizes as written: 4k, 1m): "randread 4k qd16 ×4". */
export function jobShape(options: Record<string, string>): string {
  const parts = [options.rw, options.bs];
  if (options.iodepth) parts.push(`qd${options.iodepth}`);
  if (options.numjobs && options.numjobs !== "1") parts.push(`×${options.numjobs}`);
  return parts.filter(Boolean).join(" ");
}

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
      <table className="table table-compact results-table">
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
            <th scope="col">Job</th>
            <th scope="col">Dir</th>
            {TABLE_FIGURES.map((figure) => (
              <th key={figure} scope="col" className="num">
                {figureLabel(figure)}
              </th>
            ))}
            <th scope="col">Spec</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
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
      <th scope="row" className="results-label">
        {controls && span > 0 ? (
          <ResultLabelEditor resultId={result.id} label={result.label} fallback={targetName} canEdit={controls.canRelabel} />
        ) : (
          (label ?? <span className="muted">—</span>)
        )}
        {targetName && targetName !== label ? <span className="small muted"> ({targetName})</span> : null}
        {result.imported ? <span className="badge badge-info">imported</span> : null}
        {result.partial ? (
          <span className="badge badge-warn" title="fio was stopped before the end">
            partial
          </span>
        ) : null}
      </th>
      <td className="results-job" title={`${result.job_name}: ${jobShape(result.options)}`}>
        <span className="mono">{result.job_name}</span> <span className="small muted">{jobShape(result.options)}</span>
      </td>
      <td>{direction ?? "—"}</td>
      <td className="num nowrap">{formatIops(figures?.iops)}</td>
      <td className="num nowrap">{formatBandwidth(figures?.bw_bytes)}</td>
      <td className="num nowrap">{formatNs(p99)}</td>
      <td>
        <span className="badges nowrap">
          <SpecCheckBadges checks={checks} short />
          <FindingsCount findings={result.findings} />
        </span>
      </td>
      <td>{span > 0 ? <ResultMenu result={result} figures={figures} controls={controls} /> : null}</td>
    </tr>
  );
}

/** What a row has no room for, and what can be done with the result: behind one Actions button. */
function ResultMenu({ result, figures, controls }: { result: Result; figures: Direction | null; controls?: ResultsTableControls }) {
  const mean = figures ? meanSource(figures) : null;
  const menu = useRef<HTMLDetailsElement>(null);
  const onToggle = useMenuDismiss(menu);
  return (
    <details className="row-menu" ref={menu} onToggle={onToggle}>
      <summary className="button button-small" aria-label={`Actions for result ${result.id}`}>
        Actions
      </summary>
      <div className="row-menu-panel">
        <dl className="row-menu-facts small">
          <dt>Host</dt>
          <dd>{result.host_name}</dd>
          <dt>Storage class</dt>
          <dd>{result.storage_class ?? "—"}</dd>
          <dt>{figureLabel("lat_mean_ns")}</dt>
          <dd>{formatNs(mean?.mean_ns)}</dd>
          <dt>fio</dt>
          <dd>{result.fio_version ?? "—"}</dd>
        </dl>
        {result.run_id !== null ? <Link to={`/runs/${result.run_id}`}>Run #{result.run_id}</Link> : null}
        {controls ? (
          <ResultRowActions result={result} canDelete={controls.canDelete} onDeleted={() => controls.onToggle(result.id, false)} />
        ) : null}
      </div>
    </details>
  );
}
