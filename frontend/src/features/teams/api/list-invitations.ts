import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const invitationsQueryKey = ["team", "invitations"] as const;

export function listInvitationsQueryOptions() {
  return queryOptions({
    queryKey: invitationsQueryKey,
    queryFn: ({ signal }) => apiRequest<Schema<"InvitationList">>("/teams/current/invitations", { signal }),
  });
}

/** Owners only (the server refuses others): pass enabled=false for them. */
export function useInvitations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...listInvitationsQueryOptions(), enabled });
}
