import { describe, expect, it } from "vitest";
import { InputError } from "../../http/errors.js";
import {
  compileFilters,
  filteredQuery,
  filtersFromBody,
  filtersFromQuery,
  jobPasses,
  pageOf,
  type RawFilter,
} from "./metrics-filters.js";
import { scopeQuery } from "./promql-scope.js";

const raw = (property: unknown, operator: unknown, value: unknown, field = "filters[0]"): RawFilter => ({
  field,
  property,
  operator,
  value,
});
const build = async (base: string, ...filters: RawFilter[]): Promise<string> =>
  filteredQuery(base, await compileFilters(filters));
const refusal = async (filters: RawFilter[]): Promise<string> => {
  const err = await compileFilters(filters).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  return (err as Error).message;
};

describe("filters from a query string", () => {
  it("reads upstream's three spellings and refuses any other key by name", () => {
    const got = filtersFromQuery(
      {
        query: "up",
        limit: 5,
        filters: "channel:eq:alpha,instance:starts_with:127.0.0.1:90",
        filter: ["__name__:contains:height"],
        "filter[job][ne]": "other",
      },
      ["query", "limit", "offset"],
    );
    expect(got).toEqual([
      raw("channel", "eq", "alpha", "filters[0]"),
      raw("instance", "starts_with", "127.0.0.1:90", "filters[1]"),
      raw("__name__", "contains", "height", "filter[0]"),
      raw("job", "ne", "other", "filter[job][ne]"),
    ]);
    expect(() => filtersFromQuery({ querry: "up" }, ["query"])).toThrow(/^querry: unknown query parameter/);
    expect(() => filtersFromQuery({ filters: "channel=alpha" }, [])).toThrow(
      /^filters\[0\]: .* property:operator:value/,
    );
  });

  it("reads a body's filters, null meaning none", () => {
    expect(filtersFromBody(null)).toEqual([]);
    expect(filtersFromBody([{ property: "a", operator: "eq", value: "b" }])).toEqual([raw("a", "eq", "b")]);
  });
});

describe("compileFilters", () => {
  it.each([
    [raw("channel", "eq", "alpha"), 'ledger{channel="alpha"}'],
    [raw("channel", "ne", "alpha"), 'ledger{channel!="alpha"}'],
    [raw("channel", "contains", "a.b"), 'ledger{channel=~".*a\\\\.b.*"}'],
    [raw("channel", "not_contains", "x"), 'ledger{channel!~".*x.*"}'],
    [raw("channel", "starts_with", "al"), 'ledger{channel=~"al.*"}'],
    [raw("channel", "ends_with", "ha"), 'ledger{channel=~".*ha"}'],
    [raw("channel", "regex", "al|be"), 'ledger{channel=~"al|be"}'],
    [raw("channel", "not_regex", "al.*"), 'ledger{channel!~"al.*"}'],
    [raw("channel", "in", ["a", "b|c"]), 'ledger{channel=~"a|b\\\\|c"}'],
    [raw("channel", "not_in", "a|b"), 'ledger{channel!~"a|b"}'],
    [raw("value", "gt", 5), "(ledger) > 5"],
    [raw("value", "lte", "2.5"), "(ledger) <= 2.5"],
    [raw("value", "eq", 0), "(ledger) == 0"],
  ])("%o", async (filter, expected) => {
    expect(await build("ledger", filter)).toBe(expected);
  });

  it("adds the matchers to every selector, keeping the caller's", async () => {
    expect(await build('sum(rate(a{x="1"}[5m])) / b', raw("channel", "eq", "c"))).toBe(
      'sum(rate(a{x="1",channel="c"}[5m])) / b{channel="c"}',
    );
  });

  it("keeps injected text inside the string it was escaped into", async () => {
    const attacks = ['"} or vector(1) #', 'x"}) or on() {__name__=~".+', "a\\", '\\"}'];
    for (const value of attacks) {
      const q = await build("up", raw("channel", "eq", value));
      // Scoping the result sees exactly one selector: nothing the value held became PromQL.
      const scoped = await scopeQuery(q, "job", "peer0");
      expect(scoped.match(/job="peer0"/g)).toHaveLength(1);
      expect(scoped.startsWith("up{channel=")).toBe(true);
    }
  });

  it("refuses bad names, operators and values by field", async () => {
    expect(await refusal([raw('job"} or {a="', "eq", "x")])).toMatch(/^filters\[0\]\.property: .* is not a label name/);
    expect(await refusal([raw("1abc", "eq", "x")])).toMatch(/^filters\[0\]\.property/);
    expect(await refusal([raw("a", "like", "x")])).toMatch(/^filters\[0\]\.operator: "like" is not one of eq, ne/);
    expect(await refusal([raw("a", "gt", "3")])).toMatch(/^filters\[0\]\.operator: gt compares the sample value/);
    expect(await refusal([raw("value", "contains", "3")])).toMatch(/^filters\[0\]\.operator: the sample value takes/);
    expect(await refusal([raw("value", "gt", "3; drop")])).toMatch(/^filters\[0\]\.value: .* compared with a number/);
    expect(await refusal([raw("a", "regex", "(unclosed")])).toMatch(/^filters\[0\]\.value: not a valid RE2/);
    expect(await refusal([raw("a", "eq", "line\nbreak")])).toMatch(/^filters\[0\]\.value: control characters/);
    expect(await refusal([raw("a", "eq", null)])).toMatch(/^filters\[0\]\.value: must be a string or a number/);
    expect(await refusal([raw("a", "eq", "x".repeat(1001))])).toMatch(/^filters\[0\]\.value: longer than 1000/);
    expect(await refusal(Array.from({ length: 21 }, () => raw("a", "eq", "b")))).toMatch(/^filters: at most 20/);
  });

  it("turns job filters into tests on the scope's jobs rather than matchers", async () => {
    const f = await compileFilters([raw("job", "starts_with", "peer"), raw("job", "ne", "peer1")]);
    expect(f.matchers).toEqual([]);
    expect(["peer0", "peer1", "orderer0"].filter((j) => jobPasses(j, f))).toEqual(["peer0"]);
  });
});

describe("pageOf", () => {
  it("sorts series by label set and cuts a page, 0 meaning the default limit", async () => {
    const filters = await compileFilters([]);
    const result = ["c", "a", "b"].map((x) => ({ metric: { x }, value: [0, "1"] }));
    const page = pageOf(
      { status: "success", data: { resultType: "vector", result } },
      { limit: 2, offset: 1, filters, metadata: {} },
    );
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 3 });
    expect((page.data as { result: { metric: { x: string } }[] }).result.map((s) => s.metric.x)).toEqual(["b", "c"]);
    expect(pageOf({ status: "success", data: [] }, { limit: 0, filters, metadata: {} }).pagination.limit).toBe(100);
  });
});
