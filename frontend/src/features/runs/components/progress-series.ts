// Per-second progress as charts and bars need it: the stored series (GET /progress) and the
// samples pushed live merged per host, then laid out as one chart row per second.

import { paletteColor, SERIES_COLORS, type ChartRow, type SeriesConfig } from "../../../components/ui/chart-config";
import type { DirectionName, HostProgress, ProgressSample } from "../../../lib/api/types";
import { figureLabel, figureUnit } from "../../../lib/figures";
import type { ValueUnit } from "../../../lib/format";
import { DIRECTIONS } from "../../../lib/latency";
import { MAX_LIVE_SAMPLES, type LiveSamples } from "../api/run-events";

export interface HostSeries {
  host: string;
  /** Oldest first, unique ids. */
  samples: ProgressSample[];
}

export type ThroughputMetric = "iops" | "bw_bytes" | "lat_mean_ns";

const THROUGHPUT_FIGURES: readonly ThroughputMetric[] = ["iops", "bw_bytes", "lat_mean_ns"];

/** The figures a run's progress carries each second, labelled and in the units the API gives them. */
export const THROUGHPUT_METRICS = Object.fromEntries(
  THROUGHPUT_FIGURES.map((name) => [name, { label: figureLabel(name), unit: figureUnit(name) ?? "count" }]),
) as Record<ThroughputMetric, { label: string; unit: ValueUnit }>;

/** The stored series and the live samples of each host, without duplicates, at most the last hour each. */
export function mergeProgress(stored: readonly HostProgress[] | undefined, live: LiveSamples): HostSeries[] {
  const byHost = new Map<string, Map<number, ProgressSample>>();
  const add = (host: string, samples: readonly ProgressSample[]) => {
    const known = byHost.get(host) ?? new Map<number, ProgressSample>();
    for (const sample of samples) known.set(sample.id, sample);
    byHost.set(host, known);
  };
  for (const host of stored ?? []) add(host.host_name, host.samples);
  for (const [host, samples] of Object.entries(live)) add(host, samples);
  return [...byHost.entries()].map(([host, samples]) => ({
    host,
    samples: [...samples.values()].sort((a, b) => a.id - b.id).slice(-MAX_LIVE_SAMPLES),
  }));
}

export function latestSample(series: HostSeries | undefined): ProgressSample | undefined {
  return series?.samples[series.samples.length - 1];
}

/** When a sample was taken (ms): the host's clock, else when the server got it. */
function sampleTime(sample: ProgressSample): number {
  const measured = sample.measured_at ? Date.parse(sample.measured_at) : NaN;
  return Number.isFinite(measured) ? measured : Date.parse(sample.received_at);
}

/**
 * Seconds since fio started, for each sample, on one axis for every host: wall-clock time from
 * the earliest sample of the run (fio's elapsed time restarts with each sequential job).
 */
function secondsOf(series: readonly HostSeries[]): (sample: ProgressSample) => number {
  let first: ProgressSample | undefined;
  for (const { samples } of series) {
    const candidate = samples[0];
    if (candidate && (!first || sampleTime(candidate) < sampleTime(first))) first = candidate;
  }
  const origin = first ? sampleTime(first) : NaN;
  const originElapsed = first ? Math.round(first.elapsed_s) : 0;
  return (sample) => {
    const time = sampleTime(sample);
    if (!Number.isFinite(time) || !Number.isFinite(origin)) return Math.round(sample.elapsed_s);
    return originElapsed + Math.round((time - origin) / 1000);
  };
}

export interface ThroughputChartData {
  rows: ChartRow[];
  series: Record<string, SeriesConfig>;
}

/** One row per second (x: "second"), one series per host × direction that did I/O. */
export function throughputChartData(hosts: readonly HostSeries[], metric: ThroughputMetric): ThroughputChartData {
  const directionsOf = (host: HostSeries) =>
    DIRECTIONS.filter((name) => host.samples.some((sample) => sample.directions[name]));
  const single = hosts.length === 1;
  const series: Record<string, SeriesConfig> = {};
  const keys: { host: HostSeries; direction: DirectionName; key: string }[] = [];
  for (const host of hosts) {
    for (const direction of directionsOf(host)) {
      // Plain keys: host names may hold dots, which Recharts reads as paths.
      const key = `s${keys.length}`;
      series[key] = {
        label: single ? direction : `${host.host} ${direction}`,
        color: single ? SERIES_COLORS[direction] : paletteColor(keys.length),
      };
      keys.push({ host, direction, key });
    }
  }
  const seconds = secondsOf(hosts);
  const rows = new Map<number, ChartRow>();
  for (const { host, direction, key } of keys) {
    for (const sample of host.samples) {
      const value = sample.directions[direction]?.[metric];
      if (value === undefined) continue;
      const second = seconds(sample);
      const row = rows.get(second) ?? { second };
      row[key] = value;
      rows.set(second, row);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => Number(a.second) - Number(b.second));
  return { rows: sorted.slice(-MAX_LIVE_SAMPLES), series };
}
