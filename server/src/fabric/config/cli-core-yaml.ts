import { stringify } from "yaml";
import type { CoreYaml } from "./core-yaml.js";

/** What the `peer` CLI acts as: one identity's MSP folder and the TLS CA of the peers it calls. */
export interface CliCoreYamlOptions {
  mspId: string;
  /** Absolute path of the MSP folder (peer.mspConfigPath). */
  mspDir: string;
  /** Absolute path of the TLS CA of the peers the CLI talks to (peer.tls.rootcert.file). */
  tlsRootCertFile: string;
  /** Default peer (peer.address); CORE_PEER_ADDRESS overrides it. */
  peerAddress?: string;
}

/**
 * A core.yaml for the `peer` CLI only: the CLI refuses to start without one in FABRIC_CFG_PATH
 * (`Config File "core" Not Found`), and reads from it the identity, the peer's TLS settings, the
 * client timeouts and keepalive, and BCCSP. Nothing a peer node needs to run is in it. Every key
 * can still be overridden with the matching CORE_PEER_* variable.
 */
export function buildCliCoreYaml(o: CliCoreYamlOptions): CoreYaml {
  return {
    peer: {
      id: "cli",
      address: o.peerAddress ?? "",
      localMspId: o.mspId,
      mspConfigPath: o.mspDir,
      tls: { enabled: true, clientAuthRequired: false, rootcert: { file: o.tlsRootCertFile } },
      client: { connTimeout: "10s" },
      deliveryclient: { connTimeout: "10s" },
      keepalive: { client: { interval: "60s", timeout: "20s" }, deliveryClient: { interval: "60s", timeout: "20s" } },
      BCCSP: { Default: "SW", SW: { Hash: "SHA2", Security: 256 } },
    },
  };
}

/** The CLI's core.yaml as text. */
export function renderCliCoreYaml(o: CliCoreYamlOptions): string {
  return `# Written by ChainLaunch for the peer CLI (FABRIC_CFG_PATH=<this folder>), acting as ${o.mspId}.\n${stringify(
    buildCliCoreYaml(o),
    { lineWidth: 0 },
  )}`;
}
