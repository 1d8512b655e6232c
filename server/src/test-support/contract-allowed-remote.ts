/*
 * Deliberate deviations from upstream's reference between consoles and around them (federation, governance,
 * troubleshooting, key providers, Docker engines, upstream's deploy and import), each with its reason.
 * http/contract.test.ts composes them into its allow-list.
 */
import { viaAllOf } from "./contract-allowed-local.js";

/** Product additions of federation between consoles (issue 16, docs/federation.md). */
const FED = "product addition (issue 16)";
export const FEDERATION_ALLOWED: Record<string, string> = {
  ...Object.fromEntries(
    ["POST /settings response", "GET /settings response", "POST /settings request"].map((where) => [
      `${where}:config.federationEndpoint`,
      `${FED}: the URL other consoles reach this one at, carried by invitations`,
    ]),
  ),
  "GET /node/identity": `${FED}: this console's node id, public key and endpoint, for the Connect screen`,
  "POST /node/generate-invitation request:options.expires_in_hours": `${FED}: the one option upstream's free-form options take here (default 24 h, at most 30 days)`,
  "GET /node/connected-peers response:connected_peers[].last_seen_at": `${FED}: live status, when the console last answered`,
  "GET /node/connected-peers response:connected_peers[].last_error": `${FED}: live status, why the last ping failed or why it was revoked`,
  "GET /node/connected-peers response:connected_peers[].peer_grants_metrics": `${FED}: whether the other console grants this one metrics federation, as it last said`,
  "POST /node/sync-external-nodes response:organizations_deleted": `${FED}: organizations the other console no longer has are removed too, and counted`,
  "POST /nodes request:besuNode.externalBootnodeIds": `${FED}: external Besu nodes used as bootnodes, resolved to their enode URLs`,
  "PUT /nodes/{id} request:besuNode.externalBootnodeIds": `${FED}: external Besu nodes used as bootnodes, resolved to their enode URLs`,
  "POST /networks/fabric/import-with-org request:externalOrdererId": `${FED}: an external orderer instead of ordererUrl and ordererTlsCert, resolved to its endpoint and TLS CA`,
  ...Object.fromEntries(
    [
      "GET /node/connected-peers/{peer_id}/nodes response:fabric_peers[].",
      "GET /node/connected-peers/{peer_id}/nodes response:fabric_orderers[].",
      "GET /external-nodes response:fabric_peers[].",
      "GET /external-nodes response:fabric_orderers[].",
      "GET /external-nodes/fabric-peers response:[].",
      "GET /external-nodes/fabric-orderers response:[].",
    ].map((where) => [
      `${where}tlsCaCertificate`,
      `${FED}: the TLS CA that issued the node's certificate, to trust its endpoint`,
    ]),
  ),
  ...Object.fromEntries(
    [
      "GET /node/connected-peers/{peer_id}/nodes response:besu_nodes[].",
      "GET /external-nodes response:besu_nodes[].",
      "GET /external-nodes/besu-nodes response:[].",
    ].map((where) => [`${where}rpcUrl`, `${FED}: the node's JSON-RPC URL`]),
  ),
  ...Object.fromEntries(
    [
      "GET /node/connected-peers/{peer_id}/nodes response:organizations[].",
      "GET /external-nodes/fabric-organizations response:[].",
    ].flatMap((where) => [
      [`${where}name`, `${FED}: the organization's name on its console`],
      [`${where}externalNodeId`, `${FED}: the connection it came through, as upstream's node DTOs have it`],
    ]),
  ),
  ...Object.fromEntries(
    ["POST /pro/sharing/network", "POST /pro/sharing/besu-network"].flatMap((op) =>
      ["results", "results[].error", "results[].nodeId", "results[].recipient", "results[].status"].map((p) => [
        `${op} response:${p}`,
        `${FED}: the outcome per recipient (a revoked or unreachable one fails alone); genesisBlock is base64, as Go writes []byte`,
      ]),
    ),
  ),
  "GET /pro/shared-networks response:networks[].direction": `${FED}: the list holds received and sent shares (filter ?direction=)`,
  "GET /pro/shared-networks response:networks[].error": `${FED}: why the last accept failed (the share stays pending) or why every send failed`,
  "GET /pro/shared-networks response:networks[].localNetworkId": `${FED}: the network an accept imported on this console`,
  "GET /pro/shared-networks response:networks[].networkName": `${FED}: the network's name (Fabric: the channel), for the Shared Networks screen`,
  "GET /pro/shared-networks response:networks[].platform": `${FED}: fabric or besu`,
  "GET /pro/shared-networks/{shareId}": `${FED}: upstream's GET /pro/shared-networks/{networkId}; the path is shared with DELETE …/{shareId}, so it takes the share id`,
  "GET /pro/keys/shared-with-me response:keys[].shared_by_node_id": `${FED}: node id of the console that shared the key (shared_by is the connection id)`,
  ...Object.fromEntries(
    [
      "POST /federation/handshake",
      "GET /federation/ping",
      "GET /federation/nodes",
      "POST /federation/revoke",
      "POST /federation/shares/network",
      "POST /federation/shares/key",
      "POST /federation/shares/answer",
      "POST /federation/metrics/query",
      "POST /federation/metrics/label-values",
    ].map((op) => [
      op,
      `${FED}: console-to-console route, Ed25519-signed requests (decision 40); upstream's own routes are served too (docs/federation-upstream.md)`,
    ]),
  ),
  ...Object.fromEntries(
    ["POST /pro/sharing/chaincode", "POST /pro/sharing/config-proposal"].flatMap((op) =>
      ["results", "results[].error", "results[].nodeId", "results[].recipient", "results[].status"].map((p) => [
        `${op} response:${p}`,
        `${FED}: the outcome per recipient (a revoked or unreachable one fails alone)`,
      ]),
    ),
  ),
  ...Object.fromEntries(
    [
      "GET /pro/shared-chaincodes response:chaincodes[].",
      "GET /pro/shared-chaincodes/{chaincodeId} response:chaincode.",
    ].flatMap((where) => [
      [`${where}direction`, `${FED}: the list holds received and sent shares (filter ?direction=)`],
      [`${where}expiresAt`, `${FED}: a sent share's expiry, as the share request gave it`],
    ]),
  ),
  "POST /pro/receive/network request:chainId": `${FED}: Besu: the chain id the genesis carries (read from the genesis when absent)`,
  "POST /pro/receive/network request:shareId": `${FED}: the sender's share id, so a repeated delivery is stored once`,
  "POST /pro/receive/chaincode request:channelName": `${FED}: the chaincode's channel, which upstream's shape leaves to metadata`,
  "POST /pro/receive/chaincode request:name": `${FED}: the chaincode's name, which upstream's shape leaves to metadata`,
  "POST /pro/receive/chaincode request:sharedBy": `${FED}: the user who shared it on the sending console`,
  ...Object.fromEntries(
    [
      ["besu_nodes[].rpcUrl", "the node's JSON-RPC URL"],
      ["fabric_orderers[].tlsCaCertificate", "the TLS CA that issued the node's certificate"],
      ["fabric_peers[].tlsCaCertificate", "the TLS CA that issued the node's certificate"],
      ["organizations[].name", "the organization's name on this console"],
      ...["besu_nodes", "fabric_orderers", "fabric_peers"].map((k) => [
        `${k}[].externalNodeId`,
        "not sent: it is the connection id on the receiving console, which the receiver fills in",
      ]),
    ].map(([field, why]) => [
      `POST /node/external-nodes response:${field}`,
      `${FED}: ${why} (same inventory as GET /federation/nodes)`,
    ]),
  ),
};

const GOV = "product addition (issue 17, docs/governance.md)";
const GOV_EXTRAS: Record<string, string> = {
  proposal_type: "the kind of change, as the request gave it",
  config_sequence: "the channel config sequence the update was computed against (stale detection)",
  diff: "one line per config element the update changes",
  changes: "the config elements the update changes: kind, path, before, after",
  "changes[].kind": "added, removed or changed",
  "changes[].path": "the element's path in the decoded config",
  "changes[].before": "the element before the update",
  "changes[].after": "the element after the update",
  origin_node_id: "node id of the console that proposed it (empty when proposed here)",
  stale: "true once another config change overtook the proposal; it must be recomputed",
  tx_id: "the config update's transaction id once submitted",
  policy: "the channel's modification policy against the stored signatures",
  "policy.missing": "MSP ids whose signatures are still missing",
  "policy.required": "how many orgs must sign",
  "policy.rule": "the mod_policies the update must meet",
  "policy.satisfied": "whether it can be submitted",
  "policy.signed": "MSP ids that signed",
  "policy.summary": "'2 of 3 orgs signed'",
};
const GOV_OPS_UNION =
  "same fields, as a union keyed by type (oneOf) with one typed payload per operation, which this comparison can't read";
/** The product's additions to pro.ChaincodeProposal. */
const CC_PROPOSAL_EXTRAS: Record<string, string> = {
  approvals: "each org's approval from CheckCommitReadiness, so the proposer sees when it can commit",
  chaincodeId: "the local chaincode created for it",
  definitionId: "the local definition created for it (install, approve and commit go through it)",
  error: "why the last accept failed, so it can be retried",
  initRequired: "part of the definition every org must approve identically",
  sharedWith: "connection ids it was shared with from this console",
  sourceSha256: "the source archive recipients receive, checked on arrival",
  sourceType: "the process runtime runs source (node, go, executable), not only images",
};

export const GOVERNANCE_ALLOWED: Record<string, string> = {
  ...Object.fromEntries(
    (
      [
        "POST /pro/networks/proposals",
        "GET /pro/networks/proposals/{proposalId}",
        "GET /pro/networks/proposals",
      ] as const
    ).flatMap((op) => {
      const pre = op === "GET /pro/networks/proposals" ? "proposals[]." : "";
      // The comparison reads one array level below the list's items: changes[] fields only on a single proposal.
      const extras = Object.entries(GOV_EXTRAS)
        .filter(([f]) => !(pre && f.includes("[]")))
        .map(([f, why]) => [`${op} response:${pre}${f}`, `${GOV}: ${why}`]);
      const ops = [`${op} response:operations[].payload`, `${op} response:operations[].type`].map((k) => [
        k,
        GOV_OPS_UNION,
      ]);
      return pre ? extras : [...extras, ...ops];
    }),
  ),
  ...Object.fromEntries(
    ["id", "msp_id", "proposal_id", "signed_at", "signed_by", ""].map((f) => [
      `POST /pro/networks/proposals response:signatures${f ? `[].${f}` : ""}`,
      `${GOV}: the create answer is the full proposal (no signatures yet), the same shape as GET`,
    ]),
  ),
  "POST /pro/networks/proposals request:operations[].payload": GOV_OPS_UNION,
  "POST /pro/networks/proposals request:operations[].type": GOV_OPS_UNION,
  "POST /pro/networks/proposals/{proposalId}/recompute": `${GOV}: recompute a stale proposal against the current config (old signatures are void)`,
  "POST /federation/governance/proposals": `${GOV}: console-to-console route, Ed25519-signed (decision 40): a proposal shared to sign`,
  "POST /federation/governance/signatures": `${GOV}: console-to-console route, Ed25519-signed (decision 40): a verified org admin signature sent back`,
  "POST /federation/governance/status": `${GOV}: console-to-console route, Ed25519-signed (decision 40): the proposer submitted a shared proposal`,
  "POST /federation/governance/chaincode-proposals": `${GOV}: console-to-console route, Ed25519-signed (decision 40): a chaincode definition proposal with its source archive`,
  "POST /federation/governance/signatures/withdraw": `${GOV}: console-to-console route, Ed25519-signed (decision 40): the console that sent a signature withdraws it before submission`,
  ...Object.fromEntries(
    (
      [
        "POST /pro/chaincodes/proposals response:",
        "GET /pro/chaincodes/proposals response:[].",
        "GET /pro/chaincodes/proposals/{proposalId} response:proposal.",
        "POST /pro/chaincodes/proposals/{proposalId}/accept response:proposal.",
      ] as const
    ).flatMap((pre) => Object.entries(CC_PROPOSAL_EXTRAS).map(([f, why]) => [`${pre}${f}`, `${GOV}: ${why}`])),
  ),
  "POST /pro/chaincodes/proposals request:definition_id": `${GOV}: propose an existing local definition, whose source recipients receive (the process runtime runs source, not images)`,
  "POST /pro/chaincodes/proposals request:init_required": `${GOV}: part of a chaincode definition every org must approve identically`,
};

/** Product additions of the troubleshooting tools (issue 19, docs/troubleshooting.md). */
const TS = "product addition (issue 19)";
export const TROUBLESHOOTING_ALLOWED: Record<string, string> = {
  ...Object.fromEntries(
    ["POST /settings response", "GET /settings response", "POST /settings request"].flatMap((where) => [
      [`${where}:config.troubleshootingRequireAuth`, `${TS}: the admin setting that makes the tools need credentials`],
      [`${where}:config.publicIpLookupUrl`, `${TS}: an optional echo service for the public IP; none is assumed`],
    ]),
  ),
  "POST /troubleshooting/test-connection request:ca_cert": `${TS}: the CA to verify TLS against (default: the console's org TLS CAs)`,
  "POST /troubleshooting/test-connection request:server_name": `${TS}: the name to send and check, as a node's clients would (e.g. peer0.org1)`,
  ...Object.fromEntries(
    (["chain", "subject", "verified_against", "verify_error"] as const).map((f) => [
      `POST /troubleshooting/test-connection response:tls_info.${f}`,
      `${TS}: the certificate chain and why verification failed, against what`,
    ]),
  ),
  "POST /troubleshooting/validate-certificate response:chain": `${TS}: the path the certificate chained along`,
  "POST /troubleshooting/validate-certificate response:fingerprint": `${TS}: SHA-256 fingerprint, to compare with other tools`,
};

/**
 * Deliberate deviations from the upstream contract, each with its reason. Keys are
 * "METHOD /path" or "METHOD /path request|response:<property path>".
 */
/** Product additions of key providers (issue 18): the managed-or-external mode and an unreachable server's reason. */
export const KEY_PROVIDER_ALLOWED: Record<string, string> = {
  "POST /key-providers request:config.vault.caEngine":
    "transit (CA keys in transit, certificates built here) or pki (CA keys are PKI issuers and Vault issues the certificates); the reference has only pkiMount",
  "GET /key-providers/{id}/vault/status response:mode":
    "managed (this console runs OpenBao as a process) or external; the reference only has docker-managed Vaults",
  "GET /key-providers/{id}/vault/status response:error":
    "why an external Vault could not be reached (the reference's container_error is about the container)",
};

/** Product additions of several Docker engines (issue 31, docs/docker.md). */
const NODE_RESPONSES = [
  "GET /nodes response:items[]",
  "GET /nodes/platform/{platform} response:items[]",
  "POST /nodes response:",
  "GET /nodes/{id} response:",
  "GET /nodes/slug/{slug} response:",
  "PUT /nodes/{id} response:",
  "POST /nodes/{id}/start response:",
  "POST /nodes/{id}/stop response:",
  "POST /nodes/{id}/restart response:",
  "POST /nodes/{id}/certificates/renew response:",
];
export const DOCKER_ENGINE_ALLOWED: Record<string, string> = {
  "GET /docker/engines": "the local engine and the registered ones (the reference has one engine per console)",
  "POST /docker/engines": "an admin registers another Docker engine (socket or tcp with TLS)",
  "DELETE /docker/engines/{id}": "removes a registered engine that runs no node",
  "POST /nodes request:fabricPeer.dockerEngine": "mode docker: the engine the node is placed on",
  "POST /nodes request:fabricOrderer.dockerEngine": "mode docker: the engine the node is placed on",
  ...Object.fromEntries(
    NODE_RESPONSES.flatMap((pre) =>
      ["fabricPeer", "fabricOrderer"].map((k) => [
        `${pre}${pre.endsWith("]") ? "." : ""}${k}.dockerEngine`,
        "mode docker: the engine the node runs on",
      ]),
    ),
  ),
};

/** Issue 32 (deploy): the console's additions to upstream's deploy, identities, import and transaction shapes. */
export const DEPLOY_ALLOWED: Record<string, string> = {
  ...Object.fromEntries(
    [
      "algorithm",
      "description",
      "ethereumAddress",
      "expiresAt",
      "lastRotatedAt",
      "name",
      "provider",
      "provider.id",
      "provider.name",
      "sha1Fingerprint",
      "sha256Fingerprint",
      "signingKeyId",
      "status",
    ].map((p) => [
      `GET /organizations/{id}/identities response:[].${p}`,
      "the key as GET /organizations/{id}/keys has it (handler.KeyResponse), beside the OrganizationKeyDTO fields",
    ]),
  ),
  ...viaAllOf("POST /organizations/import", "rawImport", [
    "signCaCert",
    "signCaPrivateKey",
    "tlsCaCert",
    "tlsCaPrivateKey",
  ]),
  "POST /sc/besu/deploy request:keyId":
    "the console signs the deployment with one of its secp256k1 keys (upstream's body has no key: its server holds one)",
  "POST /sc/besu/deploy request:nodeId": "a Besu node of this console as the endpoint, instead of rpcurl",
  "GET /networks/fabric/{id}/transactions/{txId} response:block.hash":
    "the block's header hash, as GET .../blocks has it",
  "GET /networks/fabric/{id}/transactions/{txId} response:block.previousHash": "as GET .../blocks has it",
  "GET /networks/fabric/{id}/transactions/{txId} response:block.transactions[].creatorMspId":
    "the creator's MSP id from the signature header",
  "GET /networks/fabric/{id}/transactions/{txId} response:block.transactions[].validationCode":
    "the peer's validation code (VALID, MVCC_READ_CONFLICT, ...)",
  ...Object.fromEntries(
    [
      "POST /sc/fabric/peer/{peerId}/chaincode/install",
      "POST /sc/fabric/peer/{peerId}/chaincode/approve",
      "POST /sc/fabric/peer/{peerId}/chaincode/commit",
      "POST /sc/fabric/deploy",
    ].map((op) => [`${op} response:definitionId`, "this console's definition the step ran on (timeline, status)"]),
  ),
  "POST /sc/fabric/deploy request:peerIds":
    "upstream's params carry SDK peer and gateway objects; the console names its peers (default: all of the channel's)",
};
