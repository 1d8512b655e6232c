import { describe, expect, it } from "vitest";
import { alignSeries, bytes, compactNumber, seconds } from "./series-data";

describe("alignSeries", () => {
  it("shares one sorted x axis and leaves gaps as null", () => {
    const data = alignSeries([
      {
        label: "a",
        values: [
          [20, "2"],
          [10, "1"],
        ],
      },
      {
        label: "b",
        values: [
          [30, "3"],
          [10, "NaN"],
        ],
      },
    ]);
    expect(data).toEqual([
      [10, 20, 30],
      [1, 2, null],
      [null, null, 3],
    ]);
  });
  it("gives an empty axis for no series", () => {
    expect(alignSeries([])).toEqual([[]]);
  });
});

describe("formats", () => {
  it("shortens numbers, bytes and durations", () => {
    expect(compactNumber(12)).toBe("12");
    expect(compactNumber(0.25)).toBe("0.25");
    expect(compactNumber(1234)).toBe("1.2K");
    expect(compactNumber(3_400_000)).toBe("3.4M");
    expect(bytes(52_428_800)).toBe("50 MiB");
    expect(seconds(0.0123)).toBe("12.3 ms");
    expect(seconds(2.5)).toBe("2.5 s");
  });
});
