import { ChartContainer } from "../../../components/ui/chart-container";
import { SERIES_COLORS, type ChartRow, type SeriesConfig } from "../../../components/ui/chart-config";
import type { Result } from "../../../lib/api/types";
import { formatNs, trimZeros } from "../../../lib/format";
import { activeDirections } from "../../../lib/latency";

/** Rows of the histogram: one per power-of-two bucket any direction filled, shortest first. */
export function histogramRows(result: Result): { rows: ChartRow[]; series: Record<string, SeriesConfig> } {
  const byLow = new Map<number, ChartRow>();
  const series: Record<string, SeriesConfig> = {};
  for (const [name, direction] of activeDirections(result)) {
    const buckets = direction.clat_histogram ?? [];
    if (buckets.length === 0) continue;
    series[name] = { label: name, color: SERIES_COLORS[name] };
    for (const bucket of buckets) {
      const row = byLow.get(bucket.low_ns) ?? {
        bucket: trimZeros(formatNs(bucket.low_ns)),
        range: `${formatNs(bucket.low_ns)} – ${formatNs(bucket.high_ns)}`,
      };
      row[name] = bucket.count;
      byLow.set(bucket.low_ns, row);
    }
  }
  const rows = [...byLow.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  return { rows, series };
}

/** How many I/Os completed in each latency band (fio's json+ bins in power-of-two buckets). */
export function LatencyHistogramChart({ result, title }: { result: Result; title: string }) {
  const { rows, series } = histogramRows(result);
  if (rows.length === 0) return null;
  return (
    <ChartContainer
      title={`Latency histogram: ${title}`}
      description={
        <span className="small muted">
          I/Os by completion latency (clat), each bar from its lower bound to twice that, from fio&apos;s own bins.
          Counts on a log scale, so the few slow I/Os of the tail stay visible.
        </span>
      }
      kind="bar"
      data={rows}
      xKey="bucket"
      series={series}
      unit="count"
      logScale
      height={220}
    />
  );
}
