import { describe, expect, it } from "vitest";
import { describeJob, jobWrites, runRequirements } from "./fio";
import type { FioJob } from "./api/types";

describe("describeJob", () => {
  it("describes a normalised job as the options fio reads, sizes as written, other keys as key=value", () => {
    expect(
      describeJob({ name: "x", rw: "randrw", bs: 4096, size: 1_000_000, runtime: 60, direct: true, time_based: true, verify: "crc32c" }),
    ).toBe("rw=randrw bs=4k size=1000000 runtime=60s time_based direct=1 verify=crc32c");
    expect(describeJob({ name: "x", rw: "read", bs: 1024 ** 2, size: 1024 ** 3 })).toBe("rw=read bs=1M size=1G");
    expect(describeJob({ name: "x", rw: "read", bs: 1536, size: 10 * 1024 ** 4 })).toBe("rw=read bs=1536 size=10T");
  });

  it("writes k as the job's kb_base means it, so that fio reads the same bytes back", () => {
    expect(describeJob({ name: "x", rw: "read", bs: 4096, size: 8_000_000, kb_base: 1000 } as FioJob)).toBe(
      "rw=read bs=4096 size=8M kb_base=1000",
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
    expect(jobWrites({ name: "v", rw: "randread", verify: "crc32c" })).toBe(true);
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
