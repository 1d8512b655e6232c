import type { ReadinessProbe } from "./health.js";
import type { RestartPolicy } from "./backoff.js";
import type { LogRotation } from "./log-files.js";

export type { RestartPolicy } from "./backoff.js";

/** PENDING → STARTING → RUNNING / ERROR, and STOPPING → STOPPED. */
export type ProcessStatus = "PENDING" | "STARTING" | "RUNNING" | "ERROR" | "STOPPING" | "STOPPED";

/** A host folder seen inside a container. */
export interface ContainerBind {
  source: string;
  target: string;
  readOnly: boolean;
}

/** A container port published on the host. */
export interface PublishedPort {
  /** Host address to bind, e.g. 127.0.0.1. */
  hostIp: string;
  hostPort: number;
  containerPort: number;
}

/**
 * How to run one node as a container (mode "docker"). `command` and `args` of the ProcessSpec are
 * ignored then: the image's entrypoint runs with `cmd`.
 */
export interface ContainerSpec {
  image: string;
  cmd?: string[];
  entrypoint?: string[];
  env: Record<string, string>;
  binds: ContainerBind[];
  ports: PublishedPort[];
  /**
   * User-defined network to join (made when missing): containers on it reach each other by name.
   * "host": the host's own network (ports are the host's; nothing to publish).
   */
  network: string;
  /** Names other containers on the network reach this one by. */
  aliases: string[];
  /** uid:gid to run as. Default: the console's own, so files it writes stay the console's. */
  user?: string;
  workingDir?: string;
  /** Extra labels (the runtime adds its own). */
  labels?: Record<string, string>;
  /** The Docker engine to run on: "local" (default) or the name of a registered engine. */
  engine?: string;
}

/** How to run one node. The supervisor never goes through a shell. */
export interface ProcessSpec {
  /** Node id; also names its pid file, so [A-Za-z0-9._-] only. */
  id: string;
  /** Absolute path of the binary. */
  command: string;
  args: string[];
  /** The complete environment of the child. Default: only PATH, HOME, TMPDIR, LANG and TZ of the console. */
  env?: Record<string, string>;
  cwd: string;
  /**
   * No other process runs `command` in `cwd` (a node's own folder): a stop then also ends any such
   * process the supervisor lost track of, so a stopped node has no process left.
   */
  ownsCwd?: boolean;
  /** stdout and stderr both go here (O_APPEND). Default `<stateDir>/logs/<id>.log`. */
  logFile?: string;
  /** Ready check, e.g. {@link httpHealthProbe} on the operations /healthz. Without one, alive = ready. */
  probe?: ReadinessProbe;
  startTimeoutMs?: number;
  /** Run as a container on a Docker engine instead of a child process. */
  container?: ContainerSpec;
}

export interface ProcessState {
  id: string;
  status: ProcessStatus;
  pid?: number;
  errorMessage?: string;
  /** Consecutive crashes since the process last stayed up. */
  restarts: number;
  startedAt?: string;
  logFile: string;
  /** True when this supervisor found the process running (after a console restart) rather than spawning it. */
  adopted: boolean;
  /** Set for a node running as a container. */
  container?: { id: string; name: string; image: string; engine: string };
}

export type SupervisorEvent =
  | { type: "status"; id: string; status: ProcessStatus; previous: ProcessStatus; pid?: number; errorMessage?: string }
  | {
      type: "crash";
      id: string;
      pid: number;
      /** Null for adopted processes: only the parent learns the exit status. */
      exitCode: number | null;
      signal: string | null;
      lastLogLines: string[];
      /** Crashes in a row, this one included: 1 for the first, maxAttempts + 1 for the one that gives up. */
      attempt: number;
      willRestart: boolean;
      restartInMs?: number;
    }
  | { type: "adopted"; id: string; pid: number }
  | { type: "spawned"; id: string; pid: number; containerId?: string }
  | { type: "log-rotated"; id: string; logFile: string };

export interface SupervisorOptions {
  /** Holds `pids/<id>.json` and, by default, `logs/<id>.log`. */
  stateDir: string;
  onEvent?: (event: SupervisorEvent) => void;
  /** SIGTERM, then SIGKILL after this long. Default 10 s. */
  stopTimeoutMs?: number;
  /** Default readiness deadline. Default 60 s. */
  startTimeoutMs?: number;
  /** How often adopted processes are checked in /proc. Default 1 s. */
  pollIntervalMs?: number;
  /** Cap of the readiness-probe backoff (first check after 25 ms, doubling). Default 500 ms. */
  probeIntervalMs?: number;
  /** Without a probe, a process alive this long counts as ready. Default 300 ms. */
  minUptimeMs?: number;
  restart?: Partial<RestartPolicy>;
  logRotation?: LogRotation & { checkIntervalMs?: number };
  /** Lines of log attached to crash events and ERROR messages. Default 20. */
  logLinesOnError?: number;
}

export interface Supervisor {
  /** Starts the node, or adopts it when its pid file names a live, verified process: never a duplicate. */
  start(spec: ProcessSpec): Promise<ProcessState>;
  /**
   * SIGTERM to the process group, SIGKILL after the timeout; removes the pid file. Only for nodes this
   * supervisor knows: after a console restart, adopt() every node first.
   */
  stop(id: string, opts?: { timeoutMs?: number }): Promise<ProcessState>;
  restart(spec: ProcessSpec): Promise<ProcessState>;
  /** Re-attaches to a node left running by an earlier console. `adopted: false` when its pid file is stale or missing. */
  adopt(spec: ProcessSpec): Promise<ProcessState>;
  get(id: string): ProcessState | undefined;
  list(): ProcessState[];
  tailLog(id: string, lines: number): Promise<string[]>;
  /** Forgets a stopped node (e.g. after delete). */
  remove(id: string): void;
  /** Detaches from every node without stopping it (console shutdown). */
  close(): void;
}
