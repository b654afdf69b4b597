import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { ExpectedSpec } from "../../../lib/api/types";
import { storageClassesQueryKey } from "./list-storage-classes";

export interface ExpectedSpecParams {
  classId: number | null;
  capacityGib: number | null;
}

/** GET /storage-classes/{id}/spec?capacity_gib=N: what the class's spec promises at that capacity. */
export function expectedSpecQueryOptions({ classId, capacityGib }: ExpectedSpecParams) {
  return queryOptions({
    queryKey: [...storageClassesQueryKey, classId, "spec", { capacityGib }],
    queryFn: ({ signal }) =>
      apiRequest<ExpectedSpec>(`/storage-classes/${classId}/spec`, { query: { capacity_gib: capacityGib }, signal }),
    enabled: classId !== null && capacityGib !== null && capacityGib > 0,
  });
}

export function useExpectedSpec(params: ExpectedSpecParams) {
  return useQuery(expectedSpecQueryOptions(params));
}
