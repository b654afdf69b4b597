import type { Result } from "../../../lib/api/types";
import { formatPercent } from "../../../lib/format";

type Verdict = NonNullable<Result["steady_state"]>[string];

/** In words: whether a direction's IOPS reached steady state (SNIA PTS: 5 rounds within 20 %, trend under 10 %). */
export function steadyStateText(direction: string, verdict: Verdict): string {
  const unit = verdict.basis === "per_second" ? "second" : "repetition";
  const spread =
    verdict.range_share !== null && verdict.range_share !== undefined
      ? ` (range ${formatPercent(verdict.range_share * 100, 0)}, trend ${formatPercent((verdict.excursion_share ?? 0) * 100, 0)} of the mean)`
      : "";
  if (verdict.status === "steady") {
    return `${direction}: steady state reached at ${unit} ${verdict.reached_at} of ${verdict.rounds}${spread}`;
  }
  if (verdict.status === "not_steady") {
    return `${direction}: steady state not reached over ${verdict.rounds} ${unit}s${spread}`;
  }
  return `${direction}: too short to tell steady state (${verdict.rounds} ${unit}s; it needs ${verdict.window})`;
}

/** Per direction, whether the figures were measured in steady state. */
export function SteadyStateLine({ result, title }: { result: Result; title: string }) {
  const verdicts = Object.entries(result.steady_state ?? {});
  if (verdicts.length === 0) return null;
  return (
    <ul className="small plain-list" aria-label={`Steady state of ${title}`}>
      {verdicts.map(([direction, verdict]) => (
        <li key={direction} className={verdict.status === "not_steady" ? "note-warn" : undefined}>
          {steadyStateText(direction, verdict)}
        </li>
      ))}
    </ul>
  );
}
