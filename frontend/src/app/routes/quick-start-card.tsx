import { Link } from "react-router";
import type { Preset, Target } from "../../lib/api/types";

/** Whose presets are the product's own quick starters (the fio package names them so). */
const QUICK_START_SOURCE = "storbench quick start";

/** The product's first quick-start preset, if the server offers one. */
export function quickStartPreset(presets: Preset[]): Preset | undefined {
  return presets.find((preset) => preset.source === QUICK_START_SOURCE);
}

/** Where the quick start's link leads: the dashboard, its form prefilled (the only target chosen). */
export function quickStartAddress(preset: Preset, targets: Pick<Target, "id">[]): string {
  const params = new URLSearchParams({ preset: preset.id });
  if (targets.length === 1) params.set("target_id", String(targets[0]!.id));
  return `/?${params.toString()}`;
}

interface QuickStartCardProps {
  targets: Pick<Target, "id" | "name">[];
  presets: Preset[];
}

/** A team without runs yet: what to do first, one click away. */
export function QuickStartCard({ targets, presets }: QuickStartCardProps) {
  const preset = quickStartPreset(presets);
  return (
    <section className="panel quick-start" aria-labelledby="quick-start-heading">
      <h2 id="quick-start-heading">First run</h2>
      {targets.length === 0 ? (
        <p>
          Your team has no runs yet. First tell storbench where to measure: a directory or a device on a host.{" "}
          <Link to="/targets">Add a target</Link>
        </p>
      ) : preset ? (
        <>
          <p>
            Your team has no runs yet. Start with the quick start, <strong>{preset.name}</strong>
            {targets.length === 1 ? (
              <>
                {" "}
                on <strong>{targets[0]!.name}</strong>
              </>
            ) : null}
            : {preset.description}
          </p>
          <Link className="button button-primary" to={quickStartAddress(preset, targets)}>
            Prefill the quick start
          </Link>
          {targets.length > 1 ? <span className="small muted"> then choose one of your {targets.length} targets.</span> : null}
        </>
      ) : (
        <p>Your team has no runs yet: choose a target and a preset in the form below.</p>
      )}
    </section>
  );
}
