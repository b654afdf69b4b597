import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { FioValidateResponse } from "../../../lib/api/types";

/** POST /fio/validate is a pure parse, so it is cached like a query keyed by the text. */
export function validateFioQueryOptions(text: string) {
  return queryOptions({
    queryKey: ["fio", "validate", text],
    queryFn: ({ signal }) =>
      apiRequest<FioValidateResponse>("/fio/validate", { method: "POST", json: { text }, signal }),
    enabled: text.trim() !== "",
    staleTime: Infinity,
    retry: false,
  });
}

export function useValidateFio(text: string) {
  return useQuery(validateFioQueryOptions(text));
}
