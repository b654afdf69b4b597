import { useState } from "react";
import { ChartContainer } from "../../../components/ui/chart-container";
import { SERIES_COLORS, type ChartReference } from "../../../components/ui/chart-config";
import { figureLabel } from "../../../lib/figures";
import { formatDateTime, formatValue } from "../../../lib/format";
import type { Trend } from "../api/get-trend";
import { AcknowledgeForm } from "./acknowledge-form";
import { formatRatio } from "./trend-labels";

const REGRESSION_COLOR = "#c8424b";
const IMPROVEMENT_COLOR = "#4a9a6b";
const SPEC_COLOR = "#7a7a7a";

/** The x label of a point: when fio measured it, and which result it is. */
function pointLabel(measuredAt: string, resultId: number): string {
  return `${formatDateTime(measuredAt).slice(0, 16)} #${resultId}`;
}

/** A figure over time, with the class's spec line and the changes found marked; members acknowledge a
 * marked regression from its row (with every other figure of its step). */
export function TrendChart({ trend, canAcknowledge = false }: { trend: Trend; canAcknowledge?: boolean }) {
  const unit = trend.unit;
  const data = trend.points.map((point) => ({
    x: pointLabel(point.measured_at, point.result_id),
    value: point.value,
  }));
  const references: ChartReference[] = [];
  if (trend.spec) {
    references.push({ axis: "y", value: trend.spec.value, label: `spec ${trend.spec.published}`, color: SPEC_COLOR, dashed: true });
  }
  for (const change of trend.change_points) {
    references.push({
      axis: "x",
      value: pointLabel(change.measured_at, change.result_id),
      label: `${change.kind} ${formatRatio(change.ratio)}`,
      color: change.kind === "regression" ? REGRESSION_COLOR : IMPROVEMENT_COLOR,
    });
  }
  const figure = figureLabel(trend.metric);
  return (
    <>
      <ChartContainer
        title={`${figure} of ${trend.job} (${trend.direction}) over time`}
        description={
          <>
            {trend.points.length} results, oldest first
            {trend.truncated ? ` (only the newest ${trend.limit.toLocaleString("en")}; older ones are left out)` : ""}
            {trend.spec ? ` · dashed: what ${trend.spec.storage_class} promises (${trend.spec.formula})` : ""}
          </>
        }
        kind="line"
        data={data}
        xKey="x"
        series={{ value: { label: figure, color: SERIES_COLORS[trend.direction] } }}
        unit={unit}
        references={references}
        height={320}
      />
      <TrendChanges trend={trend} canAcknowledge={canAcknowledge} />
    </>
  );
}

/** The changes marked on the trend, each with its acknowledgement (or a button to give it). */
function TrendChanges({ trend, canAcknowledge }: { trend: Trend; canAcknowledge: boolean }) {
  const [open, setOpen] = useState<number | null>(null);
  const unit = trend.unit;
  return (
    <table className="table" aria-label="Changes on this trend">
      <thead>
        <tr>
          <th scope="col">From result</th>
          <th scope="col">Change</th>
          <th scope="col">Before → after (medians)</th>
          <th scope="col">How found</th>
          <th scope="col">Acknowledged</th>
        </tr>
      </thead>
      <tbody>
        {trend.change_points.length === 0 ? (
          <tr>
            <td colSpan={5} className="muted">
              No change found on this trend.
            </td>
          </tr>
        ) : (
          trend.change_points.map((change) => (
            <tr key={change.id}>
              <th scope="row">{pointLabel(change.measured_at, change.result_id)}</th>
              <td>
                <span className={`tag tag-${change.kind}`}>{change.kind}</span> {formatRatio(change.ratio)}
              </td>
              <td>
                {formatValue(unit, change.before_median)} → {formatValue(unit, change.after_median)}
              </td>
              <td>
                {change.method}
                {change.p_value !== null ? ` (p = ${change.p_value.toPrecision(2)})` : ""}
              </td>
              <td>
                {change.acknowledged_at ? (
                  `by ${change.acknowledged_by}: ${change.comment}`
                ) : !canAcknowledge || change.kind !== "regression" ? (
                  "not yet"
                ) : open === change.id ? (
                  <AcknowledgeForm changeId={change.id} onDone={() => setOpen(null)} />
                ) : (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Acknowledge the regression from ${pointLabel(change.measured_at, change.result_id)}`}
                    title="Acknowledges every figure that changed at this result"
                    onClick={() => setOpen(change.id)}
                  >
                    Acknowledge…
                  </button>
                )}
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
