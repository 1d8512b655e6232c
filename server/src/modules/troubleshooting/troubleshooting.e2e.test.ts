import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  haveFabricBinaries,
  type FabricApi,
  type Json,
} from "../../test-support/fabric-api.js";

/**
 * test-connection against a real peer: gRPC over TLS with the peer's org TLS CA (known to the
 * console) verifies, the HTTP/2 handshake completes and the health check answers as Fabric does
 * (no health service: UNIMPLEMENTED); with another CA it explains the failure; the operations port
 * answers HTTP. Skipped without binaries.
 */
const bins = await haveFabricBinaries("troubleshooting e2e");
let harness: FabricApi | undefined;
afterAll(() => harness?.close());

describe("troubleshooting against a real peer", () => {
  it.skipIf(!bins)(
    `reports TLS details and a gRPC handshake of a running peer (Fabric ${VERSION})`,
    { timeout: 180_000 },
    async () => {
      const h = await fabricApi({ portCount: 30 });
      harness = h;
      const org = await h.ok("POST", "/organizations", { mspId: "TroubleOrgMSP", name: "Trouble Org" });
      const other = await h.ok("POST", "/organizations", { mspId: "OtherOrgMSP", name: "Other Org" });
      const [peer] = (await h.createNodes(org, 1, 0, "ts-")) as [Json];
      const endpoint = peer.endpoint as string;
      const test = (body: object) => h.ok("POST", "/troubleshooting/test-connection", body);

      const known = await test({ endpoint, protocol: "grpcs", timeout: 10 });
      expect(known, JSON.stringify(known)).toMatchObject({
        success: true,
        status_code: 12,
        tls_info: {
          certificate_valid: true,
          version: expect.stringMatching(/^TLSv1\.[23]$/),
          verified_against: expect.stringContaining("TroubleOrgMSP"),
        },
        details: { handshake: "HTTP/2 settings exchanged", grpc_status: "12 UNIMPLEMENTED" },
      });
      expect(known.details.health).toMatch(/speaks gRPC/);
      expect(known.tls_info.chain[0]).toMatch(/CN=/);

      const wrong = await test({ endpoint, protocol: "grpcs", ca_cert: other.tlsCertificate });
      expect(wrong.success).toBe(false);
      expect(wrong.tls_info.certificate_valid).toBe(false);
      expect(wrong.error).toMatch(/^TLS verification failed: .*does not chain to the CA given/);

      const plain = await test({ endpoint, protocol: "grpc", timeout: 5 });
      expect(plain.success).toBe(false);

      expect(peer.fabricPeer?.operationsAddress).toBeTruthy();
      const ops = await test({
        endpoint: `http://${peer.fabricPeer?.operationsAddress ?? ""}/healthz`,
        protocol: "http",
      });
      expect(ops).toMatchObject({ success: true, status_code: 200 });
    },
  );
});
