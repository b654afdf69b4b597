// Unit-aware formatters shared by tables and charts. Sizes use binary units
// (KiB, MiB, ...) as fio does; bandwidth arrives in bytes per second (the API's unit "B/s") and is
// shown the same way (MiB/s); vendors publish throughput in decimal MB/s, so where a figure
// meets a spec both are shown. Latencies are nanoseconds in, best unit out (ns, µs, ms, s).

import type { FigureUnit } from "./figures";

const BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/** Three significant figures without exponent notation: 59.6, 512, 1.50. */
function sig3(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100 || abs === 0) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function scaled(value: number, base: number, units: readonly string[]): [number, string] {
  let index = 0;
  let scaledValue = value;
  while (Math.abs(scaledValue) >= base && index < units.length - 1) {
    scaledValue /= base;
    index += 1;
  }
  // 1023.96 KiB would print as "1024 KiB": promote it to "1.00 MiB".
  if (Number(sig3(scaledValue)) >= base && index < units.length - 1) {
    scaledValue /= base;
    index += 1;
  }
  return [scaledValue, units[index] ?? ""];
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  if (Math.abs(bytes) < 1024) return `${Math.round(bytes)} B`;
  const [value, unit] = scaled(bytes, 1024, BINARY_UNITS);
  return `${sig3(value)} ${unit}`;
}

export function formatBandwidth(bytesPerSecond: number | null | undefined): string {
  const bytes = formatBytes(bytesPerSecond);
  return bytes === "—" ? bytes : `${bytes}/s`;
}

const DECIMAL_RATE_UNITS = ["B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"] as const;

/** Decimal bandwidth as vendors publish it: 62_496_000 → "62.5 MB/s". */
export function formatMBps(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined || !Number.isFinite(bytesPerSecond)) return "—";
  if (Math.abs(bytesPerSecond) < 1000) return `${Math.round(bytesPerSecond)} B/s`;
  const [value, unit] = scaled(bytesPerSecond, 1000, DECIMAL_RATE_UNITS);
  return `${sig3(value)} ${unit}`;
}

/** Ours (binary, as fio prints) beside the vendors' (decimal): "59.6 MiB/s (62.5 MB/s)". */
export function formatBandwidthBoth(bytesPerSecond: number | null | undefined): string {
  const binary = formatBandwidth(bytesPerSecond);
  return binary === "—" ? binary : `${binary} (${formatMBps(bytesPerSecond)})`;
}

/**
 * A published figure in its own unit, with MiB/s beside MB/s: "300 MB/s (286 MiB/s)",
 * "20,000 IOPS", "0.5 ms". Unknown units pass through as they are.
 */
export function formatSpecFigure(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const amount = value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (unit === "MB/s") return `${amount} MB/s (${formatBandwidth(value * 1e6)})`;
  return `${amount} ${unit}`;
}

const TIME_UNITS: readonly [number, string][] = [
  [1, "ns"],
  [1e3, "µs"],
  [1e6, "ms"],
  [1e9, "s"],
];

/** 850 → "850 ns", 123456 → "123 µs", 1.5e6 → "1.50 ms". */
export function formatNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return "—";
  const abs = Math.abs(ns);
  let chosen = TIME_UNITS[0]!;
  for (const unit of TIME_UNITS) {
    if (abs >= unit[0]) chosen = unit;
  }
  let value = ns / chosen[0];
  let label = chosen[1];
  const next = TIME_UNITS[TIME_UNITS.indexOf(chosen) + 1];
  if (next && Number(sig3(value)) * chosen[0] >= next[0]) {
    value = ns / next[0];
    label = next[1];
  }
  if (label === "ns") return `${Math.round(value)} ns`;
  return `${sig3(value)} ${label}`;
}

/** Latency in the unit its size calls for (µs below a millisecond, ms below a second). */
export const formatLatency = formatNs;

/** IOPS as fio prints them: 950, 15.2k, 1.23M. */
export function formatIops(iops: number | null | undefined): string {
  if (iops === null || iops === undefined || !Number.isFinite(iops)) return "—";
  const abs = Math.abs(iops);
  if (abs < 1000) return abs < 10 && iops !== Math.round(iops) ? iops.toFixed(1) : String(Math.round(iops));
  const [value, unit] = scaled(iops, 1000, ["", "k", "M", "G"]);
  return `${sig3(value)}${unit}`;
}

export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value.toFixed(digits)}%`;
}

/** The worker's own CPU use while fio ran: two decimals, since the point is that it is well under 1 %. */
export function formatWorkerCpu(percentOfCore: number | null | undefined): string {
  if (percentOfCore === null || percentOfCore === undefined || !Number.isFinite(percentOfCore)) return "—";
  return `${percentOfCore.toFixed(2)}% of a core`;
}

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return Math.round(value).toLocaleString("en-US");
}

/** 65_000 → "1m 05s"; 3_725_000 → "1h 02m"; 4_200 → "4.2s". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
  return `${seconds}s`;
}

/** Seconds on a time axis or as an ETA: 7 → "7s", 75 → "1m 15s", 3725 → "1h 02m". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const whole = Math.round(seconds);
  if (Math.abs(whole) < 60) return `${whole}s`;
  return formatDuration(whole * 1000);
}

/** "12s ago", "5 min ago", "3 h ago", "2 d ago"; "never" for null. */
export function formatRelativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return "never";
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "—";
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 0) return "just now";
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** Local time as "2025-03-01 14:05:09": sortable and unambiguous. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Milliseconds between two timestamps; the end defaults to now. */
export function elapsedMs(startIso: string | null, endIso: string | null, now: number = Date.now()): number | null {
  if (!startIso) return null;
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, end - start);
}

/** Decade ticks (1, 10, 100, ...) covering [min, max] for a log axis. */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max > 0)) return [];
  const low = Math.floor(Math.log10(min));
  const high = Math.ceil(Math.log10(max));
  const ticks: number[] = [];
  for (let exp = low; exp <= Math.max(high, low + 1); exp += 1) ticks.push(10 ** exp);
  return ticks;
}

/** Drops trailing zeros for axis ticks: "1.00 ms" → "1 ms", "16.0k" → "16k", "1.50 µs" → "1.5 µs". */
export function trimZeros(text: string): string {
  return text.replace(/(\.\d*?)0+(?=\D|$)/, "$1").replace(/\.(?=\D|$)/, "");
}

/** A figure's unit as the API spells it ("IOPS", "B/s", "ns", "%"), or a size or a count. */
export type ValueUnit = FigureUnit | "bytes" | "count";

/** Formats a value in the given unit; tables show figures with it, charts their axes and tooltips. */
export function formatValue(unit: ValueUnit, value: number | null | undefined): string {
  switch (unit) {
    case "ns":
      return formatNs(value);
    case "B/s":
      return formatBandwidth(value);
    case "bytes":
      return formatBytes(value);
    case "IOPS":
      return formatIops(value);
    case "%":
      return formatPercent(value);
    case "count":
      return formatCount(value);
  }
}
