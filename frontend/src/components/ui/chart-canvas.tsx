import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatSeconds, formatValue, logTicks, trimZeros, type ValueUnit } from "../../lib/format";
import type { ChartReference, ChartRow, ChartSpec } from "./chart-config";

/** Recharts' error bar as [below, above] the bar's value, from the row's low and high ends. */
function errorSpan(key: string, range: { low: string; high: string }) {
  return (row: ChartRow): [number, number] => {
    const value = row[key];
    const low = row[range.low];
    const high = row[range.high];
    if (typeof value !== "number" || typeof low !== "number" || typeof high !== "number") return [0, 0];
    return [Math.max(value - low, 0), Math.max(high - value, 0)];
  };
}

function numericValues(data: ChartRow[], keys: string[]): number[] {
  const values: number[] = [];
  for (const row of data) {
    for (const key of keys) {
      const value = row[key];
      if (typeof value === "number" && Number.isFinite(value)) values.push(value);
    }
  }
  return values;
}

/** Log axes cannot show zero or negative values: leave those points out. */
function positiveOnly(data: ChartRow[], keys: string[]): ChartRow[] {
  return data.map((row) => {
    const copy: ChartRow = { ...row };
    for (const key of keys) {
      const value = copy[key];
      if (typeof value !== "number" || !(value > 0)) copy[key] = null;
    }
    return copy;
  });
}

type Series = ChartSpec["series"];
type TooltipItem = { dataKey?: unknown; name?: unknown; color?: string; value?: unknown };
type LegendItem = { dataKey?: unknown; value?: unknown; color?: string };

/** Our own tooltip content: Recharts' default tooltip is a second role="status" on the page. */
function ChartTooltipContent({
  active,
  payload,
  label,
  series,
  unit,
  formatX,
}: {
  active?: boolean;
  payload?: readonly TooltipItem[];
  label?: unknown;
  series: Series;
  unit: ValueUnit;
  formatX: (value: unknown) => string;
}) {
  if (!active || !payload?.length) return null;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-label">{formatX(label)}</div>
      {payload.map((item) => {
        const key = String(item.dataKey ?? item.name);
        return (
          <div key={key}>
            <span className="chart-swatch" style={{ background: item.color }} aria-hidden="true" />
            {series[key]?.label ?? key}:{" "}
            <strong>{typeof item.value === "number" ? formatValue(unit, item.value) : "—"}</strong>
          </div>
        );
      })}
    </div>
  );
}

/** HTML swatches rather than Recharts' SVG icons: the chart keeps a single SVG surface. */
function ChartLegendContent({ payload, series }: { payload?: readonly LegendItem[]; series: Series }) {
  return (
    <ul className="chart-legend">
      {(payload ?? []).map((item) => {
        const key = String(item.dataKey ?? item.value);
        return (
          <li key={key}>
            <span className="chart-swatch" style={{ background: item.color }} aria-hidden="true" />
            {series[key]?.label ?? key}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The reference lines as direct chart children (called as a function, not mounted as a component,
 * so Recharts sees its own elements).
 */
function referenceLines(references: ChartReference[]) {
  return references.map((reference) => (
    <ReferenceLine
      key={`${reference.axis}-${reference.value}-${reference.label}`}
      {...(reference.axis === "x" ? { x: reference.value } : { y: reference.value })}
      stroke={reference.color}
      strokeDasharray={reference.dashed ? "6 4" : undefined}
      ifOverflow="extendDomain"
      label={{
        value: reference.label,
        position: reference.axis === "x" ? "insideTopLeft" : "insideBottomRight",
        fontSize: 11,
        fill: reference.color,
      }}
    />
  ));
}

/** The x axis: a numeric time axis in seconds, or one category per row. */
function xAxis(xKey: string, timeAxis: boolean, formatX: (value: unknown) => string) {
  return timeAxis ? (
    <XAxis
      dataKey={xKey}
      type="number"
      domain={["dataMin", "dataMax"]}
      allowDecimals={false}
      tickFormatter={formatX}
      fontSize={12}
    />
  ) : (
    <XAxis dataKey={xKey} fontSize={12} />
  );
}

/** The y axis, logarithmic with decade ticks when asked, else linear from zero. */
function yAxis(unit: ValueUnit, ticks: number[] | undefined, logScale: boolean | undefined) {
  const formatTick = (value: number) => trimZeros(formatValue(unit, value));
  return (
    <YAxis
      scale={logScale ? "log" : "auto"}
      domain={ticks ? [ticks[0]!, ticks[ticks.length - 1]!] : [0, "auto"]}
      ticks={ticks}
      allowDataOverflow={Boolean(ticks)}
      tickFormatter={formatTick}
      width={76}
      fontSize={12}
    />
  );
}

/** Recharts rendering of a ChartSpec; only ChartContainer uses it. */
export default function ChartCanvas({
  kind,
  data,
  xKey,
  xType = "category",
  series,
  unit,
  logScale,
  dots = true,
  references = [],
  height,
}: ChartSpec) {
  const keys = Object.keys(series);
  const plotted = logScale ? positiveOnly(data, keys) : data;
  const highs = keys.flatMap((key) => (series[key]!.range ? [series[key]!.range!.high] : []));
  const values = numericValues(plotted, [...keys, ...highs]).filter((value) => !logScale || value > 0);
  const ticks = logScale && values.length ? logTicks(Math.min(...values), Math.max(...values)) : undefined;
  const timeAxis = xType === "seconds";
  const formatX = (value: unknown) => (timeAxis && typeof value === "number" ? formatSeconds(value) : String(value));
  const common = (
    <>
      <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
      {xAxis(xKey, timeAxis, formatX)}
      {yAxis(unit, ticks, logScale)}
      <Tooltip
        content={({ active, payload, label }) => (
          <ChartTooltipContent
            active={active}
            payload={payload}
            label={label}
            series={series}
            unit={unit}
            formatX={formatX}
          />
        )}
      />
      <Legend content={({ payload }) => <ChartLegendContent payload={payload} series={series} />} />
      {referenceLines(references)}
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 600, height }}>
      {kind === "line" ? (
        <LineChart data={plotted} margin={{ top: 8, right: 16, bottom: 4, left: 4 }}>
          {common}
          {keys.map((key) => (
            <Line
              key={key}
              dataKey={key}
              name={key}
              stroke={series[key]!.color}
              strokeWidth={2}
              dot={dots ? { r: 3 } : false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      ) : (
        <BarChart data={plotted} margin={{ top: 8, right: 16, bottom: 4, left: 4 }}>
          {common}
          {keys.map((key) => (
            <Bar key={key} dataKey={key} name={key} fill={series[key]!.color} isAnimationActive={false}>
              {series[key]!.range ? <ErrorBar dataKey={errorSpan(key, series[key]!.range!)} width={6} stroke="currentColor" /> : null}
            </Bar>
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
