import type { HostStatus, RunStatus } from "../../lib/api-types";

type Tone = "ok" | "info" | "warn" | "bad" | "muted";

const TONES: Record<HostStatus | RunStatus, Tone> = {
  online: "ok",
  busy: "info",
  offline: "muted",
  queued: "muted",
  running: "info",
  completed: "ok",
  failed: "bad",
  cancelled: "warn",
};

/** A status word in a coloured pill; the word itself carries the meaning. */
export function StatusBadge({ status }: { status: HostStatus | RunStatus }) {
  return <span className={`badge badge-${TONES[status] ?? "muted"}`}>{status}</span>;
}
