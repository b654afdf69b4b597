import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, apiUrl } from "../../../lib/api-client";
import type { QueryOf, Schema } from "../../../lib/api/types";

export type GroupsView = Schema<"GroupsOut">;
export type Group = Schema<"GroupOut">;
export type GroupsParams = QueryOf<"/api/v1/compare/groups">;
export type GroupBy = GroupsParams["by"];
export type GroupFigure = NonNullable<GroupsParams["figure"]>;
export type GroupDirection = NonNullable<GroupsParams["direction"]>;

/** What the grouped view shows first. */
export const GROUP_DEFAULTS = { by: "storage_class", figure: "iops", direction: "read" } as const satisfies {
  by: GroupBy;
  figure: GroupFigure;
  direction: GroupDirection;
};

/** GET /compare/groups: results grouped by one property, never mixing job shapes. */
export function groupsQueryOptions(params: GroupsParams) {
  return queryOptions({
    queryKey: ["compare", "groups", params],
    queryFn: ({ signal }) => apiRequest<GroupsView>("/compare/groups", { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useGroups(params: GroupsParams, enabled = true) {
  return useQuery({ ...groupsQueryOptions(params), enabled });
}

/** GET /compare/groups/export: the grouped view as a downloadable file. */
export function groupsExportUrl(params: GroupsParams, format: "csv" | "json"): string {
  return apiUrl("/compare/groups/export", { ...params, format });
}
