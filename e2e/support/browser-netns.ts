import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Chromium in a network namespace of its own.
 *
 * Chromium aborts every request in flight with net::ERR_NETWORK_CHANGED when any interface of its
 * network namespace gains or loses an address, and Docker does that each time it creates a bridge
 * or a container's veth. The server tier's Docker tests (and the Docker specs) do so all the time,
 * so pages beside them failed to load at random. Here Chromium runs under `unshare -n`, where only
 * its own loopback exists and nothing changes. It reaches the host through a SOCKS5 proxy:
 *
 *   Chromium --socks5--> 127.0.0.1:1080 (inside its namespace, a small node forwarder)
 *            --unix socket (a file both namespaces see)--> the SOCKS5 server here, in the host's
 *            namespace, which dials the requested address.
 *
 * Where `unshare -n` is not allowed (not root), Chromium runs as before and this says why once.
 */
export interface BrowserNetns {
  /** The program Playwright starts instead of Chromium. */
  executablePath: string;
  /** Flags that send all traffic, loopback included, through the forwarder. */
  args: string[];
}

let prepared: BrowserNetns | null | undefined;

export function browserNetns(chromiumPath: string): BrowserNetns | null {
  if (prepared !== undefined) return prepared;
  if (process.env.CHAINLAUNCH_E2E_BROWSER_NETNS === "0") return (prepared = null);
  try {
    execFileSync("unshare", ["-n", "true"], { stdio: "ignore" });
  } catch {
    console.warn("e2e: Chromium shares the host's network (unshare -n is not allowed here)");
    return (prepared = null);
  }
  const dir = mkdtempSync(join(tmpdir(), "chainlaunch-browser-netns-"));
  const socketPath = join(dir, "socks.sock");
  const server = socksServer();
  server.listen(socketPath);
  server.unref();
  const forwarder = join(dir, "forwarder.cjs");
  writeFileSync(forwarder, FORWARDER);
  const wrapper = join(dir, "chromium");
  // fd 3 and 4 are Playwright's pipe to Chromium: the forwarder must not hold them open.
  writeFileSync(
    wrapper,
    [
      "#!/bin/sh",
      "exec unshare -n sh -c 'ip link set lo up || exit 1",
      `ready="$(mktemp -u)"`,
      `"${process.execPath}" "${forwarder}" "${socketPath}" "$ready" $$ 3>&- 4>&- </dev/null >/dev/null 2>&1 &`,
      'i=0; while [ ! -e "$ready" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done; rm -f "$ready"',
      `exec "$0" "$@"' "${chromiumPath}" "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(wrapper, 0o755);
  return (prepared = {
    executablePath: wrapper,
    args: ["--proxy-server=socks5://127.0.0.1:1080", "--proxy-bypass-list=<-loopback>"],
  });
}

/** The in-namespace half: 127.0.0.1:1080 piped to the unix socket; exits when Chromium does. */
const FORWARDER = `
const net = require("node:net");
const fs = require("node:fs");
const [socketPath, readyFile, parent] = process.argv.slice(2);
const server = net.createServer((c) => {
  const up = net.connect(socketPath);
  c.on("error", () => up.destroy());
  up.on("error", () => c.destroy());
  c.pipe(up).pipe(c);
});
server.listen(1080, "127.0.0.1", () => fs.writeFileSync(readyFile, ""));
setInterval(() => {
  try { process.kill(Number(parent), 0); } catch { process.exit(0); }
}, 1000);
`;

/** A SOCKS5 server (no auth, CONNECT only) that dials from the host's network namespace. */
function socksServer(): Server {
  return createServer((client) => {
    client.on("error", () => client.destroy());
    let buf = Buffer.alloc(0);
    let stage: "greeting" | "request" = "greeting";
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === "greeting") {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        buf = buf.subarray(2 + buf[1]!);
        client.write(Buffer.from([5, 0]));
        stage = "request";
      }
      const target = parseRequest(buf);
      if (!target) return;
      client.off("data", onData);
      const rest = buf.subarray(target.length);
      const up: Socket = connect(target.port, target.host, () => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
        if (rest.length) up.write(rest);
        client.pipe(up).pipe(client);
      });
      up.on("error", () => {
        if (!client.destroyed) client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]));
      });
    };
    client.on("data", onData);
  });
}

/** VER CMD RSV ATYP ADDR PORT; undefined until all of it has arrived. */
function parseRequest(b: Buffer): { host: string; port: number; length: number } | undefined {
  if (b.length < 5) return undefined;
  const atyp = b[3];
  let host: string;
  let at: number;
  if (atyp === 1) {
    if (b.length < 10) return undefined;
    host = [...b.subarray(4, 8)].join(".");
    at = 8;
  } else if (atyp === 3) {
    const n = b[4]!;
    if (b.length < 5 + n + 2) return undefined;
    host = b.subarray(5, 5 + n).toString("latin1");
    at = 5 + n;
  } else if (atyp === 4) {
    if (b.length < 22) return undefined;
    const parts: string[] = [];
    for (let i = 4; i < 20; i += 2) parts.push(b.readUInt16BE(i).toString(16));
    host = parts.join(":");
    at = 20;
  } else {
    return undefined;
  }
  return { host, port: b.readUInt16BE(at), length: at + 2 };
}
