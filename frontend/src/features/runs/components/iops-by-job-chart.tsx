import { ChartContainer } from "../../../components/ui/chart-container";
import { SERIES_COLORS, type ChartRow } from "../../../components/ui/chart-config";
import type { Result } from "../../../lib/api/types";
import { figureInfo } from "../../../lib/figures";

/** IOPS of each result side by side (read and write), to compare jobs of one run. */
export function IopsByJobChart({ results }: { results: Result[] }) {
  const iops = figureInfo("iops");
  const rows: ChartRow[] = results.map((result) => ({
    job: `${result.job_name}@${result.host_name}`,
    read: result.directions.read?.iops ?? null,
    write: result.directions.write?.iops ?? null,
  }));
  return (
    <ChartContainer
      title={`${iops.label} by job`}
      kind="bar"
      data={rows}
      xKey="job"
      series={{
        read: { label: "read", color: SERIES_COLORS.read },
        write: { label: "write", color: SERIES_COLORS.write },
      }}
      unit={iops.unit}
      height={220}
    />
  );
}
