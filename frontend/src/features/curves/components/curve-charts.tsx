import { ChartContainer } from "../../../components/ui/chart-container";
import { paletteColor, type ChartReference, type SeriesConfig } from "../../../components/ui/chart-config";
import { figureInfo } from "../../../lib/figures";
import { formatValue } from "../../../lib/format";
import type { Curve, Curves } from "../api/get-curves";
import { axisLabel, curveRows, kneeText, type CurveValue } from "./curve-rows";
import { HeatMap } from "./heat-map";

/** Series config: one colour per curve, in the order the API gave them. */
function seriesOf(curves: Curve[]): Record<string, SeriesConfig> {
  return Object.fromEntries(curves.map((curve, index) => [curve.key, { label: curve.title, color: paletteColor(index) }]));
}

/** The knee of each curve as a line across the x axis, in its colour. */
function kneeLines(axis: string, curves: Curve[]): ChartReference[] {
  return curves.flatMap((curve, index) =>
    curve.knee ? [{ axis: "x" as const, value: axisLabel(axis, curve.knee.value), label: "knee", color: paletteColor(index), dashed: true }] : [],
  );
}

/** Each curve's storage class spec line for the figure. */
function specLines(curves: Curve[]): ChartReference[] {
  return curves.flatMap((curve, index) =>
    curve.spec_line ? [{ axis: "y" as const, value: curve.spec_line.value, label: `${curve.spec_line.storage_class} spec`, color: paletteColor(index) }] : [],
  );
}

// The latency figures charted along the axis, each on its own log scale.
const LATENCY_CHARTS = ["lat_mean_ns", "clat_p99_ns"] as const;

function chartRows(axis: string, curves: Curve[], pick: CurveValue) {
  return curveRows(curves, pick).map((row) => ({ ...row, at: axisLabel(axis, row.value) }));
}

/** IOPS or bandwidth, mean and p99 latency along the swept axis, every sweep overlaid, knees marked. */
export function CurveCharts({ curves, throughput }: { curves: Curves; throughput?: Curves }) {
  const shown = curves.curves.filter((curve) => curve.host_name === null);
  const axis = curves.axis;
  const series = seriesOf(shown);
  const knees = kneeLines(axis, shown);
  // A queue depth or job count doubles from point to point: one category per point reads as a log axis.
  const note = `along ${axis}, one step per point (a log scale for doubling sweeps)`;
  return (
    <div className="stack">
      <ChartContainer
        title={`${curves.figure.label} (${curves.direction})`}
        description={note}
        kind="line"
        data={chartRows(axis, shown, "median")}
        xKey="at"
        series={series}
        unit={curves.figure.unit}
        references={[...knees, ...specLines(shown)]}
      />
      {throughput ? (
        <ChartContainer
          title={`${throughput.figure.label} (${throughput.direction})`}
          kind="line"
          data={chartRows(axis, throughput.curves.filter((c) => c.host_name === null), "median")}
          xKey="at"
          series={series}
          unit={throughput.figure.unit}
          references={[...knees, ...specLines(throughput.curves.filter((c) => c.host_name === null))]}
        />
      ) : null}
      {LATENCY_CHARTS.map((name) => (
        <ChartContainer
          key={name}
          title={figureInfo(name).label}
          kind="line"
          data={chartRows(axis, shown, name)}
          xKey="at"
          series={series}
          unit={figureInfo(name).unit}
          logScale
          references={knees}
        />
      ))}
      <KneeTable curves={curves} />
      <HeatMap curves={curves} />
    </div>
  );
}

/** Every curve (each host too) with its knee or why it has none, and the load under the p99 bound. */
function KneeTable({ curves }: { curves: Curves }) {
  return (
    <table className="table" aria-label="Knees">
      <thead>
        <tr>
          <th scope="col">Curve</th>
          <th scope="col">Knee</th>
          <th scope="col">Highest {curves.axis} under p99 bound</th>
          <th scope="col">Points</th>
        </tr>
      </thead>
      <tbody>
        {curves.curves.map((curve) => (
          <tr key={curve.key}>
            <th scope="row">{curve.title}</th>
            <td>{kneeText(curves.axis, curve)}</td>
            <td>
              {curves.p99_bound_ns === null || curves.p99_bound_ns === undefined
                ? "—"
                : curve.highest_load_under_bound === null || curve.highest_load_under_bound === undefined
                  ? `none under ${formatValue("ns", curves.p99_bound_ns)}`
                  : axisLabel(curves.axis, curve.highest_load_under_bound)}
            </td>
            <td>{curve.points.length}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
