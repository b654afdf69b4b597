import { memo, useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { ChartContainer } from "../../../components/ui/chart-container";
import { paletteColor, type ChartRow, type SeriesConfig } from "../../../components/ui/chart-config";
import { NumCell, NumHeader } from "../../../components/ui/num-cell";
import { QueryState } from "../../../components/ui/query-state";
import { COMPARED_FIGURES, figureLabel } from "../../../lib/figures";
import { formatBytes, formatCount, formatValue, trimZeros } from "../../../lib/format";
import { GROUP_DEFAULTS, groupsExportUrl, useGroups, type Group, type GroupBy, type GroupDirection, type GroupFigure, type GroupsParams, type GroupsView } from "../api/get-groups";

export const GROUP_BY_LABELS: Record<GroupBy, string> = {
  storage_class: "Storage class",
  vendor: "Vendor",
  tier: "Tier",
  protocol: "Protocol",
  medium: "Medium",
  host: "Host",
  label: "Label",
  bs: "Block size",
  iodepth: "I/O depth",
  numjobs: "Jobs",
  rw: "Pattern (rw)",
};
const FIGURES = COMPARED_FIGURES as readonly GroupFigure[];
const DIRECTIONS: GroupDirection[] = ["read", "write", "trim"];
/** More bars than this per job shape stop being readable. */
export const MAX_SERIES = 8;

type Filters = Omit<GroupsParams, "by" | "figure" | "direction">;

/** "randread 4 KiB QD32 ×1": the job shape a group holds (the option grouped by left out). */
export function shapeLabel(shape: Group["shape"]): string {
  const parts: string[] = [];
  if (shape.rw) parts.push(shape.rw);
  if (shape.bs) parts.push(/^\d+$/.test(shape.bs) ? trimZeros(formatBytes(Number(shape.bs))) : shape.bs);
  if (shape.iodepth) parts.push(`QD${shape.iodepth}`);
  if (shape.numjobs) parts.push(`×${shape.numjobs}`);
  return parts.join(" ") || "any job";
}

/** Bars: one category per job shape, one bar per group key (its median); never a mean of different jobs. */
export function groupChart(view: GroupsView): { rows: ChartRow[]; series: Record<string, SeriesConfig>; hidden: string[] } {
  const counts = new Map<string, number>();
  for (const group of view.groups) counts.set(group.key, (counts.get(group.key) ?? 0) + group.n);
  const ordered = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
  const shown = ordered.slice(0, MAX_SERIES);
  const seriesKey = new Map(shown.map((key, index) => [key, `g${index}`]));
  const rows = new Map<string, ChartRow>();
  for (const group of view.groups) {
    const key = seriesKey.get(group.key);
    if (!key) continue;
    const shape = shapeLabel(group.shape);
    const row = rows.get(shape) ?? { shape };
    row[key] = group.median;
    row[`${key}_p25`] = group.p25;
    row[`${key}_p75`] = group.p75;
    row[`${key}_n`] = group.n;
    rows.set(shape, row);
  }
  const series: Record<string, SeriesConfig> = {};
  shown.forEach((key, index) => {
    const id = `g${index}`;
    series[id] = { label: `${key} (n = ${formatCount(counts.get(key) ?? 0)})`, color: paletteColor(index), range: { low: `${id}_p25`, high: `${id}_p75` } };
  });
  return { rows: [...rows.values()], series, hidden: ordered.slice(MAX_SERIES) };
}

function money(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `$${value < 10 ? value.toFixed(2) : formatCount(Math.round(value))}`;
}

function description(view: GroupsView, hidden: string[]) {
  return (
    <span className="small muted">
      Median {figureLabel(view.figure)} ({view.direction}) per {GROUP_BY_LABELS[view.by].toLowerCase()}, one category per job shape, error bars from p25 to p75, n in the legend:{" "}
      {view.note}.{view.truncated ? " Only the newest results were grouped: narrow the filters." : ""}
      {hidden.length ? ` Not drawn (fewest results): ${hidden.join(", ")}.` : ""}
    </span>
  );
}

function GroupTable({ view }: { view: GroupsView }) {
  const perDollar = view.figure === "iops" ? "$ / 1,000 IOPS" : view.figure === "bw_bytes" ? "$ / MB/s" : null;
  const perGib = view.figure === "iops" || view.figure === "bw_bytes";
  const disagreeing = view.groups.filter((group) => group.targets_disagree);
  return (
    <div className="table-frame">
      {disagreeing.length ? (
        <ul className="notice" aria-label="Groups whose targets disagree">
          {disagreeing.map((group) => (
            <li key={`${group.key}-${shapeLabel(group.shape)}`}>
              <strong>
                {group.key} · {shapeLabel(group.shape)}
              </strong>
              : {group.targets_disagree}
            </li>
          ))}
        </ul>
      ) : null}
      <table aria-label="Groups">
        <thead>
          <tr>
            <th scope="col">{GROUP_BY_LABELS[view.by]}</th>
            <th scope="col">Job shape</th>
            <NumHeader>n</NumHeader>
            <NumHeader>Median</NumHeader>
            <NumHeader>p25 – p75</NumHeader>
            <NumHeader>Min – max</NumHeader>
            {perGib ? <NumHeader>Per GiB</NumHeader> : null}
            {perDollar ? <NumHeader>{perDollar} (month)</NumHeader> : null}
          </tr>
        </thead>
        <tbody>
          {view.groups.map((group) => (
            <tr key={`${group.key}-${shapeLabel(group.shape)}`}>
              <th scope="row">{group.key}</th>
              <td>{shapeLabel(group.shape)}</td>
              <NumCell>{formatCount(group.n)}</NumCell>
              <NumCell>{formatValue(view.unit, group.median)}</NumCell>
              <NumCell>
                {formatValue(view.unit, group.p25)} – {formatValue(view.unit, group.p75)}
              </NumCell>
              <NumCell>
                {formatValue(view.unit, group.min)} – {formatValue(view.unit, group.max)}
              </NumCell>
              {perGib ? <NumCell>{group.per_gib === null ? "—" : formatValue(view.unit, group.per_gib)}</NumCell> : null}
              {perDollar ? <NumCell>{money(view.figure === "iops" ? group.dollars_per_1000_iops : group.dollars_per_mbps)}</NumCell> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface GroupViewProps {
  /** The results to group: the results list's filters, or chosen ids (keep the object stable: memo). */
  filters: Filters;
  defaultBy?: GroupBy;
  title?: string;
  /**
   * False while the page's main content is still on its way: the chart, the heaviest thing to draw,
   * then waits until that content has been painted (its frame keeps its place meanwhile).
   */
  drawChart?: boolean;
}

/** True once ready has been true for one painted frame. */
function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(ready);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}

/** The chart's frame, caption and height, before the chart is drawn in it. */
function ChartPending({ title, description, height }: { title: string; description: ReactNode; height: number }) {
  const captionId = useId();
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-description">{description}</div>
      <div className="chart-body" style={{ height }}>
        <p className="muted">Loading chart…</p>
      </div>
    </figure>
  );
}

const CHART_HEIGHT = 280;

/** Results grouped by a property: grouped bars of the medians and a table with spread, per GiB and per dollar. */
export const GroupView = memo(function GroupView({
  filters,
  defaultBy = GROUP_DEFAULTS.by,
  title = "Grouped comparison",
  drawChart = true,
}: GroupViewProps) {
  const [by, setBy] = useState<GroupBy>(defaultBy);
  const [figure, setFigure] = useState<GroupFigure>(GROUP_DEFAULTS.figure);
  const [direction, setDirection] = useState<GroupDirection>(GROUP_DEFAULTS.direction);
  const params: GroupsParams = { ...filters, by, figure, direction };
  const groups = useGroups(params);
  const id = useId();
  // The same data draws the same chart: Recharts is not handed new arrays on every render.
  const chart = useMemo(() => (groups.data ? groupChart(groups.data) : null), [groups.data]);
  const chartShown = useAfterPaint(drawChart);

  return (
    <div className="group-view">
      <div className="chart-controls">
        <label htmlFor={`${id}-by`}>Group by</label>
        <select id={`${id}-by`} value={by} onChange={(event) => setBy(event.target.value as GroupBy)}>
          {(Object.keys(GROUP_BY_LABELS) as GroupBy[]).map((key) => (
            <option key={key} value={key}>
              {GROUP_BY_LABELS[key]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-figure`}>Figure</label>
        <select id={`${id}-figure`} value={figure} onChange={(event) => setFigure(event.target.value as GroupFigure)}>
          {FIGURES.map((key) => (
            <option key={key} value={key}>
              {figureLabel(key)}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-direction`}>Direction</label>
        <select id={`${id}-direction`} value={direction} onChange={(event) => setDirection(event.target.value as GroupDirection)}>
          {DIRECTIONS.map((key) => (
            <option key={key} value={key}>
              {key}
            </option>
          ))}
        </select>
        <a className="button" href={groupsExportUrl(params, "csv")} download>
          Export groups CSV
        </a>
        <a className="button" href={groupsExportUrl(params, "json")} download>
          Export groups JSON
        </a>
      </div>
      <QueryState
        isPending={groups.isPending}
        error={groups.error}
        label="the grouped comparison"
        isEmpty={groups.data?.groups.length === 0}
        empty={<p className="muted">No result has this figure.</p>}
      >
        {groups.data && chart ? (
          <>
            {chartShown ? (
              <ChartContainer
                title={title}
                description={description(groups.data, chart.hidden)}
                kind="bar"
                data={chart.rows}
                xKey="shape"
                series={chart.series}
                unit={groups.data.unit}
                height={CHART_HEIGHT}
              />
            ) : (
              <ChartPending title={title} description={description(groups.data, chart.hidden)} height={CHART_HEIGHT} />
            )}
            <GroupTable view={groups.data} />
          </>
        ) : null}
      </QueryState>
    </div>
  );
});
