import { DIRECTION_FIGURES } from "../../../lib/figures";
import type { Figure, IoDirection } from "../api/get-trend";

/** Figures a trend can show: those of one direction, as the API lists them. */
export const FIGURES = DIRECTION_FIGURES as readonly Figure[];
export const DIRECTIONS: IoDirection[] = ["read", "write", "trim"];

export function isFigure(value: string | null): value is Figure {
  return value !== null && (FIGURES as readonly string[]).includes(value);
}

export function isDirection(value: string | null): value is IoDirection {
  return value === "read" || value === "write" || value === "trim";
}

/** A change as a percentage: "−30.0 %". */
export function formatRatio(ratio: number): string {
  const percent = (ratio - 1) * 100;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "";
  return `${sign}${Math.abs(percent).toFixed(1)} %`;
}
