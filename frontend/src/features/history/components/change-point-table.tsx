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
              </td>
              <td>
                {formatValue(unit, change.before_median)} → {formatValue(unit, change.after_median)}
              </td>
              <td>
                {formatDateTime(change.measured_at)} (result #{change.result_id})
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
