import { useId, useState } from "react";
import { ChartContainer } from "../../../components/ui/chart-container";
import type { Result } from "../../../lib/api/types";
import { formatCount } from "../../../lib/format";
import {
  buildComparison,
  GROUP_BY_LABELS,
  METRICS,
  type ComparisonGroupBy,
  type ComparisonMetric,
} from "./comparison-data";

interface ComparisonChartProps {
  results: Result[];
  /** How many results match the filters (the chart may hold only the newest of them). */
  total: number;
}

/** Grouped bars comparing labels or storage classes per workload, for the filtered results. */
export function ComparisonChart({ results, total }: ComparisonChartProps) {
  const [metric, setMetric] = useState<ComparisonMetric>("iops");
  const [groupBy, setGroupBy] = useState<ComparisonGroupBy>("label");
  const { rows, series, hiddenGroups } = buildComparison(results, metric, groupBy);
  const radioName = useId();

  return (
    <div className="comparison">
      <div className="chart-controls">
        <fieldset className="segmented">
          <legend>Metric</legend>
          {(Object.keys(METRICS) as ComparisonMetric[]).map((key) => (
            <label key={key}>
              <input type="radio" name={`${radioName}-metric`} checked={metric === key} onChange={() => setMetric(key)} />{" "}
              {METRICS[key].label}
            </label>
          ))}
        </fieldset>
        <fieldset className="segmented">
          <legend>Compare by</legend>
          {(Object.keys(GROUP_BY_LABELS) as ComparisonGroupBy[]).map((key) => (
            <label key={key}>
              <input type="radio" name={`${radioName}-group`} checked={groupBy === key} onChange={() => setGroupBy(key)} />{" "}
              {GROUP_BY_LABELS[key]}
            </label>
          ))}
        </fieldset>
      </div>
      <ChartContainer
        title="Comparison"
        description={
          <span className="small muted">
            {METRICS[metric].label} per workload (job and direction), one bar per {GROUP_BY_LABELS[groupBy].toLowerCase()}:
            the mean of the matching results
            {metric === "p99" ? " (completion latency)" : ""}.
            {total > results.length ? ` Newest ${formatCount(results.length)} of ${formatCount(total)} results.` : ""}
            {hiddenGroups.length ? ` Not shown (fewest results): ${hiddenGroups.join(", ")}.` : ""}
          </span>
        }
        kind="bar"
        data={rows}
        xKey="workload"
        series={series}
        unit={METRICS[metric].unit}
        height={280}
      />
    </div>
  );
}
