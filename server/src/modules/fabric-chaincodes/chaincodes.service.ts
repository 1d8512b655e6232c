import { createChaincodeAdoption } from "./chaincodes.adopt.js";
import { createChaincodeDefinitions } from "./chaincodes.definitions.js";
import { createChaincodeDeploy } from "./chaincodes.deploy.js";
import { createChaincodeApprove } from "./chaincodes.approve.js";
import { createChaincodeCommit } from "./chaincodes.commit.js";
import { createChaincodeInstall } from "./chaincodes.install.js";
import { createChaincodePackaging } from "./chaincodes.package.js";
import { createChaincodeShared, type ChaincodesDeps } from "./chaincodes.shared.js";
import { createChaincodeSources } from "./chaincodes.source.js";
import { createChaincodeStatus } from "./chaincodes.status.js";
import { stepTracker } from "./chaincodes.progress.js";

export type { ChaincodesDeps } from "./chaincodes.shared.js";

/**
 * Fabric chaincodes and the lifecycle of their definitions on this console's peers: package
 * (ccaas), install, approve per org, commit, and run the chaincode server as a supervised process.
 * Each verb lives in its own file (chaincodes.<verb>.ts) over the helpers of chaincodes.shared.ts.
 */
export function createChaincodesService(deps: ChaincodesDeps) {
  const { repo, runtime } = deps;
  const s = createChaincodeShared(deps);
  const pkgs = createChaincodePackaging(deps, s);
  const src = createChaincodeSources(deps, s);
  const { install } = createChaincodeInstall(deps, s, pkgs);
  const { approve } = createChaincodeApprove(deps, s, pkgs);
  const { commit } = createChaincodeCommit(deps, s);
  const deploy = createChaincodeDeploy(deps, s, pkgs, src);
  const step = stepTracker(deps.operations, s.definition);
  return {
    ...createChaincodeDefinitions(deps, s, src),
    uploadSource: src.uploadSource,
    ...deploy,
    // The long steps report their phases (live, and to a page reloaded meanwhile).
    install: step("install", ["package", "install"], install),
    approve: step("approve", ["approve"], approve),
    commit: step("commit", ["commit"], commit),
    build: step("build", ["build"], deploy.build),
    deploy: step("deploy", ["build", "start"], deploy.deploy),
    ...createChaincodeStatus(deps, s, pkgs),
    ...createChaincodeAdoption(deps, s),
    // Used by the calls service.
    chaincode: s.chaincode,
    readPeer: s.readPeer,
    channelNodes: s.channelNodes,
    /** For the networks module: names a chaincode that still runs on this network. */
    async networkUsage(networkId: number): Promise<string | null> {
      const [cc] = await repo.list(networkId);
      return cc ? `chaincode '${cc.name}'` : null;
    },
    /** For the keys module: names the definition whose chaincode server uses this TLS key. */
    async keyUsage(keyId: number): Promise<string | null> {
      const d = (await repo.allDefinitions()).find((x) => x.tls_key_id === keyId);
      if (!d) return null;
      const cc = await repo.byId(d.chaincode_id);
      return `chaincode '${cc?.name ?? d.chaincode_id}' version ${d.version} (TLS key of its server)`;
    },
    /** At console start: steps a stopped console left "started" become "interrupted" (see markInterrupted). */
    markInterrupted: s.markInterrupted,
    close(): void {
      runtime.close();
    },
  };
}

export type ChaincodesService = ReturnType<typeof createChaincodesService>;
