import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { ResultImport, ResultImportFields } from "../../../lib/api/types";
import { resultsQueryKey } from "./list-results";

/** The server refuses larger uploads with 413. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export interface ImportResultsInput extends ResultImportFields {
  file: File;
}

/** POST /results/import (multipart): an fio output stored in the history, marked imported. */
export function importResults({ file, ...fields }: ImportResultsInput): Promise<ResultImport> {
  const form = new FormData();
  form.append("file", file, file.name);
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== "") form.append(key, String(value));
  }
  return apiRequest<ResultImport>("/results/import", { method: "POST", multipart: form });
}

export function useImportResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importResults,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resultsQueryKey }),
  });
}
