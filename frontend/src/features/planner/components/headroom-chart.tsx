import { ChartContainer } from "../../../components/ui/chart-container";
import type { Candidate } from "../api/plan-capacity";

/** Feasible candidates, cheapest first: how much more than the workload each one carries. */
export function HeadroomChart({ candidates }: { candidates: Candidate[] }) {
  const data = candidates
    .filter((c) => c.feasible && c.headroom != null)
    .map((c) => ({
      class: c.monthly_cost == null ? `${c.name} (no price)` : `${c.name} (${c.monthly_cost.toFixed(2)}/month)`,
      headroom: c.headroom,
    }));
  return (
    <ChartContainer
      title="Cost vs headroom"
      description="Each feasible class at its proposed capacity, cheapest first: its tightest spec line ÷ the workload's load on it (1× is just enough)."
      kind="bar"
      data={data}
      xKey="class"
      series={{ headroom: { label: "headroom (×)", color: "#4a9a6b" } }}
      unit="count"
    />
  );
}
