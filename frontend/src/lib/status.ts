import type { RunStatus } from "./api/types";

export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["queued", "running"];
export const RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "completed", "failed", "cancelled"];

export function isRunActive(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.includes(status);
}
