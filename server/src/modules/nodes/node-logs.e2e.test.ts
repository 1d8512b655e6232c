import { appendFileSync, readFileSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fabricApi,
  fabricNodeSpec,
  haveFabricBinaries,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";
import { createUser, dialects } from "../../test-support/test-app.js";

/**
 * upstream's numbered log reads (tail, range, filter, stats) over the log of a real Fabric peer,
 * started by the console's supervisor and stopped again so that the file holds still. Every answer
 * is checked against the file itself.
 */
const have = await haveFabricBinaries("node log reads");

describe.skipIf(!have).each(dialects())("numbered reads of a real peer's log on %s", (dialect) => {
  let api: FabricApi;
  let peer: Json;
  let file: string;
  let lines: string[];
  let viewer: Record<string, string>;

  const get = async (url: string, headers?: Record<string, string>) => {
    const res = await api.t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: headers ?? api.t.admin });
    return { status: res.statusCode, body: res.json() as Json, truncated: res.headers["x-log-truncated"] };
  };
  const numbered = (from: number, to: number) =>
    lines.slice(from - 1, to).map((content, i) => ({ line_number: from + i, content }));

  beforeAll(async () => {
    api = await fabricApi({ dialect, portCount: 12 });
    const org = await api.ok("POST", "/organizations", { mspId: `Logs${dialect}MSP`, name: `logs-${dialect}` });
    [peer] = await api.createNodes(org, 1, 0, `logs-${dialect}-`);
    await api.stopNodes([peer]);
    const row = await api.t.database.db
      .selectFrom("nodes")
      .select("deployment")
      .where("id", "=", peer.id)
      .executeTakeFirstOrThrow();
    file = (JSON.parse(row.deployment) as { logFile: string }).logFile;
    lines = readFileSync(file, "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    viewer = await createUser(api.t, `logs-viewer-${dialect}`, "viewer");
  }, 180_000);
  afterAll(async () => api?.close());

  it("counts the file's lines, size and levels, and reads its first and last timestamps", async () => {
    const { status, body } = await get(`/nodes/${peer.id}/logs/stats`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["data", "success"]);
    expect(body.success).toBe(true);
    const s = statSync(file);
    expect(body.data).toMatchObject({ size_bytes: s.size, total_lines: lines.length, modified: s.mtime.toISOString() });
    expect(lines.length).toBeGreaterThan(20);
    // The console runs peers with the format "2025-06-01 10:20:30.123 UTC INFO [peer] ..." (levels cut to four letters).
    // eslint-disable-next-line no-control-regex
    const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
    const infos = plain.filter((l) => /^\S+ \S+ UTC INFO /.test(l)).length;
    expect(infos).toBeGreaterThan(0);
    expect(body.data.level_counts.INFO).toBe(infos);
    const stamped = plain.map((l) => /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC)/.exec(l)?.[1]).filter(Boolean);
    expect(body.data.first_timestamp).toBe(stamped[0]);
    expect(body.data.last_timestamp).toBe(stamped.at(-1));
  });

  it("tails the last lines with their numbers in the file, as upstream's envelope", async () => {
    const { status, body, truncated } = await get(`/nodes/${peer.id}/logs/tail?lines=5`);
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: numbered(lines.length - 4, lines.length) });
    expect(truncated).toBeUndefined();
    const more = await get(`/nodes/${peer.id}/logs/tail?lines=10000`);
    expect(more.body.data).toEqual(numbered(1, lines.length));
  });

  it("reads a range, and an empty one past the end", async () => {
    expect((await get(`/nodes/${peer.id}/logs/range?start=2&end=4`)).body).toEqual({
      success: true,
      data: { start_line: 2, end_line: 4, entries: numbered(2, 4) },
    });
    const past = await get(`/nodes/${peer.id}/logs/range?start=${lines.length + 1}&end=${lines.length + 3}`);
    expect(past.body.data).toEqual({ start_line: lines.length + 1, end_line: lines.length + 3, entries: [] });
  });

  it("filters by an RE2 pattern, regardless of case when asked, within start..end", async () => {
    const expected = (re: RegExp, from = 1, to = lines.length) => numbered(from, to).filter((e) => re.test(e.content));
    const info = await get(`/nodes/${peer.id}/logs/filter?pattern=${encodeURIComponent("INFO \\[[a-z]+\\]")}`);
    expect(info.body.data).toEqual(expected(/INFO \[[a-z]+\]/));
    expect(info.body.data.length).toBeGreaterThan(0);
    const lower = await get(`/nodes/${peer.id}/logs/filter?pattern=peer&ignoreCase=true&start=3&end=12`);
    expect(lower.body.data).toEqual(expected(/peer/i, 3, 12));
    // Go's inline flag syntax, which JavaScript's RegExp does not read.
    const inline = await get(`/nodes/${peer.id}/logs/filter?pattern=${encodeURIComponent("(?i)PEER")}`);
    expect(inline.body.data).toEqual(expected(/peer/i));
    expect((await get(`/nodes/${peer.id}/logs/filter?start=2&end=3`)).body.data).toEqual(numbered(2, 3));
  });

  it("matches in linear time and cuts a long line in the answer, saying so in a header", async () => {
    // A line that makes a backtracking engine run for ages on ^(a+)+$; RE2 does not backtrack.
    appendFileSync(file, `${"a".repeat(40_000)}!\n${"b".repeat(20_000)}\n`);
    const started = Date.now();
    const evil = await get(`/nodes/${peer.id}/logs/filter?pattern=${encodeURIComponent("^(a+)+$")}`);
    expect(evil.status).toBe(200);
    expect(evil.body.data).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    const long = await get(`/nodes/${peer.id}/logs/range?start=${lines.length + 2}&end=${lines.length + 2}`);
    expect(long.body.data.entries).toEqual([{ line_number: lines.length + 2, content: "b".repeat(16 * 1024) }]);
    expect(long.truncated).toBe("true");
  });

  it("answers bad input with a 400 naming the field, in upstream's failure envelope", async () => {
    const cases: Array<[string, RegExp]> = [
      ["tail?lines=0", /^querystring\.lines/],
      ["tail?lines=10001", /^querystring\.lines/],
      ["tail", /^querystring\.lines/],
      ["range?start=5&end=4", /^querystring\.end: must be at least start/],
      ["range?start=1&end=10001", /^querystring\.end: at most 10000 lines/],
      ["range?start=0&end=3", /^querystring\.start/],
      ["filter?start=9&end=3", /^querystring\.end/],
      [`filter?pattern=${"x".repeat(513)}`, /^querystring\.pattern/],
      ["filter?pattern=(", /^pattern: not a valid RE2 expression/],
      [`filter?pattern=${encodeURIComponent("(a)\\1")}`, /^pattern: not a valid RE2 expression/],
      [`filter?pattern=${encodeURIComponent("(x{1000}){1000}")}`, /^pattern: /],
      // No request names a file: the node's deployment does.
      [`tail?lines=1&path=${encodeURIComponent("/etc/passwd")}`, /^querystring/],
    ];
    for (const [q, message] of cases) {
      const { status, body } = await get(`/nodes/${peer.id}/logs/${q}`);
      expect(status, q).toBe(400);
      expect(body.success, q).toBe(false);
      expect(body.message, q).toMatch(message);
    }
  });

  it("answers 404 for an unknown node and for a node that never ran", async () => {
    const unknown = await get("/nodes/999999/logs/stats");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: "NOT_FOUND" });
    const d = await api.ok("GET", "/nodes/defaults/fabric?peerCount=1&ordererCount=0");
    const org = await api.ok("POST", "/organizations", { mspId: `Never${dialect}MSP`, name: `never-${dialect}` });
    const idle = await api.ok("POST", "/nodes?start=false", fabricNodeSpec(org, "peer", d.peers[0], "never-ran"));
    const res = await get(`/nodes/${idle.id}/logs/tail?lines=3`);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/log/);
  });

  it("lets a viewer read, and no one without credentials", async () => {
    for (const op of ["tail?lines=1", "range?start=1&end=1", "filter?pattern=a", "stats"]) {
      expect((await get(`/nodes/${peer.id}/logs/${op}`, viewer)).status, op).toBe(200);
      const anon = await get(`/nodes/${peer.id}/logs/${op}`, {});
      expect(anon.status, op).toBe(401);
      expect(anon.body.success, op).toBe(false);
    }
  });
});
