import { describe, expect, it } from "vitest";
import { PromqlScopeError, regexEscape, scopeQuery, scopeQueryToSet, scopeSelector } from "./promql-scope.js";

const J = 'job="peer0"';

describe("scopeQuery", () => {
  it.each([
    ["up", `up{${J}}`],
    ['up{job="orderer0"}', `up{${J}}`],
    ['up{job=~".+"}', `up{${J}}`],
    ['{__name__=~".+"}', `{__name__=~".+",${J}}`],
    ["up or on() vector(1)", `up{${J}} or on() vector(1)`],
    ['rate(grpc_server_handled_total{code!="OK"}[5m])', `rate(grpc_server_handled_total{code!="OK",${J}}[5m])`],
    [
      'sum by (job) (rate(http{job="o", a="b"}[1m:10s] offset 5m))',
      `sum by (job) (rate(http{a="b",${J}}[1m:10s] offset 5m))`,
    ],
    ["a + on(job) group_left b", `a{${J}} + on(job) group_left b{${J}}`],
    ["ledger_blockchain_height @ 100", `ledger_blockchain_height{${J}} @ 100`],
    ["count(up) > 0", `count(up{${J}}) > 0`],
    ["1 + 2", "1 + 2"],
    ['label_replace(up, "job", "x", "", "")', `label_replace(up{${J}}, "job", "x", "", "")`],
  ])("scopes %s", async (query, expected) => {
    expect(await scopeQuery(query, "job", "peer0")).toBe(expected);
  });

  it("escapes the value", async () => {
    expect(await scopeQuery("up", "job", 'a"b\\c')).toBe('up{job="a\\"b\\\\c"}');
  });

  it.each(["up{", "rate(up[5m]) by (x)", "sum(", "up{job=}", ""])("refuses text that does not parse: %j", async (q) => {
    const err: unknown = await scopeQuery(q, "job", "peer0").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PromqlScopeError);
    expect((err as PromqlScopeError).syntax).toBe(true);
  });

  it("refuses quoted (UTF-8) label names it would not rewrite", async () => {
    await expect(scopeQuery('{"job"="orderer0"}', "job", "peer0")).rejects.toThrow(/quoted/);
  });
});

describe("scopeSelector", () => {
  it("scopes a bare selector and refuses expressions", async () => {
    expect(await scopeSelector('ledger_blockchain_height{channel="c"}', "job", "peer0")).toBe(
      `ledger_blockchain_height{channel="c",${J}}`,
    );
    expect(await scopeSelector("{}", "job", "peer0")).toBe(`{${J}}`);
    await expect(scopeSelector("up or vector(1)", "job", "peer0")).rejects.toThrow(/not a series selector/);
  });
});

describe("scopeQueryToSet", () => {
  it.each([
    ["up", 'up{job=~"peer0|orderer0"}'],
    ['up{job="prometheus"}', 'up{job=~"peer0|orderer0"}'],
    ['{__name__=~".+"}', '{__name__=~".+",job=~"peer0|orderer0"}'],
    ["up or on() vector(1)", 'up{job=~"peer0|orderer0"} or on() vector(1)'],
  ])("scopes %s to every job of the set", async (query, expected) => {
    expect(await scopeQueryToSet(query, "job", ["peer0", "orderer0"])).toBe(expected);
  });

  it("escapes regex metacharacters, then the string literal", async () => {
    expect(regexEscape("a.b|c(d)*")).toBe("a\\.b\\|c\\(d\\)\\*");
    expect(await scopeQueryToSet("up", "job", ["a.b", "c|d"])).toBe('up{job=~"a\\\\.b|c\\\\|d"}');
  });

  it("refuses an empty set (it would select series without the label)", async () => {
    await expect(scopeQueryToSet("up", "job", [])).rejects.toThrow(/at least one/);
  });

  it("scopes a selector to a set", async () => {
    expect(await scopeSelector('{__name__="up"}', "job", ["x"])).toBe('{__name__="up",job=~"x"}');
  });
});
