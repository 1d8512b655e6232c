import { AppError } from "../../http/errors.js";
import { findExecutable, runFile } from "../../runtime/index.js";

/** Upstream's PingResponse, less the host and address (the route adds them). */
export interface PingOutcome {
  packets_sent: number;
  packets_recv: number;
  /** Percent of the packets sent that got no reply. */
  packet_loss: number;
  min_rtt_ms: number;
  avg_rtt_ms: number;
  max_rtt_ms: number;
  reachable: boolean;
  error?: string;
}

/** Seconds between echo requests: the shortest interval iputils allows without privileges. */
const INTERVAL_S = 0.2;

/** The system `ping` (iputils-ping): CHAINLAUNCH_PING_BIN, else `ping` on PATH; 503 PING_MISSING without one. */
export function resolvePing(env: NodeJS.ProcessEnv = process.env): string {
  const found = findExecutable("ping", { envVar: "CHAINLAUNCH_PING_BIN", value: env.CHAINLAUNCH_PING_BIN }, env.PATH);
  if ("problem" in found) {
    throw new AppError(
      `ping was not found (${found.problem}); install it (Debian: apt-get install iputils-ping) or set CHAINLAUNCH_PING_BIN`,
      503,
      "PING_MISSING",
    );
  }
  return found.path;
}

/** Why a ping failed, in our words: ping's own output (and any ICMP error's source) is never passed on. */
function failure(code: number | undefined, stdout: string, stderr: string, timeoutS: number): string {
  if (/\+\d+ errors?/.test(stdout)) return "destination unreachable (an ICMP error came back instead of a reply)";
  if (code === 1) return `no reply within ${timeoutS} s`;
  if (/network is unreachable/i.test(stderr)) return "network unreachable from this host";
  if (/operation not permitted|permission denied/i.test(stderr)) return "this host does not allow ICMP echo requests";
  return `ping failed (exit code ${code ?? "none"})`;
}

/**
 * Sends `count` ICMP echo requests to an address already resolved and checked (never a name: the
 * address pinged is the one checked). The argument vector is fixed and the address is an IP literal
 * after `--`, so nothing the caller typed reaches ping as an option; no shell is involved. Counts and
 * round-trip times are read from ping's summary lines (C locale).
 */
export async function pingAddress(opts: {
  address: string;
  family: 4 | 6;
  count: number;
  timeoutS: number;
  binary?: string;
}): Promise<PingOutcome> {
  const binary = opts.binary ?? resolvePing();
  const deadline = Math.ceil(opts.count * INTERVAL_S + opts.timeoutS);
  const args = [
    `-${opts.family}`,
    "-n",
    "-c",
    String(opts.count),
    "-i",
    String(INTERVAL_S),
    "-W",
    String(opts.timeoutS),
    "-w",
    String(deadline),
    "--",
    opts.address,
  ];
  let stdout = "";
  let stderr = "";
  let code: number | undefined = 0;
  try {
    ({ stdout, stderr } = await runFile(binary, args, {
      timeoutMs: (deadline + 2) * 1000,
      env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" },
    }));
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    stdout = e.stdout ?? "";
    stderr = e.stderr ?? "";
    code = typeof e.code === "number" ? e.code : undefined;
  }
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(stdout);
  const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\//.exec(stdout);
  const sent = counts ? Number(counts[1]) : 0;
  const recv = counts ? Number(counts[2]) : 0;
  const ms = (s: string | undefined): number => (s ? Math.round(Number(s)) : 0);
  const outcome: PingOutcome = {
    packets_sent: sent,
    packets_recv: recv,
    packet_loss: sent ? Math.round(((sent - recv) / sent) * 10_000) / 100 : 100,
    min_rtt_ms: ms(rtt?.[1]),
    avg_rtt_ms: ms(rtt?.[2]),
    max_rtt_ms: ms(rtt?.[3]),
    reachable: recv > 0,
  };
  if (recv === 0) outcome.error = failure(code, stdout, stderr, opts.timeoutS);
  return outcome;
}
