// How a comparison's changes read: a signed percentage, and whether it is for the better.
// Figures' labels and units come from lib/figures (the API's vocabulary), values from lib/format.

/** "+12.3 %", "−4.0 %", or "—". */
export function formatDeltaPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const sign = value > 0 ? "+" : value < 0 ? "−" : "±";
  return `${sign}${Math.abs(value).toFixed(1)} %`;
}

/** Whether a change is for the better, given which way the figure should go. */
export function isBetter(deltaPct: number | null | undefined, higherIsBetter: boolean): boolean | null {
  if (deltaPct === null || deltaPct === undefined || deltaPct === 0) return null;
  return higherIsBetter ? deltaPct > 0 : deltaPct < 0;
}
