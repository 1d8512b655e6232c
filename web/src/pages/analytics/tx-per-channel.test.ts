import { describe, expect, it } from "vitest";
import type { RangeSeries } from "@/data/metrics/metrics";
import { peakValue, sumByChannel } from "@/pages/analytics/tx-per-channel";

const s = (channel: string | undefined, values: [number, string][]): RangeSeries => ({
  metric: channel === undefined ? {} : { channel },
  values,
});

describe("sumByChannel", () => {
  it("adds the peers' series of one channel point by point", () => {
    const out = sumByChannel([
      [
        s("ch1", [
          [10, "1"],
          [20, "2"],
        ]),
        s("ch2", [[10, "5"]]),
      ],
      [
        s("ch1", [
          [10, "3"],
          [20, "0.5"],
          [30, "4"],
        ]),
      ],
    ]);
    expect(out).toEqual([
      {
        label: "ch1",
        values: [
          [10, "4"],
          [20, "2.5"],
          [30, "4"],
        ],
      },
      { label: "ch2", values: [[10, "5"]] },
    ]);
  });

  it("skips NaN samples and drops channels with no finite point", () => {
    const out = sumByChannel([
      [
        s("a", [
          [10, "NaN"],
          [20, "1"],
        ]),
        s("b", [
          [10, "NaN"],
          [20, "+Inf"],
        ]),
      ],
    ]);
    expect(out).toEqual([{ label: "a", values: [[20, "1"]] }]);
  });

  it("sorts channels by name and names a series without a channel label", () => {
    const out = sumByChannel([[s("zeta", [[1, "1"]]), s(undefined, [[1, "2"]]), s("alpha", [[1, "3"]])]]);
    expect(out.map((x) => x.label)).toEqual(["(no channel)", "alpha", "zeta"]);
  });

  it("is empty without peers or series", () => {
    expect(sumByChannel([])).toEqual([]);
    expect(sumByChannel([[], []])).toEqual([]);
  });
});

describe("peakValue", () => {
  it("is the largest value, 0 for none", () => {
    expect(peakValue([])).toBe(0);
    expect(
      peakValue([
        {
          label: "a",
          values: [
            [1, "0"],
            [2, "0"],
          ],
        },
      ]),
    ).toBe(0);
    expect(
      peakValue([
        { label: "a", values: [[1, "0.2"]] },
        { label: "b", values: [[1, "3"]] },
      ]),
    ).toBe(3);
  });
});
