// Invitations and tokens carry timestamps, not a status: the status people read is derived here.

import type { Invitation } from "./api/types";

export type InvitationStatus = "pending" | "accepted" | "expired" | "revoked";
export type CredentialStatus = "active" | "expired" | "revoked" | "used up";

function isPast(iso: string | null | undefined, now: number): boolean {
  if (!iso) return false;
  const at = Date.parse(iso);
  return Number.isFinite(at) && at <= now;
}

/** Accepted wins over a later revocation (revoking an accepted link changes nothing). */
export function invitationStatus(invitation: Invitation, now: number): InvitationStatus {
  if (invitation.accepted_at) return "accepted";
  if (invitation.revoked_at) return "revoked";
  if (isPast(invitation.expires_at, now)) return "expired";
  return "pending";
}

interface Credential {
  revoked_at: string | null;
  expires_at: string | null;
  /** Enrollment tokens: hosts that may still enroll (null: any number). */
  uses_left?: number | null;
}

export function credentialStatus(credential: Credential, now: number): CredentialStatus {
  if (credential.revoked_at) return "revoked";
  if (isPast(credential.expires_at, now)) return "expired";
  if (credential.uses_left === 0) return "used up";
  return "active";
}
