/** Actions the server records, for the filter (others still show in the list). */
export const AUDIT_ACTIONS = [
  "run.started",
  "run.cancelled",
  "target.created",
  "target.changed",
  "host.registered",
  "enrollment_token.created",
  "token.created",
  "token.revoked",
  "invitation.created",
  "invitation.accepted",
  "member.role_changed",
  "member.removed",
] as const;
