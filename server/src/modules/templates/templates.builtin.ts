import type { TemplateNodeType, TemplatePlatform, TemplateVariable } from "./templates.schema.js";

/** A template the console ships, seeded once (by `key`) on start. */
export interface BuiltinTemplate {
  key: string;
  name: string;
  description: string;
  platform: TemplatePlatform;
  node_type: TemplateNodeType;
  version: string;
  config: Record<string, unknown>;
  variables: TemplateVariable[];
  tags: string[];
}

const nodeName: TemplateVariable = {
  name: "name",
  type: "string",
  description: "Node name (letters, digits, space, dot, underscore, dash)",
  required: true,
  validation: { pattern: "^[A-Za-z0-9][A-Za-z0-9 ._-]*$", min_length: 1, max_length: 100 },
};
const fabricVars: TemplateVariable[] = [
  nodeName,
  {
    name: "organization_id",
    type: "number",
    description: "Id of the organization that owns the node",
    required: true,
    validation: { min: 1 },
  },
  {
    name: "msp_id",
    type: "string",
    description: "The organization's MSP id",
    required: true,
    validation: { pattern: "^[A-Za-z0-9.-]+$", max_length: 249 },
  },
  {
    name: "mode",
    type: "string",
    description: "service (a process on this host) or docker",
    default: "service",
    validation: { enum: ["service", "docker"] },
  },
  {
    name: "fabric_version",
    type: "string",
    description: "Fabric release; empty: the newest installed",
    validation: { pattern: "^\\d+\\.\\d+\\.\\d+$" },
  },
  {
    name: "external_endpoint",
    type: "string",
    description: "host:port other nodes dial; empty: proposed from the console's port range",
    validation: { pattern: "^[A-Za-z0-9.-]+:\\d{1,5}$" },
  },
  {
    name: "log_level",
    type: "string",
    description: "FABRIC_LOGGING_SPEC",
    default: "INFO",
    validation: { enum: ["DEBUG", "INFO", "WARNING", "ERROR"] },
  },
];
const fabricSection = {
  organizationId: "{{organization_id}}",
  mspId: "{{msp_id}}",
  mode: "{{mode}}",
  version: "{{fabric_version}}",
  externalEndpoint: "{{external_endpoint}}",
  env: { FABRIC_LOGGING_SPEC: "{{log_level}}" },
};

/** The built-in templates. Their applied configs are POST /nodes bodies (checked by a test). */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    key: "fabric-peer",
    name: "Fabric peer",
    description: "A Fabric peer of one organization; ports are proposed from the console's range unless given",
    platform: "FABRIC",
    node_type: "peer",
    version: "1.0.0",
    config: { name: "{{name}}", blockchainPlatform: "FABRIC", fabricPeer: fabricSection },
    variables: fabricVars,
    tags: ["fabric", "peer", "built-in"],
  },
  {
    key: "fabric-orderer",
    name: "Fabric orderer",
    description:
      "A Fabric orderer (Raft) of one organization; ports are proposed from the console's range unless given",
    platform: "FABRIC",
    node_type: "orderer",
    version: "1.0.0",
    config: { name: "{{name}}", blockchainPlatform: "FABRIC", fabricOrderer: fabricSection },
    variables: fabricVars,
    tags: ["fabric", "orderer", "raft", "built-in"],
  },
  {
    key: "besu-validator",
    name: "Besu validator",
    description: "A Besu QBFT validator on an existing Besu network, with its node key",
    platform: "BESU",
    node_type: "validator",
    version: "1.0.0",
    config: {
      name: "{{name}}",
      blockchainPlatform: "BESU",
      besuNode: {
        networkId: "{{network_id}}",
        keyId: "{{key_id}}",
        externalIp: "{{external_ip}}",
        internalIp: "{{internal_ip}}",
        p2pHost: "0.0.0.0",
        p2pPort: "{{p2p_port}}",
        rpcHost: "0.0.0.0",
        rpcPort: "{{rpc_port}}",
        metricsEnabled: true,
        metricsPort: "{{metrics_port}}",
        metricsProtocol: "PROMETHEUS",
        minGasPrice: 0,
      },
    },
    variables: [
      nodeName,
      { name: "network_id", type: "number", description: "Besu network id", required: true, validation: { min: 1 } },
      {
        name: "key_id",
        type: "number",
        description: "secp256k1 key id (the node key)",
        required: true,
        validation: { min: 1 },
      },
      {
        name: "external_ip",
        type: "string",
        description: "Advertised IP",
        default: "127.0.0.1",
        validation: { max_length: 253 },
      },
      {
        name: "internal_ip",
        type: "string",
        description: "Internal IP",
        default: "127.0.0.1",
        validation: { max_length: 253 },
      },
      { name: "p2p_port", type: "number", description: "P2P port", default: 30303, validation: { min: 1, max: 65535 } },
      {
        name: "rpc_port",
        type: "number",
        description: "JSON-RPC port",
        default: 8545,
        validation: { min: 1, max: 65535 },
      },
      {
        name: "metrics_port",
        type: "number",
        description: "Metrics port",
        default: 9545,
        validation: { min: 1, max: 65535 },
      },
    ],
    tags: ["besu", "validator", "qbft", "built-in"],
  },
];
