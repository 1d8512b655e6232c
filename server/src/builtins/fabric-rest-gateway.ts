/**
 * fabric-rest-gateway: a small HTTP service that calls chaincode on one channel through one peer's
 * Gateway service, signing as one identity. The console ships it as a built-in program and runs
 * it as a process plugin (docs/plugins.md). It is self-contained on purpose: it imports Node
 * built-ins, @hyperledger/fabric-gateway and @grpc/grpc-js only, so that it bundles into one file.
 *
 *   node fabric-rest-gateway.js --listen=HOST:PORT --peer=HOST:PORT --peer-tls-ca=PATH
 *     [--peer-host-override=NAME] --msp-id=ID --cert=PATH --key=PATH --channel=NAME
 *
 * Exit codes: 0 after SIGTERM/SIGINT, 1 when it cannot listen, 2 for a missing or invalid flag.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { FlagError, USAGE, formatHostPort, loadConfig, type GatewayConfig } from "./rest-gateway/flags.js";
import { createRequestListener, declaresTooLarge } from "./rest-gateway/http.js";
import { createMetrics } from "./rest-gateway/metrics.js";
import { connectPeer } from "./rest-gateway/peer.js";

const NAME = "fabric-rest-gateway";
/** How long in-flight calls may finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const err = (line: string): void => void process.stderr.write(`${NAME}: ${line}\n`);

function readConfig(argv: string[]): GatewayConfig {
  if (argv.includes("--help") || argv.includes("-h")) {
    out(USAGE);
    process.exit(0);
  }
  try {
    return loadConfig(argv);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    err(e.message);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2));
  const metrics = createMetrics();
  const peer = connectPeer(config);
  const peerAddress = formatHostPort(config.peer);

  const listener = createRequestListener(
    {
      healthz: () => ({
        status: "ok",
        channel: config.channel,
        mspId: config.mspId,
        peer: peerAddress,
        peerConnection: peer.state(),
      }),
      metricsText: () => metrics.render(),
      invoke: (call) => peer.submit(call),
      query: (call) => peer.evaluate(call),
    },
    metrics,
    { accessLog: out, errorLog: err },
  );
  const server = createServer(listener);
  // A client that sends "Expect: 100-continue" with an oversized body gets its 413 without sending
  // the body; the connection then closes, as the client may still send it.
  server.on("checkContinue", (req, res) => {
    if (declaresTooLarge(req)) res.setHeader("Connection", "close");
    else res.writeContinue();
    listener(req, res);
  });

  await new Promise<void>((resolve) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      err(`--listen: cannot listen on ${formatHostPort(config.listen)} (${e.code ?? e.message})`);
      process.exit(1);
    });
    server.listen(config.listen.port, config.listen.host, resolve);
  });
  const bound = server.address() as AddressInfo;
  out(
    `${NAME} listening on ${formatHostPort({ host: bound.address, port: bound.port })} ` +
      `(channel ${config.channel}, MSP ${config.mspId}, peer ${peerAddress})`,
  );

  let stopping = false;
  const finish = (): void => {
    peer.close();
    process.exit(0);
  };
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal (Ctrl-C twice) does not wait for in-flight calls.
    if (stopping) return finish();
    stopping = true;
    out(`${NAME} stopping (${signal})`);
    // New connections are refused at once; idle keep-alive ones close; in-flight calls get a grace.
    server.close(finish);
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      finish();
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

await main();
