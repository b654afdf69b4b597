import type { Schema } from "../../../lib/api/types";

export type LocalSlot = Schema<"LocalSlot">;

/** "2026-11-24 02:00 CET": the slot as the schedule's zone reads it (the zone's wall clock, named). */
export function slotText(slot: LocalSlot): string {
  return `${slot.at.slice(0, 10)} ${slot.at.slice(11, 16)} ${slot.abbreviation}`;
}
