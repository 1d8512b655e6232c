import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { DB } from "../../db/db.js";
import type { FabricNodeInfo } from "../fabric-networks/fabric-networks.context.js";
import { checkParameterValues, parsePluginYaml } from "./plugin-format.js";
import { renderCompose } from "./plugins.service.js";
import { createXSourceResolver, type XSourceDeps } from "./x-source.js";

const CA = "-----BEGIN CERTIFICATE-----\nTLSCA\n-----END CERTIFICATE-----\n";
const peerInfo = (id: number): FabricNodeInfo => ({
  id,
  name: `peer${id}`,
  role: "peer",
  status: "RUNNING",
  organizationId: 7,
  mspId: "Org1MSP",
  version: "3.1.0",
  endpoint: `peer${id}.org1.example.com:70${50 + id}`,
  adminAddress: "",
  tlsCert: "",
  tlsCaCert: `${CA}${id}`,
  signCert: "",
});

/** The console's side of the binding, as the resolver sees it (unit test: no database or nodes). */
const deps: XSourceDeps = {
  db: undefined as unknown as DB,
  keyOwner: async (keyId) => (keyId === 42 ? 7 : undefined),
  fabric: {
    node: async (id) => peerInfo(id),
    org: async (id) => ({ mspId: id === 7 ? "Org1MSP" : "Other" }) as never,
    network: async () => ({}) as never,
  },
  keys: {
    row: async (id) =>
      ({ id, name: "admin", algorithm: "EC", certificate: "-----BEGIN CERTIFICATE-----\nADMIN\n" }) as never,
    exportPrivateKeyPem: async () => "-----BEGIN PRIVATE KEY-----\nSECRET\n-----END PRIVATE KEY-----\n",
  },
  nodes: { get: async () => ({}) as never },
};

describe("compose plugin rendering", () => {
  it("renders the catalogue's compose plugin with its key and peers bound to files mounted read-only", async () => {
    const doc = parsePluginYaml(
      readFileSync(join(import.meta.dirname, "../../../plugins-catalogue/hlf-plugin-api.yaml"), "utf8"),
    );
    const values = checkParameterValues(doc, {
      key: { keyId: 42, orgId: 7 },
      channelName: "mychannel",
      peers: [1, 2],
      port: "9090",
    });
    const resolved = await createXSourceResolver(deps).resolve(doc, values, (rel) => `/etc/chainlaunch/${rel}`);
    // The private key is a file for the container, never a template value.
    expect(JSON.stringify(resolved.values)).not.toContain("SECRET");
    expect(resolved.files.filter((f) => f.secret).map((f) => f.rel)).toEqual(["key/key.pem"]);

    const text = renderCompose(doc, "hlf-plugin-api", resolved, "/data/plugins/hlf-plugin-api/secrets", {
      node: "/usr/bin/node",
      builtins: "/b",
      dir: "/d",
    });
    const compose = parse(text) as { services: { app: { command: string[]; ports: string[]; volumes: string[] } } };
    expect(compose.services.app.command).toEqual([
      "serve",
      "--mspid=Org1MSP",
      "--cert=/etc/chainlaunch/key/cert.pem",
      "--key=/etc/chainlaunch/key/key.pem",
      "--peers=peer1.org1.example.com:7051,peer2.org1.example.com:7052",
      "--tlscerts=/etc/chainlaunch/peers-0/peer-1-tls-ca.pem,/etc/chainlaunch/peers-1/peer-2-tls-ca.pem",
      "--channel=mychannel",
      "--port=9090",
    ]);
    expect(compose.services.app.ports).toEqual(["9090:9090"]);
    expect(compose.services.app.volumes).toEqual([
      "/data/plugins/hlf-plugin-api/secrets/key/cert.pem:/etc/chainlaunch/key/cert.pem:ro",
      "/data/plugins/hlf-plugin-api/secrets/key/key.pem:/etc/chainlaunch/key/key.pem:ro",
      "/data/plugins/hlf-plugin-api/secrets/peers-0/peer-1-tls-ca.pem:/etc/chainlaunch/peers-0/peer-1-tls-ca.pem:ro",
      "/data/plugins/hlf-plugin-api/secrets/peers-1/peer-2-tls-ca.pem:/etc/chainlaunch/peers-1/peer-2-tls-ca.pem:ro",
    ]);
  });

  it("refuses a key of another organization and a value of the wrong shape, naming the parameter", async () => {
    const doc = parsePluginYaml(
      readFileSync(join(import.meta.dirname, "../../../plugins-catalogue/hlf-plugin-api.yaml"), "utf8"),
    );
    const r = createXSourceResolver(deps);
    await expect(
      r.resolve(doc, { key: { keyId: 42, orgId: 8 }, channelName: "c", peers: [1], port: 1 }, (x) => x),
    ).rejects.toThrow(/^parameters\.key: key 'admin' is not a key of organization 8/);
    await expect(
      r.resolve(doc, { key: { keyId: 42, orgId: 7 }, channelName: "c", peers: ["x"], port: 1 }, (x) => x),
    ).rejects.toThrow(/^parameters\.peers\[0\]: must be the id of a console resource/);
    expect(() => checkParameterValues(doc, { key: {}, channelName: "c", peers: "1", port: 1 })).toThrow(
      /parameters\.peers: must be array/,
    );
  });
});
