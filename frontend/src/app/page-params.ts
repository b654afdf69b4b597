// What a page asks the API for, read from its address. The page reads it to render; its route's
// loader (./router) reads it to start the same queries while the page's code is still loading,
// so both must agree: one reader per page, here.

import type { ComparisonParams } from "../features/compare/api/get-comparison";
import type { RegressionParams } from "../features/history/api/list-regressions";
import type { ResultFilterValues } from "../features/results/components/results-filters";
import type { AuditListParams, ResultListParams, RunListParams, RunStatus } from "../lib/api/types";
import { RUN_STATUSES } from "../lib/status";

export const RUNS_PAGE_SIZE = 50;
export const RESULTS_PAGE_SIZE = 50;
/** The results chart compares up to this many of the filtered results (the server's page limit). */
export const RESULTS_CHART_LIMIT = 1000;
export const REGRESSIONS_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 50;

/** ?offset=N, never negative. */
function readOffset(params: URLSearchParams): number {
  return Math.max(0, Number(params.get("offset")) || 0);
}

/** /runs?status=&label=&offset= */
export function runsListParams(params: URLSearchParams): RunListParams {
  const status = params.get("status");
  return {
    status: RUN_STATUSES.includes(status as RunStatus) ? (status as RunStatus) : undefined,
    label: params.get("label")?.trim() || undefined,
    limit: RUNS_PAGE_SIZE,
    offset: readOffset(params),
  };
}

/** /runs/:id: the run's id, or null when the address holds none. */
export function runIdOf(id: string | undefined): number | null {
  const runId = Number(id);
  return Number.isInteger(runId) && runId > 0 ? runId : null;
}

/** /results?storage_class=&target_id=&origin= */
export function readResultFilters(params: URLSearchParams): ResultFilterValues {
  const origin = params.get("origin");
  const targetId = params.get("target_id") ?? "";
  return {
    storageClass: params.get("storage_class") ?? "",
    targetId: /^\d+$/.test(targetId) ? targetId : "",
    origin: origin === "measured" || origin === "imported" ? origin : "",
  };
}

export function resultsQuery(filters: ResultFilterValues): ResultListParams {
  return {
    storage_class: filters.storageClass || undefined,
    target_id: filters.targetId ? Number(filters.targetId) : undefined,
    imported: filters.origin === "" ? undefined : filters.origin === "imported",
  };
}

/** /regressions?state=acknowledged|unacknowledged&kind=regression|improvement&offset= */
export function regressionsQuery(params: URLSearchParams): RegressionParams {
  const state = params.get("state") ?? "";
  const kind = params.get("kind") ?? "";
  return {
    acknowledged: state === "" ? undefined : state === "acknowledged",
    kind: kind === "regression" || kind === "improvement" ? kind : undefined,
    limit: REGRESSIONS_PAGE_SIZE,
    offset: readOffset(params),
  };
}

/** /audit?action=&offset= */
export function auditQuery(params: URLSearchParams): AuditListParams {
  return { action: params.get("action") || undefined, limit: AUDIT_PAGE_SIZE, offset: readOffset(params) };
}

/** "3,1,2" → [3, 1, 2]; anything not an id is left out. */
export function readIds(text: string | null): number[] {
  const ids = (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number)
    .filter((id) => id > 0);
  return [...new Set(ids)];
}

/** The comparison an address asks for: its ids, and the baseline when it is one of them. */
export function comparisonOf(params: URLSearchParams): ComparisonParams {
  const ids = readIds(params.get("ids"));
  const baseline = Number(params.get("baseline"));
  const pool = params.get("pool") === "run" ? "run" : undefined;
  return { ids, baseline: ids.includes(baseline) ? baseline : undefined, ...(pool ? { pool } : {}) };
}

/** The groups of the chosen results that the compare page shows first. */
export function groupsFilter(ids: number[]) {
  return { ids: ids.join(",") };
}

/** ?name=<positive integer>, or null. */
export function readIdParam(params: URLSearchParams, name: string): number | null {
  const value = params.get(name);
  return value && /^\d+$/.test(value) ? Number(value) : null;
}
