import type { HostStatus, RunStatus } from "../../lib/api/types";
import type { CredentialStatus, InvitationStatus } from "../../lib/credential-status";

type Tone = "ok" | "info" | "warn" | "bad" | "muted";

type Status = HostStatus | RunStatus | InvitationStatus | CredentialStatus;

const TONES: Record<Status, Tone> = {
  online: "ok",
  busy: "info",
  offline: "muted",
  queued: "muted",
  running: "info",
  completed: "ok",
  failed: "bad",
  cancelled: "warn",
  pending: "info",
  accepted: "ok",
  active: "ok",
  expired: "muted",
  revoked: "warn",
  "used up": "muted",
};

/** A status word in a coloured pill; the word itself carries the meaning. */
export function StatusBadge({ status }: { status: Status }) {
  return <span className={`badge badge-${TONES[status] ?? "muted"}`}>{status}</span>;
}
