import { describe, expect, it } from "vitest";
import { steadyStateText } from "./steady-state-line";

const base = { figure: "iops", window: 5, reason: "", round: null } as const;

describe("steadyStateText", () => {
  it("says where steady state was reached and how tight the window was", () => {
    const text = steadyStateText("read", { ...base, basis: "per_second", status: "steady", rounds: 30, reached_at: 4, range_share: 0.08, excursion_share: 0.02 });
    expect(text).toBe("read: steady state reached at second 4 of 30 (range 8%, trend 2% of the mean)");
  });

  it("says when it was not reached, with the last window's range", () => {
    const text = steadyStateText("write", { ...base, basis: "repetitions", status: "not_steady", rounds: 6, reached_at: null, range_share: 0.4, excursion_share: 0.3 });
    expect(text).toBe("write: steady state not reached over 6 repetitions (range 40%, trend 30% of the mean)");
  });
});
