import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { Schema } from "../../../lib/api/types";

export const membersQueryKey = ["team", "members"] as const;

export function listMembersQueryOptions() {
  return queryOptions({
    queryKey: membersQueryKey,
    queryFn: ({ signal }) => apiRequest<Schema<"MemberList">>("/teams/current/members", { signal }),
  });
}

export function useMembers() {
  return useQuery(listMembersQueryOptions());
}
