import type { Firing } from "../api/list-schedules";

const TONES: Record<Firing["status"], string> = { started: "ok", missed: "warn", failed: "bad" };

/** started / missed / failed, in the shared badge colours; the word carries the meaning. */
export function FiringBadge({ status }: { status: Firing["status"] }) {
  return <span className={`badge badge-${TONES[status]}`}>{status}</span>;
}
