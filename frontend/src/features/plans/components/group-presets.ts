import type { Preset } from "../../../lib/api/types";

/** Presets grouped by their publisher/source, sources in alphabetical order. */
export function groupPresets(presets: Preset[]): [string, Preset[]][] {
  const groups = new Map<string, Preset[]>();
  for (const preset of presets) {
    const group = groups.get(preset.source) ?? [];
    group.push(preset);
    groups.set(preset.source, group);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}
