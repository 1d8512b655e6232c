import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltins } from "../test-support/builtins.js";
import { freePort } from "../test-support/ports.js";
import { selfSignedCert } from "../test-support/notify-receivers.js";
import { decodeResult } from "./rest-gateway/peer.js";
import { parseCallRequest } from "./rest-gateway/requests.js";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A response body as JSON (fetch types it unknown). */
const json = (res: Response): Promise<Json> => res.json() as Promise<Json>;

let dir: string;
let script: string;
let files: { cert: string; key: string; otherKey: string; p384Key: string; badKey: string; ca: string };
/** A marker inside the unparsable key file; no message may repeat it. */
const KEY_MARKER = "c2VjcmV0LWtleS1ieXRlcy1uZXZlci1wcmludGVk";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rest-gateway-"));
  script = join(await buildBuiltins(join(dir, "builtins")), "fabric-rest-gateway.js");
  const { key, cert } = selfSignedCert();
  const pem = (k: ReturnType<typeof generateKeyPairSync>["privateKey"]): string =>
    k.export({ type: "pkcs8", format: "pem" }).toString();
  const write = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text, { mode: 0o600 });
    return join(dir, name);
  };
  files = {
    cert: write("cert.pem", cert),
    key: write("key.pem", key),
    ca: write("ca.pem", cert),
    otherKey: write("other.pem", pem(generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey)),
    p384Key: write("p384.pem", pem(generateKeyPairSync("ec", { namedCurve: "secp384r1" }).privateKey)),
    badKey: write("bad.pem", `-----BEGIN PRIVATE KEY-----\n${KEY_MARKER}\n-----END PRIVATE KEY-----\n`),
  };
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(args: string[]): Run {
  const proc = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout?.on("data", (b: Buffer) => (out += b.toString()));
  proc.stderr?.on("data", (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

function flags(over: Record<string, string | undefined> = {}): string[] {
  const all: Record<string, string | undefined> = {
    listen: "127.0.0.1:0",
    peer: "127.0.0.1:1",
    "peer-tls-ca": files.ca,
    "msp-id": "Org1MSP",
    cert: files.cert,
    key: files.key,
    channel: "mychannel",
    ...over,
  };
  return Object.entries(all).flatMap(([k, v]) => (v === undefined ? [] : [`--${k}=${v}`]));
}

describe("fabric-rest-gateway flags", () => {
  const failsWith = async (args: string[], flag: string): Promise<string> => {
    const r = run(args);
    expect(await r.exited).toBe(2);
    const lines = r.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(flag);
    expect(r.stderr()).not.toMatch(/BEGIN|PRIVATE KEY|c2VjcmV0/);
    expect(r.stdout()).toBe("");
    return lines[0] ?? "";
  };

  it("names every missing flag on one line and exits 2", async () => {
    const line = await failsWith([], "--listen: required");
    for (const f of ["--peer", "--peer-tls-ca", "--msp-id", "--cert", "--key", "--channel"]) {
      expect(line).toContain(`${f}: required`);
    }
  });

  it("names malformed values, unknown flags and flags without a value", async () => {
    await failsWith(flags({ listen: "localhost" }), "--listen: must be HOST:PORT");
    await failsWith(flags({ peer: "127.0.0.1:0" }), "--peer: port 0 is out of range");
    await failsWith([...flags(), "--bogus=1"], "--bogus: unknown flag");
    await failsWith([...flags({ channel: undefined }), "--channel"], "--channel: needs a value");
  });

  it("names unreadable and unusable files without printing the key", async () => {
    await failsWith(flags({ key: join(dir, "missing.pem") }), "--key: cannot read");
    await failsWith(flags({ cert: files.key }), "--cert:");
    await failsWith(flags({ "peer-tls-ca": join(dir, "nope.pem") }), "--peer-tls-ca: cannot read");
    await failsWith(flags({ key: files.badKey }), "--key:");
    await failsWith(flags({ key: files.p384Key }), "--key:");
    expect(await failsWith(flags({ key: files.otherKey }), "--key:")).toContain("does not match --cert");
  });
});

describe("fabric-rest-gateway with an unreachable peer", () => {
  let gw: Run;
  let base: string;
  const post = (path: string, body: unknown, type = "application/json"): Promise<Response> =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": type },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    const port = await freePort(); // nothing listens on it
    // Both flag forms: "--flag=value" and "--flag value".
    const args = flags({ peer: undefined, "msp-id": undefined });
    gw = run([...args, "--peer", `127.0.0.1:${port}`, "--msp-id", "Org1MSP", "--peer-host-override=peer0.org1"]);
    const deadline = Date.now() + 15_000;
    while (!/listening on/.test(gw.stdout()) && Date.now() < deadline) {
      if (gw.proc.exitCode !== null) throw new Error(`gateway exited: ${gw.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const m =
      /^fabric-rest-gateway listening on (127\.0\.0\.1:\d+) \(channel mychannel, MSP Org1MSP, peer 127\.0\.0\.1:\d+\)$/m.exec(
        gw.stdout(),
      );
    if (!m) throw new Error(`no start-up line: ${gw.stdout()} ${gw.stderr()}`);
    base = `http://${m[1]}`;
  });

  afterAll(() => {
    if (gw.proc.exitCode === null) gw.proc.kill("SIGKILL");
  });

  it("answers /healthz although the peer is down", async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "ok", channel: "mychannel", mspId: "Org1MSP" });
  });

  it("names the field of an invalid body", async () => {
    let res = await post("/query", {});
    expect(res.status).toBe(400);
    let body = await json(res);
    expect(body.error).toBe("INVALID_INPUT");
    expect(body.message).toContain("chaincode: required");
    expect(body.details.errors).toContainEqual({ path: "chaincode", message: "required" });

    res = await post("/query", { chaincode: "basic", function: "ReadAsset", args: [1] });
    expect(res.status).toBe(400);
    body = await json(res);
    expect(body.message).toBe("args[0]: must be a string");

    res = await post("/invoke", { chaincode: "basic", function: "F", transient: { k: 5 } });
    expect((await json(res)).message).toBe("transient.k: must be a string");

    res = await post("/query", "{not json");
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe("INVALID_INPUT");
  });

  it("answers wrong methods, unknown paths, big bodies and other media types", async () => {
    let res = await fetch(`${base}/invoke`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await json(res)).error).toBe("METHOD_NOT_ALLOWED");

    res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
    expect((await json(res)).error).toBe("NOT_FOUND");

    res = await post("/invoke", JSON.stringify({ chaincode: "x", function: "y", args: ["a".repeat(2 * 1024 * 1024)] }));
    expect(res.status).toBe(413);
    expect((await json(res)).error).toBe("PAYLOAD_TOO_LARGE");

    res = await post("/query", "chaincode=basic", "text/plain");
    expect(res.status).toBe(415);
  });

  it("reports an unreachable peer as 502 PEER_ERROR, promptly", async () => {
    const started = Date.now();
    const res = await post("/query", { chaincode: "basic", function: "ReadAsset", args: ["SECRET-ARG-7"] });
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body).toMatchObject({ error: "PEER_ERROR", details: { stage: "evaluate", grpcStatus: "UNAVAILABLE" } });
    expect(body.message).toMatch(/ECONNREFUSED|No connection/);
    expect(Date.now() - started).toBeLessThan(10_000);

    const inv = await post("/invoke", {
      chaincode: "basic",
      function: "CreateAsset",
      args: ["SECRET-ARG-8"],
      transient: { secret: "SECRET-TRANSIENT-9" },
      endorsingOrganizations: ["Org1MSP"],
    });
    expect(inv.status).toBe(502);
    expect((await json(inv)).details).toMatchObject({ stage: "endorse", transactionId: expect.any(String) });
  });

  it("logs one line per request, without arguments or transient data", async () => {
    // The line is written when the response closes, which may be just after the client has read it.
    const logged = (): Record<string, unknown>[] =>
      gw
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const deadline = Date.now() + 5_000;
    while (logged().length < 11 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const lines = logged();
    expect(lines).toHaveLength(11);
    expect(lines).toContainEqual(
      expect.objectContaining({
        method: "POST",
        path: "/invoke",
        chaincode: "basic",
        function: "CreateAsset",
        status: 502,
      }),
    );
    expect(lines.every((l) => typeof l.ms === "number")).toBe(true);
    expect(gw.stdout()).not.toMatch(/SECRET-|BEGIN|PRIVATE/);
  });

  it("counts requests by route and status in /metrics", async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('fabric_rest_gateway_requests_total{route="/healthz",status="200"} 1');
    expect(text).toContain('fabric_rest_gateway_requests_total{route="/query",status="400"} 3');
    expect(text).toContain('fabric_rest_gateway_requests_total{route="/query",status="502"} 1');
    expect(text).toContain('fabric_rest_gateway_requests_total{route="other",status="404"} 1');
    expect(text).toContain('fabric_rest_gateway_requests_total{route="/invoke",status="413"} 1');
    expect(text).toMatch(/fabric_rest_gateway_request_duration_seconds_count\{route="\/query"\} 5/);
    expect(text).toContain("# TYPE fabric_rest_gateway_request_duration_seconds histogram");
  });

  it("stops on SIGTERM with exit code 0", async () => {
    gw.proc.kill("SIGTERM");
    expect(await gw.exited).toBe(0);
    expect(gw.stdout()).toContain("fabric-rest-gateway stopping (SIGTERM)");
  });
});

describe("fabric-rest-gateway pieces", () => {
  it("decodes results as JSON, else text, else base64", () => {
    expect(decodeResult(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(decodeResult(Buffer.from("plain"))).toBe("plain");
    expect(decodeResult(new Uint8Array([0xff, 0xfe, 0x00]))).toBe("//4A");
    expect(decodeResult(new Uint8Array())).toBe("");
  });

  it("rejects unknown fields and options that only /invoke takes", () => {
    expect(parseCallRequest({ chaincode: "c", function: "f", fn: "x" }, "invoke")).toEqual([
      { path: "fn", message: expect.stringContaining("unknown field") },
    ]);
    expect(parseCallRequest({ chaincode: "c", function: "f", transient: {} }, "query")).toEqual([
      { path: "transient", message: expect.stringContaining("unknown field") },
    ]);
    expect(parseCallRequest({ chaincode: "c", function: "f" }, "query")).toEqual({
      chaincode: "c",
      function: "f",
      args: [],
    });
    expect(parseCallRequest([], "query")).toEqual([{ path: "body", message: "must be a JSON object" }]);
  });
});
