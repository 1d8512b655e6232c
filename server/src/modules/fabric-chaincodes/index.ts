import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import type { Sandbox } from "../../runtime/sandbox.js";
import type { AppContext } from "../context.js";
import { dialAddress, type FabricContext } from "../fabric-networks/fabric-networks.context.js";
import { createFabricNetworksRepo } from "../fabric-networks/fabric-networks.repo.js";
import type { KeysService } from "../keys/keys.service.js";
import type { NodeDefaultsService } from "../nodes/nodes.defaults.js";
import type { Operations } from "../operations/operations.js";
import { createChaincodeCalls, type ChaincodeCalls } from "./chaincodes.calls.js";
import { createChaincodesRepo } from "./chaincodes.repo.js";
import { registerCommittedChaincodesRoute } from "./chaincodes.committed.routes.js";
import { createChaincodePeerLifecycle } from "./chaincodes.peer.js";
import { registerChaincodePeerRoutes } from "./chaincodes.peer.routes.js";
import { registerChaincodesRoutes } from "./chaincodes.routes.js";
import { createChaincodeRuntime } from "./chaincodes.runtime.js";
import { createChaincodesService, type ChaincodesDeps, type ChaincodesService } from "./chaincodes.service.js";
import { createChaincodeShared } from "./chaincodes.shared.js";
import { registerMspExportRoute } from "./msp-export.js";

export interface ChaincodesModule {
  service: ChaincodesService;
  calls: ChaincodeCalls;
  /** Detaches from the chaincode servers (they keep running) and closes Gateway connections. */
  close(): void;
}

/**
 * Wires the Fabric chaincode module: chaincodes and definitions, the _lifecycle actions on this
 * console's peers, chaincode servers supervised under `<dataDir>/chaincodes` (adopted again after
 * a restart), and calls through the peers' Gateway.
 */
export function registerChaincodesModule(
  api: FastifyInstance,
  ctx: Pick<AppContext, "db" | "bus" | "log" | "config">,
  deps: {
    fabric: FabricContext;
    keys: KeysService;
    defaults: Pick<NodeDefaultsService, "freePort">;
    sandbox: Sandbox;
    docker: DockerRuntime;
    operations?: Pick<Operations, "begin">;
  },
): ChaincodesModule {
  const repo = createChaincodesRepo(ctx.db);
  const dir = join(ctx.config.dataDir, "chaincodes");
  const runtime = createChaincodeRuntime({
    repo,
    bus: ctx.bus,
    log: ctx.log,
    stateDir: join(dir, "runtime"),
    definitionDir: (id) => join(dir, String(id)),
    sandbox: deps.sandbox,
    docker: deps.docker,
  });
  const serviceDeps: ChaincodesDeps = {
    repo,
    keys: deps.keys,
    ctx: deps.fabric,
    networks: createFabricNetworksRepo(ctx.db),
    runtime,
    docker: deps.docker,
    bus: ctx.bus,
    ...(deps.operations ? { operations: deps.operations } : {}),
    freePort: (preferred, reserved) => deps.defaults.freePort(preferred, reserved),
    dir,
    externalPeers: async (mspId) =>
      (await repo.externalPeers(mspId)).map((p) => ({
        address: dialAddress(p.external_endpoint),
        tlsRootCert: p.tls_ca_certificate,
      })),
  };
  const service = createChaincodesService(serviceDeps);
  const calls = createChaincodeCalls({ db: ctx.db, ctx: deps.fabric, keys: deps.keys, chaincodes: service });
  registerChaincodesRoutes(api, service, calls, { dataDir: ctx.config.dataDir });
  registerCommittedChaincodesRoute(api, service);
  // Upstream's per-peer lifecycle and one-shot deploy, on the same steps (the helpers are stateless).
  const shared = createChaincodeShared(serviceDeps);
  registerChaincodePeerRoutes(
    api,
    createChaincodePeerLifecycle({ ...serviceDeps, fabricNetworks: createFabricNetworksRepo(ctx.db) }, shared, service),
    shared,
  );
  registerMspExportRoute(api, {
    fabric: deps.fabric,
    networks: createFabricNetworksRepo(ctx.db),
    keys: deps.keys,
    dataDir: ctx.config.dataDir,
  });
  // Steps a stopped console left "started" (before this start) become "interrupted" on their
  // timelines; after the servers are adopted again, which calls right after a start wait for.
  const started = new Date().toISOString();
  void runtime
    .resume()
    .catch((err: unknown) => ctx.log.warn({ err }, "resuming chaincode servers failed"))
    .then(() => service.markInterrupted(started))
    .then((n) => {
      if (n > 0) ctx.log.info({ steps: n }, "chaincode steps interrupted by the last stop marked");
    })
    .catch((err: unknown) => ctx.log.warn({ err }, "marking interrupted chaincode steps failed"));
  return {
    service,
    calls,
    close() {
      calls.close();
      service.close();
    },
  };
}
