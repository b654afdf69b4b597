import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatSeconds, formatValue, logTicks, trimZeros } from "../../lib/format";
import type { ChartRow, ChartSpec } from "./chart-config";

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
  const values = numericValues(plotted, keys).filter((value) => !logScale || value > 0);
  const ticks = logScale && values.length ? logTicks(Math.min(...values), Math.max(...values)) : undefined;
  const formatTick = (value: number) => trimZeros(formatValue(unit, value));
  const timeAxis = xType === "seconds";
  const formatX = (value: unknown) => (timeAxis && typeof value === "number" ? formatSeconds(value) : String(value));
  const yAxis = (
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
  const common = (
    <>
      <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
      {timeAxis ? (
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
      )}
      {yAxis}
      <Tooltip
        content={({ active, payload, label }) =>
          // Our own content: Recharts' default tooltip is a second role="status" on the page.
          active && payload?.length ? (
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
          ) : null
        }
      />
      <Legend
        content={({ payload }) => (
          // HTML swatches rather than Recharts' SVG icons: the chart keeps a single SVG surface.
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
        )}
      />
      {references.map((reference) => (
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
      ))}
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
            <Bar key={key} dataKey={key} name={key} fill={series[key]!.color} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
