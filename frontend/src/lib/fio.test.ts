import { describe, expect, it } from "vitest";
import { makePreset } from "../test/factories";
import { describeJob, formatFioSize, jobWrites, parseFioSize, presetJobs, runRequirements } from "./fio";
import type { FioJob } from "./api-types";

describe("fio sizes", () => {
  it("parses fio notation as binary multiples", () => {
    expect(parseFioSize("4k")).toBe(4096);
    expect(parseFioSize("1MiB")).toBe(1024 ** 2);
    expect(parseFioSize("10g")).toBe(10 * 1024 ** 3);
    expect(parseFioSize("512")).toBe(512);
    expect(parseFioSize("4q")).toBeNull();
  });

  it("prints bytes back in fio notation", () => {
    expect(formatFioSize(4096)).toBe("4k");
    expect(formatFioSize(1024 ** 3)).toBe("1g");
    expect(formatFioSize(1000)).toBe("1000");
  });
});

describe("presetJobs", () => {
  it("folds the global section into each job, job options winning", () => {
    const preset = makePreset({
      global_options: { ioengine: "libaio", direct: "1", runtime: "2m", bs: "128k" },
      jobs: [{ name: "a", rw: "read", bs: 4096 }, { name: "b", rw: "write" }],
    });
    expect(presetJobs(preset)).toEqual([
      { name: "a", rw: "read", bs: 4096, ioengine: "libaio", direct: true, runtime: 120 },
      { name: "b", rw: "write", bs: 131072, ioengine: "libaio", direct: true, runtime: 120 },
    ]);
  });

  it("describes a job as fio options, unknown keys as key=value", () => {
    expect(describeJob({ name: "x", rw: "randrw", bs: 4096, direct: true, time_based: true, verify: "crc32c" })).toBe(
      "rw=randrw bs=4k time_based direct=1 verify=crc32c",
    );
  });
});

describe("jobWrites", () => {
  it("says which jobs would destroy data on a block device", () => {
    expect(jobWrites({ name: "r", rw: "randread" })).toBe(false);
    expect(jobWrites({ name: "r", rw: "read", verify: "md5" })).toBe(false);
    expect(jobWrites({ name: "w", rw: "randwrite" })).toBe(true);
    expect(jobWrites({ name: "m", rw: "randrw", rwmixread: 70 })).toBe(true);
    expect(jobWrites({ name: "t", rw: "trim" })).toBe(true);
    expect(jobWrites({ name: "p", rw: "randread", trim_percentage: 10 })).toBe(true);
    expect(jobWrites({ name: "v", rw: "randread", verify: "crc32c" })).toBe(true);
    expect(jobWrites({ name: "v0", rw: "randread", verify: "0" })).toBe(false);
  });
});

describe("runRequirements", () => {
  it("names the options runs will refuse, per job", () => {
    const jobs = [
      { name: "ok", rw: "randread", size: 1024 ** 3, runtime: 60 },
      { name: "bare", rw: "randread" },
      { name: "pct", rw: "read", size: "100%", runtime: 30 },
    ];
    expect(runRequirements(jobs, "directory").map((item) => `${item.job}:${item.option}`)).toEqual([
      "bare:runtime",
      "bare:size",
      "pct:size",
    ]);
    expect(runRequirements(jobs, "block_device").map((item) => `${item.job}:${item.option}`)).toEqual(["bare:runtime"]);
  });
});

describe("options left unset", () => {
  it("are not shown as bare flags", () => {
    const job = { name: "x", rw: "randread", bs: 4096, ramp_time: null, rwmixread: null } as unknown as FioJob;
    expect(describeJob(job)).toBe("rw=randread bs=4k");
  });
});
