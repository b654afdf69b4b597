import { describe, expect, it } from "vitest";
import {
  formatBandwidth,
  formatBandwidthBoth,
  formatBytes,
  formatDuration,
  formatIops,
  formatMBps,
  formatNs,
  formatSpecFigure,
  formatRelativeTime,
  formatSeconds,
  logTicks,
  trimZeros,
} from "./format";

describe("formatBandwidth", () => {
  it("uses binary units with three significant figures", () => {
    expect(formatBandwidth(62_496_000)).toBe("59.6 MiB/s");
    expect(formatBandwidth(512)).toBe("512 B/s");
    expect(formatBandwidth(4096)).toBe("4.00 KiB/s");
    expect(formatBandwidth(1.5 * 1024 ** 3)).toBe("1.50 GiB/s");
    expect(formatBandwidth(250 * 1024 ** 2)).toBe("250 MiB/s");
  });

  it("moves to the next unit instead of printing 1024 of the smaller one", () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe("1.00 MiB");
  });

  it("shows a dash for missing values", () => {
    expect(formatBandwidth(null)).toBe("—");
    expect(formatBandwidth(Number.NaN)).toBe("—");
  });
});

describe("vendors' decimal MB/s beside fio's MiB/s", () => {
  it("formats decimal throughput", () => {
    expect(formatMBps(62_496_000)).toBe("62.5 MB/s");
    expect(formatMBps(300e6)).toBe("300 MB/s");
    expect(formatMBps(1.5e9)).toBe("1.50 GB/s");
    expect(formatMBps(999)).toBe("999 B/s");
    expect(formatMBps(undefined)).toBe("—");
  });

  it("shows both units for a measured bandwidth", () => {
    expect(formatBandwidthBoth(62_496_000)).toBe("59.6 MiB/s (62.5 MB/s)");
    expect(formatBandwidthBoth(null)).toBe("—");
  });

  it("gives a spec in MB/s its MiB/s too, and other units as published", () => {
    expect(formatSpecFigure(300, "MB/s")).toBe("300 MB/s (286 MiB/s)");
    expect(formatSpecFigure(20000, "IOPS")).toBe("20,000 IOPS");
    expect(formatSpecFigure(0.5, "ms")).toBe("0.5 ms");
  });
});

describe("formatNs", () => {
  it("picks ns, µs, ms or s", () => {
    expect(formatNs(850)).toBe("850 ns");
    expect(formatNs(1_500)).toBe("1.50 µs");
    expect(formatNs(536_000)).toBe("536 µs");
    expect(formatNs(1_220_608)).toBe("1.22 ms");
    expect(formatNs(12_500_000)).toBe("12.5 ms");
    expect(formatNs(2_000_000_000)).toBe("2.00 s");
  });

  it("rounds up across a unit boundary", () => {
    expect(formatNs(999_999)).toBe("1.00 ms");
    expect(formatNs(999.7)).toBe("1.00 µs");
  });
});

describe("formatIops", () => {
  it("adds k and M suffixes like fio", () => {
    expect(formatIops(950)).toBe("950");
    expect(formatIops(15_258.3)).toBe("15.3k");
    expect(formatIops(152_000)).toBe("152k");
    expect(formatIops(1_230_000)).toBe("1.23M");
    expect(formatIops(2.5)).toBe("2.5");
  });
});

describe("time formatting", () => {
  it("formats durations compactly", () => {
    expect(formatDuration(4_200)).toBe("4.2s");
    expect(formatDuration(65_000)).toBe("1m 05s");
    expect(formatDuration(3_725_000)).toBe("1h 02m");
  });

  it("formats seconds on time axes and ETAs", () => {
    expect(formatSeconds(7.4)).toBe("7s");
    expect(formatSeconds(59.6)).toBe("1m 00s");
    expect(formatSeconds(75)).toBe("1m 15s");
    expect(formatSeconds(null)).toBe("—");
  });

  it("formats relative times", () => {
    const now = Date.parse("2025-03-01T10:10:00Z");
    expect(formatRelativeTime("2025-03-01T10:09:30Z", now)).toBe("30s ago");
    expect(formatRelativeTime("2025-03-01T10:00:00Z", now)).toBe("10 min ago");
    expect(formatRelativeTime(null, now)).toBe("never");
  });
});

describe("logTicks", () => {
  it("covers the data with decades", () => {
    expect(logTicks(501_760, 9_895_936)).toEqual([100_000, 1_000_000, 10_000_000]);
  });
});

describe("trimZeros", () => {
  it("shortens axis labels without changing their value", () => {
    expect(trimZeros("1.00 ms")).toBe("1 ms");
    expect(trimZeros("1.50 µs")).toBe("1.5 µs");
    expect(trimZeros("16.0k")).toBe("16k");
    expect(trimZeros("100 µs")).toBe("100 µs");
    expect(trimZeros("12.5 ms")).toBe("12.5 ms");
  });
});
