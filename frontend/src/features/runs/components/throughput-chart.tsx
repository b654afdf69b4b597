import { useDeferredValue, useId, useMemo, useState } from "react";
import { ChartContainer } from "../../../components/ui/chart-container";
import {
  THROUGHPUT_METRICS,
  throughputChartData,
  type HostSeries,
  type ThroughputMetric,
} from "./progress-series";

interface ThroughputChartProps {
  title: string;
  hosts: HostSeries[];
}

/** Per-second IOPS, bandwidth or mean latency of every host and direction, over the run's time. */
export function ThroughputChart({ title, hosts }: ThroughputChartProps) {
  const [metric, setMetric] = useState<ThroughputMetric>("iops");
  const radioName = useId();
  // Samples land every second per host: let React skip frames rather than fall behind.
  const deferredHosts = useDeferredValue(hosts);
  const { rows, series } = useMemo(() => throughputChartData(deferredHosts, metric), [deferredHosts, metric]);
  const { label, unit } = THROUGHPUT_METRICS[metric];
  return (
    <div className="throughput">
      <div className="chart-controls">
        <fieldset className="segmented">
          <legend>Show</legend>
          {(Object.keys(THROUGHPUT_METRICS) as ThroughputMetric[]).map((key) => (
            <label key={key}>
              <input type="radio" name={radioName} checked={metric === key} onChange={() => setMetric(key)} />{" "}
              {THROUGHPUT_METRICS[key].label}
            </label>
          ))}
        </fieldset>
      </div>
      <ChartContainer
        title={title}
        description={
          <span className="small muted">
            {label} each second{hosts.length > 1 ? ", per host and direction" : ", per direction"}
            {metric === "lat_mean_ns" ? " (total latency, mean over the second)" : ""}; time since fio started.
          </span>
        }
        kind="line"
        data={rows}
        xKey="second"
        xType="seconds"
        series={series}
        unit={unit}
        dots={rows.length <= 60}
        height={260}
      />
    </div>
  );
}
