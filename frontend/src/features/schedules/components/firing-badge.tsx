import type { Firing } from "../api/list-schedules";

const TONES: Record<Firing["status"], string> = { started: "ok", missed: "warn", failed: "bad", run_failed: "bad" };
const WORDS: Record<Firing["status"], string> = { started: "started", missed: "missed", failed: "failed", run_failed: "run failed" };

/** started / missed / failed, in the shared badge colours; the word carries the meaning. */
export function FiringBadge({ status }: { status: Firing["status"] }) {
  return <span className={`badge badge-${TONES[status]}`}>{WORDS[status]}</span>;
}
