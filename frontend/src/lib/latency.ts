import type { Direction, DirectionName, Latency, Result } from "./api/types";
import { FIGURES } from "./figures";

export const DIRECTIONS: readonly DirectionName[] = ["read", "write", "trim"];
/** fio's completion-latency percentiles kept as figures ("50" … "99.99"), as GET /figures lists them. */
export const HEADLINE_PERCENTILES: readonly string[] = FIGURES.flatMap((figure) => (figure.percentile ? [figure.percentile] : []));

/** A percentile from fio's map, whatever the key spelling ("99.9" or "99.900000"). */
export function percentile(latency: Latency | null | undefined, wanted: string): number | undefined {
  if (!latency) return undefined;
  const exact = latency.percentiles[wanted];
  if (exact !== undefined) return exact;
  const target = Number(wanted);
  for (const [key, value] of Object.entries(latency.percentiles)) {
    if (Math.abs(Number(key) - target) < 1e-9) return value;
  }
  return undefined;
}

/** Completion latency (what fio's percentiles describe), else total latency. */
export function percentileSource(direction: Direction): Latency | null {
  return direction.clat_ns ?? direction.lat_ns;
}

/** Total latency (slat + clat), else completion latency. */
export function meanSource(direction: Direction): Latency | null {
  return direction.lat_ns ?? direction.clat_ns;
}

/** Directions that did I/O; all reported ones if none did (so nothing is hidden silently). */
export function activeDirections(result: Result): [DirectionName, Direction][] {
  const present = DIRECTIONS.flatMap((name) => {
    const direction = result.directions[name];
    return direction ? [[name, direction] as [DirectionName, Direction]] : [];
  });
  const active = present.filter(([, direction]) => (direction.total_ios ?? 0) > 0 || direction.io_bytes > 0);
  return active.length ? active : present;
}
