import type { Role } from "./api/types";

export const ROLES: readonly Role[] = ["owner", "member", "viewer"];

export const ROLE_HINTS: Record<Role, string> = {
  owner: "Everything, including members, tokens and the audit log.",
  member: "Starts runs; adds hosts, targets and plans.",
  viewer: "Reads only.",
};

/** Members and owners may start runs and create things; viewers only read. */
export function canWrite(role: Role | undefined): boolean {
  return role === "owner" || role === "member";
}

/** Team owners manage members, invitations, tokens and see the audit log. */
export function isOwner(role: Role | undefined): boolean {
  return role === "owner";
}
