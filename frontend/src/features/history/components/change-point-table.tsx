import { useState } from "react";
import { Link } from "react-router";
import { figureLabel, figureUnit } from "../../../lib/figures";
import { formatDateTime, formatValue } from "../../../lib/format";
import type { ChangePoint } from "../api/list-regressions";
import { AcknowledgeForm } from "./acknowledge-form";
import { formatRatio } from "./trend-labels";

interface ChangePointTableProps {
  changes: ChangePoint[];
  targetNames: Map<number, string>;
  /** Members and owners acknowledge; viewers only read. */
  canAcknowledge: boolean;
}

function trendLink(change: ChangePoint): string {
  const query = new URLSearchParams({
    target_id: String(change.target_id),
    job: change.job_name,
    metric: change.metric,
    direction: change.direction,
  });
  return `/history?${query.toString()}`;
}

/** Regressions and improvements, each with its trend and its acknowledgement. */
export function ChangePointTable({ changes, targetNames, canAcknowledge }: ChangePointTableProps) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <table className="table" aria-label="Changes found">
      <thead>
        <tr>
          <th scope="col">Series</th>
          <th scope="col">Change</th>
          <th scope="col">Before → after (medians)</th>
          <th scope="col">From</th>
          <th scope="col">What changed</th>
          <th scope="col">Acknowledged</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          const unit = figureUnit(change.metric) ?? "count";
          const figure = figureLabel(change.metric);
          const target = targetNames.get(change.target_id) ?? `target ${change.target_id}`;
          return (
            <tr key={change.id}>
              <th scope="row">
                <Link to={trendLink(change)}>{`${target} · ${change.job_name} · ${change.direction} · ${figure}`}</Link>
              </th>
              <td>
                <span className={`tag tag-${change.kind}`}>{change.kind}</span> {formatRatio(change.ratio)}
                <StepFigures change={change} />
              </td>
              <td>
                {formatValue(unit, change.before_median)} → {formatValue(unit, change.after_median)}
              </td>
              <td>
                {formatDateTime(change.measured_at)} (result #{change.result_id})
              </td>
              <td>
                <LikelyCauses change={change} />
              </td>
              <td>
                {change.acknowledged_at ? (
                  <>
                    {change.acknowledged_by}: {change.comment}
                  </>
                ) : canAcknowledge ? (
                  open === change.id ? (
                    <AcknowledgeForm changeId={change.id} onDone={() => setOpen(null)} />
                  ) : (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Acknowledge ${change.kind} of ${target} ${change.job_name} ${figure}`}
                      onClick={() => setOpen(change.id)}
                    >
                      Acknowledge…
                    </button>
                  )
                ) : (
                  "not yet"
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Every figure that changed at this step (one regression, acknowledged together), when more than one. */
function StepFigures({ change }: { change: ChangePoint }) {
  const figures = change.step_figures ?? [];
  if (figures.length < 2) return null;
  return (
    <ul className="plain-list small" aria-label={`Figures that changed at result ${change.result_id}`}>
      {figures.map((figure) => {
        const unit = figureUnit(figure.metric) ?? "count";
        return (
          <li key={figure.id}>
            {figure.direction} {figureLabel(figure.metric)}: {formatValue(unit, figure.before_median)} →{" "}
            {formatValue(unit, figure.after_median)} ({formatRatio(figure.ratio)})
          </li>
        );
      })}
    </ul>
  );
}

/** What differed in how it was measured just before and at the change, or that nothing did. */
function LikelyCauses({ change }: { change: ChangePoint }) {
  const causes = change.likely_causes ?? [];
  if (causes.length === 0) return change.what_changed ? <span className="small">{change.what_changed}</span> : <span className="muted">—</span>;
  return (
    <ul className="plain-list small" aria-label={`Likely causes of the change at result ${change.result_id}`}>
      {causes.map((cause) => (
        <li key={cause.key}>
          {cause.component}: <span className="mono">{String(cause.before ?? "—")}</span> →{" "}
          <span className="mono">{String(cause.after ?? "—")}</span>
        </li>
      ))}
    </ul>
  );
}
