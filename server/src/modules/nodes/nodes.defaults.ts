import { ConflictError } from "../../http/errors.js";
import { networkInterfaces } from "node:os";
import { z } from "zod";
import { lazySchema } from "../../http/schema-helpers.js";
import { proposeFabricNodePorts, proposeFreePorts, searchRange, type PortRange } from "../../runtime/index.js";
import type { SettingConfig } from "../settings/settings.schema.js";
import type { SettingsService } from "../settings/settings.service.js";
import type { NodesRepo } from "./nodes.repo.js";
import { portOwners } from "./nodes.validation.js";

const mode = lazySchema(() => z.enum(["service", "docker"]).describe("Deployment mode"));
export const nodeDefaults = lazySchema(() =>
  z
    .object({
      listenAddress: z.string().describe("gRPC listen address"),
      externalEndpoint: z.string().describe("External endpoint"),
      operationsListenAddress: z.string().describe("Operations listen address"),
      chaincodeAddress: z.string().describe("Chaincode listen address (peers)"),
      adminAddress: z.string().describe("Admin listen address (orderers)"),
      eventsAddress: z.string().describe("Always empty: Fabric 2+ has no event hub"),
      mode: mode,
      serviceName: z.string().describe("Unused (no systemd)"),
      containerName: z.string().describe("Empty: the console names a container node chainlaunch-<tag>-<slug>"),
      logPath: z.string().describe("Known once the node exists"),
      errorLogPath: z.string().describe("Known once the node exists"),
    })
    .describe("Proposed addresses for a new Fabric node"),
);
export const fabricDefaults = lazySchema(() =>
  z
    .object({
      peers: z.array(nodeDefaults).describe("One proposal per peer"),
      orderers: z.array(nodeDefaults).describe("One proposal per orderer"),
      availableAddresses: z.array(z.string()).describe("Local addresses a node can bind or advertise"),
    })
    .describe("Proposals for several Fabric nodes at once"),
);
export const fabricDefaultsQuery = lazySchema(() =>
  z
    .object({
      peerCount: z.coerce.number().int().min(0).max(50).default(1).describe("Number of peers"),
      ordererCount: z.coerce.number().int().min(0).max(50).default(1).describe("Number of orderers"),
      mode: mode.optional(),
    })
    .strict(),
);
export const besuDefaults = lazySchema(() =>
  z
    .object({
      nodeCount: z.number().int().describe("Number of proposals"),
      defaults: z.array(
        z.object({
          p2pHost: z.string().describe("P2P interface"),
          p2pPort: z.number().int().describe("P2P port"),
          rpcHost: z.string().describe("RPC host"),
          rpcPort: z.number().int().describe("RPC port"),
          metricsEnabled: z.boolean().describe("Metrics on"),
          metricsHost: z.string().describe("Metrics host"),
          metricsPort: z.number().int().describe("Metrics port"),
          metricsProtocol: z.string().describe("Metrics protocol"),
          externalIp: z.string().describe("Advertised IP"),
          internalIp: z.string().describe("Internal IP"),
          minGasPrice: z.number().describe("Minimum gas price"),
          hostAllowList: z.string().describe("Host allow-list"),
          accountsAllowList: z.array(z.string()).describe("Accounts allow-list"),
          nodesAllowList: z.array(z.string()).describe("Nodes allow-list"),
          jwtEnabled: z.boolean().describe("JWT"),
          jwtPublicKeyContent: z.string().describe("JWT key"),
          jwtAuthenticationAlgorithm: z.string().describe("JWT algorithm"),
          environmentVariables: z.record(z.string(), z.string()).describe("Extra environment"),
          mode: mode,
        }),
      ),
    })
    .describe("Proposals for Besu nodes"),
);
export const besuDefaultsQuery = lazySchema(() =>
  z.object({ besuNodes: z.coerce.number().int().min(1).max(50).default(1).describe("Number of Besu nodes") }).strict(),
);

type Defaults = z.infer<typeof nodeDefaults>;

/** Where the settings place new nodes: the host their endpoints name, and the range their ports come from. */
export function nodePlacement(settings: SettingConfig): { host: string; range: PortRange } {
  return {
    host: settings.defaultNodeExposeIP || "127.0.0.1",
    range: { from: settings.portRangeStart, to: settings.portRangeEnd },
  };
}

/** The host's first non-loopback IPv4 address: what containers and processes on it both reach. */
export function hostLanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
}

/** Proposes free ports for new nodes, skipping ports of existing nodes and ports the OS reports busy. */
export function createNodeDefaults(deps: { repo: Pick<NodesRepo, "all">; settings: Pick<SettingsService, "get"> }) {
  async function context() {
    const settings = (await deps.settings.get()).config;
    const reserved = new Set(portOwners(await deps.repo.all()).keys());
    return { ...nodePlacement(settings), reserved, settings };
  }
  async function fabric(
    kind: "peer" | "orderer",
    host: string,
    reserved: Set<number>,
    range: PortRange,
    runMode: "service" | "docker" = "service",
  ): Promise<Defaults> {
    const p = await proposeFabricNodePorts(kind, { reserved, range });
    for (const port of [p.listen, p.chaincode, p.admin, p.operations]) if (port) reserved.add(port);
    return {
      listenAddress: `0.0.0.0:${p.listen}`,
      externalEndpoint: `${host}:${p.listen}`,
      operationsListenAddress: `0.0.0.0:${p.operations}`,
      chaincodeAddress: p.chaincode ? `0.0.0.0:${p.chaincode}` : "",
      adminAddress: p.admin ? `0.0.0.0:${p.admin}` : "",
      eventsAddress: "",
      mode: runMode,
      serviceName: "",
      containerName: "",
      logPath: "",
      errorLogPath: "",
    };
  }
  return {
    /**
     * A free port for another service (a chaincode server): in the settings' port range, not used by
     * any node nor in `alsoReserved`, and not busy now.
     */
    async freePort(preferred: number, alsoReserved: Iterable<number> = []): Promise<number> {
      const { reserved, range } = await context();
      for (const p of alsoReserved) reserved.add(p);
      try {
        const [port] = (await proposeFreePorts(1, { ...searchRange(preferred, range), reserved })) as [number];
        return port;
      } catch {
        // Past the preferred port the range is full: look from its start.
        const [port] = (await proposeFreePorts(1, { ...range, reserved }).catch(() => {
          throw new ConflictError(`no free port left in the port range ${range.from}-${range.to} (settings)`);
        })) as [number];
        return port;
      }
    },
    async fabricNode(kind: "peer" | "orderer"): Promise<Defaults> {
      const { host, reserved, range } = await context();
      return fabric(kind, host, reserved, range);
    },
    async fabricNodes(
      peers: number,
      orderers: number,
      runMode: "service" | "docker" = "service",
    ): Promise<z.infer<typeof fabricDefaults>> {
      const ctx = await context();
      const { reserved, range } = ctx;
      // A container's 127.0.0.1 is its own: container nodes advertise an address of the host that
      // containers and processes both reach (the settings' expose IP, else the first non-loopback one).
      const host =
        runMode === "docker" && (ctx.host === "127.0.0.1" || ctx.host === "localhost")
          ? (hostLanAddress() ?? ctx.host)
          : ctx.host;
      const out: z.infer<typeof fabricDefaults> = { peers: [], orderers: [], availableAddresses: [] };
      for (let i = 0; i < peers; i++) out.peers.push(await fabric("peer", host, reserved, range, runMode));
      for (let i = 0; i < orderers; i++) out.orderers.push(await fabric("orderer", host, reserved, range, runMode));
      const addrs = new Set(["0.0.0.0", "127.0.0.1", ...(host ? [host] : [])]);
      for (const list of Object.values(networkInterfaces()))
        for (const a of list ?? []) if (a.family === "IPv4") addrs.add(a.address);
      out.availableAddresses = [...addrs];
      return out;
    },
    async besu(count: number): Promise<z.infer<typeof besuDefaults>> {
      const { host, reserved, range } = await context();
      const take = async (preferred: number): Promise<number> => {
        const [port] = (await proposeFreePorts(1, { ...searchRange(preferred, range), reserved })) as [number];
        reserved.add(port);
        return port;
      };
      const defaults: z.infer<typeof besuDefaults>["defaults"] = [];
      for (let i = 0; i < count; i++) {
        defaults.push({
          p2pHost: "0.0.0.0",
          p2pPort: await take(30303),
          rpcHost: "127.0.0.1",
          rpcPort: await take(8545),
          metricsEnabled: true,
          metricsHost: "127.0.0.1",
          metricsPort: await take(9545),
          metricsProtocol: "PROMETHEUS",
          externalIp: host,
          internalIp: "127.0.0.1",
          minGasPrice: 1_000_000_000,
          hostAllowList: "*",
          accountsAllowList: [],
          nodesAllowList: [],
          jwtEnabled: false,
          jwtPublicKeyContent: "",
          jwtAuthenticationAlgorithm: "",
          environmentVariables: {},
          mode: "service",
        });
      }
      return { nodeCount: count, defaults };
    },
  };
}

export type NodeDefaultsService = ReturnType<typeof createNodeDefaults>;
