import { apiCall } from "./api.js";
import type { Credentials } from "./users.js";

export interface Catalog {
  orgId: number;
  caKeyId: number;
  besuId: number;
  providerId: number;
}

type Page<T> = { items: T[] };

/**
 * Realistic content for screenshots, created once through the API and found again on later calls:
 * an organization with a peer identity and one revocation, a CA key with a certificate, four
 * validator keys and a QBFT network.
 */
export async function seedCatalog(baseUrl: string, admin: Credentials): Promise<Catalog> {
  const call = <T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> =>
    apiCall<T>(baseUrl, admin, method, path, body);

  const orgs = await call<{ items: { id: number; mspId: string }[] }>("GET", "/organizations?mspId=Org1MSP");
  let orgId = orgs.data.items.find((o) => o.mspId === "Org1MSP")?.id;
  if (!orgId) {
    const r = await call<{ id: number }>("POST", "/organizations", {
      mspId: "Org1MSP",
      name: "Org1",
      description: "Peer organization for the supply-chain channel",
    });
    orgId = r.data.id;
    await call("POST", `/organizations/${orgId}/keys`, {
      name: "peer0-org1",
      role: "peer",
      dnsNames: ["peer0.org1.example.com"],
      ipAddresses: ["10.0.0.11"],
    });
    const old = await call<{ certificate: string }>("POST", `/organizations/${orgId}/keys`, {
      name: "ci-client-2024",
      role: "client",
    });
    await call("POST", `/organizations/${orgId}/crl/revoke/pem`, {
      certificate: old.data.certificate,
      revocationReason: 4,
    });
    await call("POST", "/organizations", { mspId: "OrdererMSP", name: "Orderer", description: "Ordering service" });
  }

  const keys = await call<Page<{ id: number; name: string }>>("GET", "/keys?pageSize=1000");
  const byName = new Map(keys.data.items.map((k) => [k.name, k.id]));
  let caKeyId = byName.get("acme-root-ca");
  if (!caKeyId) {
    const r = await call<{ id: number }>("POST", "/keys", {
      name: "acme-root-ca",
      description: "Root CA for partner TLS",
      algorithm: "EC",
      curve: "P-384",
      certificate: {
        commonName: "Acme Root CA",
        organization: ["Acme"],
        organizationalUnit: ["Platform"],
        isCA: true,
        validFor: "87600h",
      },
    });
    caKeyId = r.data.id;
  }
  const validators: number[] = [];
  for (const n of [1, 2, 3, 4]) {
    const name = `validator-${n}`;
    let id = byName.get(name);
    if (!id) id = (await call<{ id: number }>("POST", "/keys", { name, algorithm: "EC", curve: "secp256k1" })).data.id;
    validators.push(id);
  }

  const nets = await call<{ networks: { id: number; name: string }[] }>("GET", "/networks/besu?limit=1000");
  let besuId = nets.data.networks.find((n) => n.name === "besu-testnet")?.id;
  if (!besuId) {
    const r = await call<{ id: number }>("POST", "/networks/besu", {
      name: "besu-testnet",
      description: "Four-validator QBFT test network",
      config: {
        chainId: 1337,
        blockPeriod: 5,
        epochLength: 30000,
        requestTimeout: 10,
        initialValidatorsKeyIds: validators,
        alloc: { "0x627306090abaB3A6e1400e9345bC60c78a8BEf57": { balance: "0xad78ebc5ac6200000" } },
      },
    });
    besuId = r.data.id;
  }
  const providers = await call<{ id: number }[]>("GET", "/key-providers");
  return { orgId, caKeyId, besuId, providerId: providers.data[0]?.id ?? 1 };
}
