import { ChartContainer } from "../../../components/ui/chart-container";
import { paletteColor, SERIES_COLORS, type ChartRow, type SeriesConfig } from "../../../components/ui/chart-config";
import type { Result } from "../../../lib/api/types";
import { activeDirections, HEADLINE_PERCENTILES, percentile, percentileSource } from "../../../lib/latency";

/** Completion-latency percentiles of every result × direction, on a log axis. */
export function LatencyPercentilesChart({ results }: { results: Result[] }) {
  const series: Record<string, SeriesConfig> = {};
  const rows: ChartRow[] = HEADLINE_PERCENTILES.map((p) => ({ percentile: `p${p}` }));
  let index = 0;
  for (const result of results) {
    for (const [name, direction] of activeDirections(result)) {
      const latency = percentileSource(direction);
      if (!latency) continue;
      const key = `s${index}`;
      series[key] = {
        label: results.length === 1 ? name : `${result.job_name}@${result.host_name} ${name}`,
        color: results.length === 1 ? SERIES_COLORS[name] : paletteColor(index),
      };
      HEADLINE_PERCENTILES.forEach((p, row) => {
        rows[row]![key] = percentile(latency, p) ?? null;
      });
      index += 1;
    }
  }
  const hasData = Object.keys(series).length > 0;
  return (
    <ChartContainer
      title="Latency percentiles"
      description={<span className="small muted">Completion latency (clat), log scale.</span>}
      kind="line"
      data={hasData ? rows : []}
      xKey="percentile"
      series={series}
      unit="ns"
      logScale
    />
  );
}
