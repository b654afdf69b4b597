import { describe, expect, it } from "vitest";
import published from "./api/figures.json";
import { COMPARED_FIGURES, DIRECTION_FIGURES, FIGURES, figureLabel, figureUnit, isFigureName } from "./figures";
import { formatValue } from "./format";

// figures.json is GET /figures as `make api-types` recorded it; backend/tests/figures checks it is
// what the API answers, and that the API publishes every figure of the backend's one definition.
describe("the figures' vocabulary", () => {
  it("labels every figure the API publishes, in the API's words and unit", () => {
    expect(FIGURES.map((figure) => figure.name)).toEqual(published.items.map((item) => item.name));
    for (const item of published.items) {
      expect(isFigureName(item.name)).toBe(true);
      expect(figureLabel(item.name)).toBe(item.label);
      expect(figureLabel(item.name)).not.toBe(item.name);
      expect(figureUnit(item.name)).toBe(item.unit);
    }
  });

  it("writes a value of every figure in its unit, bandwidth in binary units per second", () => {
    for (const figure of FIGURES) {
      const shown = formatValue(figure.unit, 62_500_000);
      expect(shown, figure.name).not.toBe("—");
      expect(shown, figure.name).not.toBe(String(62_500_000));
    }
    expect(formatValue(figureUnit("bw_bytes")!, 62_500_000)).toBe("59.6 MiB/s");
    expect(formatValue(figureUnit("clat_p99_ns")!, 1_500_000)).toBe("1.50 ms");
    expect(formatValue(figureUnit("iops")!, 15_200)).toBe("15.2k");
    expect(formatValue(figureUnit("cpu_usr_pct")!, 12.5)).toBe("12.5%");
  });

  it("knows which figures are compared and which are charted per direction", () => {
    expect(COMPARED_FIGURES).toContain("cpu_usr_pct");
    expect(COMPARED_FIGURES).not.toContain("lat_stddev_ns");
    expect(DIRECTION_FIGURES).toContain("lat_stddev_ns");
    expect(DIRECTION_FIGURES).not.toContain("cpu_usr_pct");
  });

  it("leaves a name it does not know as it is", () => {
    expect(figureLabel("clat_p99_999_ns")).toBe("clat_p99_999_ns");
    expect(figureUnit("clat_p99_999_ns")).toBeUndefined();
  });
});
