import { describe, expect, it } from "vitest";
import { parseArgs } from "./contract-args";

describe("parseArgs", () => {
  it("reads a JSON array, keeping numbers (even huge ones) as strings", () => {
    expect(parseArgs("")).toEqual({ args: [] });
    expect(parseArgs('["0xabc", 42, true]')).toEqual({ args: ["0xabc", "42", true] });
    expect(parseArgs("[123456789012345678901234567890]")).toEqual({ args: ["123456789012345678901234567890"] });
  });
  it("names what is wrong", () => {
    expect(parseArgs("42")).toHaveProperty("error");
    expect(parseArgs("[oops")).toHaveProperty("error");
  });
});
