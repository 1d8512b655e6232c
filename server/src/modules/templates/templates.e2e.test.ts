import { afterAll, describe, expect, it } from "vitest";
import {
  E2E_FABRIC_VERSION as VERSION,
  fabricApi,
  type FabricApi,
  Fatal,
  haveFabricBinaries,
  type Json,
  waitFor,
} from "../../test-support/fabric-api.js";
import { createUser } from "../../test-support/test-app.js";

/**
 * The built-in Fabric peer and orderer templates, applied with variables by a manager: the result
 * goes to POST /nodes as it is, and each node reaches RUNNING on the real binaries.
 */
const bins = await haveFabricBinaries("Templates e2e");
let harness: FabricApi | undefined;
afterAll(async () => harness?.close());

describe("templates on real Fabric nodes", () => {
  it.skipIf(!bins)(
    `runs a peer and an orderer made from the built-in templates (Fabric ${VERSION})`,
    { timeout: 240_000 },
    async () => {
      const h = await fabricApi({ portCount: 20 });
      harness = h;
      const manager = await createUser(h.t, "tpl-e2e-manager", "manager");
      const asManager = async (method: "GET" | "POST", url: string, payload?: object): Promise<Json> => {
        const res = await h.t.app.inject({
          method,
          url: `/api/v1${url}`,
          headers: manager,
          ...(payload ? { payload } : {}),
        });
        if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
        return res.json();
      };
      const org = await h.ok("POST", "/organizations", { mspId: "TplOrg1MSP", name: "Template Org" });
      const ord = await h.ok("POST", "/organizations", { mspId: "TplOrdMSP", name: "Template Orderers" });
      const nodes: Json[] = [];
      for (const [type, o, name] of [
        ["peer", org, "tpl-peer0"],
        ["orderer", ord, "tpl-orderer0"],
      ] as const) {
        const tpl = await asManager("GET", `/templates/platforms/FABRIC/${type}/default`);
        expect(tpl.created_by).toBe("system");
        const config = await asManager("POST", `/templates/${tpl.id}/apply`, {
          template_id: tpl.id,
          variables: { name, organization_id: o.id, msp_id: o.mspId, fabric_version: VERSION, log_level: "DEBUG" },
        });
        const node = await asManager("POST", "/nodes", config);
        expect(node.name).toBe(name);
        nodes.push(node);
      }
      const running = await Promise.all(
        nodes.map((n) =>
          waitFor(
            `${n.name} RUNNING`,
            async () => {
              const cur = await h.ok("GET", `/nodes/${n.id}`);
              if (cur.status === "ERROR") throw new Fatal(`${n.name}: ${cur.errorMessage}`);
              return cur.status === "RUNNING" ? cur : undefined;
            },
            90_000,
          ),
        ),
      );
      expect(running.map((n) => [n.nodeType, n.status])).toEqual([
        ["FABRIC_PEER", "RUNNING"],
        ["FABRIC_ORDERER", "RUNNING"],
      ]);
      expect(running[0].fabricPeer).toMatchObject({ mspId: "TplOrg1MSP", version: VERSION, mode: "service" });
      // The peer's health endpoint answers: the process is the real peer.
      await waitFor(
        "the peer healthy",
        async () => ((await h.ok("GET", `/nodes/${running[0].id}/health`)).status === "healthy" ? true : undefined),
        30_000,
      );
      const popular = (await asManager("GET", "/templates/popular?limit=2")) as Json[];
      expect(popular.map((t) => t.usage_count)).toEqual([1, 1]);
      for (const n of nodes) await h.ok("DELETE", `/nodes/${n.id}`);
    },
  );
});
