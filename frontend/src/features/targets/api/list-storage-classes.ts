import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchAllPages } from "../../../lib/all-pages";
import type { Schema } from "../../../lib/api/types";

export const storageClassesQueryKey = ["storage-classes"] as const;

/** GET /storage-classes: the published catalogue and the team's own classes. */
export function listStorageClassesQueryOptions() {
  return queryOptions({
    queryKey: [...storageClassesQueryKey, "list"],
    queryFn: ({ signal }) => fetchAllPages<Schema<"StorageClassList">>("/storage-classes", { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useStorageClasses() {
  return useQuery(listStorageClassesQueryOptions());
}
