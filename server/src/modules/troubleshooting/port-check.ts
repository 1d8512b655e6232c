import { connect } from "node:net";

/** Upstream's PortCheckResponse, less host and port. */
export interface PortOutcome {
  /** A TCP connection was accepted. */
  open: boolean;
  /** The host answered at all (accepted, or refused the port). */
  reachable: boolean;
  error?: string;
}

/** Our words for a connect failure (the OS's code chooses them; nothing the remote sent is repeated). */
function failure(code: string | undefined, timeoutS: number): PortOutcome {
  switch (code) {
    case "ECONNREFUSED":
      return {
        open: false,
        reachable: true,
        error: "connection refused: the host answered but nothing listens on the port",
      };
    case "ETIMEDOUT":
      return { open: false, reachable: false, error: `no answer within ${timeoutS} s` };
    case "EHOSTUNREACH":
      return { open: false, reachable: false, error: "host unreachable" };
    case "ENETUNREACH":
      return { open: false, reachable: false, error: "network unreachable from this host" };
    case "ECONNRESET":
      return { open: false, reachable: true, error: "connection reset by the host" };
    default:
      return { open: false, reachable: false, error: `connection failed (${code ?? "unknown error"})` };
  }
}

/**
 * Opens a TCP connection to an address already resolved and checked, and closes it at once: no
 * byte is sent or read, so the answer is open, refused or silent and nothing more.
 */
export function checkTcpPort(opts: { address: string; port: number; timeoutS: number }): Promise<PortOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: opts.address, port: opts.port });
    const done = (outcome: PortOutcome): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done(failure("ETIMEDOUT", opts.timeoutS)), opts.timeoutS * 1000);
    socket.once("connect", () => done({ open: true, reachable: true }));
    socket.once("error", (err: NodeJS.ErrnoException) => done(failure(err.code, opts.timeoutS)));
  });
}
