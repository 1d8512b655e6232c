import type { Generated } from "kysely";

/**
 * Table types. Dialect-neutral on purpose: timestamps are ISO-8601 UTC strings,
 * booleans are 0/1 integers and JSON is text, so SQLite and PostgreSQL share one set of queries.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  ip_address: string | null;
  user_agent: string | null;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  key_prefix: string;
  key_hash: string;
  role: string;
  is_active: number;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyLogsTable {
  id: Generated<number>;
  api_key_id: number;
  method: string;
  path: string;
  status_code: number;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface AuditLogsTable {
  id: Generated<number>;
  timestamp: string;
  event_type: string;
  event_source: string;
  event_outcome: string;
  severity: string;
  user_id: number | null;
  username: string | null;
  source_ip: string | null;
  request_id: string | null;
  session_id: string | null;
  affected_resource: string | null;
  details: string | null;
}

export interface SettingsTable {
  id: Generated<number>;
  config: string;
  created_at: string;
  updated_at: string;
}

export interface UserNotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_type: string;
  event_data: string;
  is_read: number;
  created_at: string;
}

export interface KeyProvidersTable {
  id: Generated<number>;
  name: string;
  /** DATABASE, VAULT, AWS_KMS or HSM. */
  type: string;
  is_default: number;
  /** JSON of the public settings (address, region, mounts); never a secret. */
  config: string;
  /** AES-256-GCM envelope (master key, AAD bound to the id) of the provider's credentials, or null. */
  secrets_encrypted: string | null;
  /** Managed Vault: "running" when it should run (started again at boot), "stopped", or "". */
  state: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface KeysTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** EC, ED25519 or RSA. */
  algorithm: string;
  curve: string | null;
  key_size: number | null;
  provider_id: number;
  /** The key's id inside a remote provider (Vault, KMS); null for DATABASE keys. */
  provider_key_ref: string | null;
  public_key: string;
  /** AES-256-GCM envelope of the PKCS#8 PEM (crypto/envelope.ts); never plaintext. */
  private_key_encrypted: string | null;
  certificate: string | null;
  is_ca: number;
  signing_key_id: number | null;
  sha256_fingerprint: string;
  sha1_fingerprint: string;
  ethereum_address: string | null;
  status: string;
  expires_at: string | null;
  last_rotated_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface FabricOrganizationsTable {
  id: Generated<number>;
  msp_id: string;
  name: string;
  description: string | null;
  provider_id: number;
  sign_key_id: number;
  tls_root_key_id: number;
  admin_sign_key_id: number | null;
  admin_tls_key_id: number | null;
  client_sign_key_id: number | null;
  /** Number of the last CRL issued; each new CRL takes the next one. */
  crl_number: number;
  crl_last_update: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrganizationKeysTable {
  id: Generated<number>;
  organization_id: number;
  key_id: number;
  /** admin, client, peer, orderer, or ca for the org's own CAs. */
  role: string;
  /** sign, tls, ca or tlsca. */
  purpose: string;
  created_at: string;
}

export interface OrganizationRevokedCertificatesTable {
  id: Generated<number>;
  organization_id: number;
  /** Canonical hex (crypto/crl.ts normaliseSerialNumber). */
  serial_number: string;
  /** Which org CA issued it: sign or tls. */
  ca_type: string;
  reason: number;
  revocation_time: string;
  created_at: string;
}

export interface NetworksTable {
  id: Generated<number>;
  name: string;
  /** BESU or FABRIC. */
  platform: string;
  description: string | null;
  status: string;
  /** Besu only; unique among Besu networks. */
  chain_id: number | string | null;
  /** Creation parameters, JSON. */
  config: string;
  /** Besu genesis JSON (Fabric: later, the genesis block). */
  genesis: string | null;
  /** JSON array of validator addresses (Besu). */
  validators: string;
  /** Fabric: the newest config block last read from the channel (reload-block), base64; null until read. */
  config_block: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface NetworkValidatorKeysTable {
  id: Generated<number>;
  network_id: number;
  key_id: number;
}

export interface NetworkNodesTable {
  id: Generated<number>;
  network_id: number;
  node_id: number;
  /** peer or orderer. */
  role: string;
  /** pending, joined, failed or unjoined. */
  status: string;
  /** Why the last join or unjoin failed. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface NodesTable {
  id: Generated<number>;
  name: string;
  /** Unique, [a-z0-9-]; names the node's folder and its supervised process. */
  slug: string;
  /** FABRIC or BESU. */
  platform: string;
  /** FABRIC_PEER, FABRIC_ORDERER or BESU_FULLNODE. */
  node_type: string;
  /** PENDING, STARTING, RUNNING, ERROR, STOPPING or STOPPED. */
  status: string;
  error_message: string | null;
  endpoint: string | null;
  /** Fabric only. */
  organization_id: number | null;
  /** Besu only: the network (genesis) the node runs. */
  network_id: number | null;
  /** Fabric: the signing identity's key; Besu: the node key. */
  key_id: number | null;
  /** Fabric only: the TLS key. */
  tls_key_id: number | null;
  /** The creation request (platform part), JSON. */
  config: string;
  /** What creation resolved: addresses, ports, certificates, paths, binary, version. JSON. */
  deployment: string;
  /** While the node is down (crash or ERROR, not a planned stop): since when, ISO-8601 UTC. */
  down_since: string | null;
  down_reason: string | null;
  /** 1 once `node.downtime` went out for the current outage. */
  down_alerted: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface NodeEventsTable {
  id: Generated<number>;
  node_id: number;
  type: string;
  /** JSON. */
  data: string;
  created_at: string;
}

export interface NodeHealthChecksTable {
  id: Generated<number>;
  node_id: number;
  /** healthy, unhealthy or unreachable. */
  status: string;
  response_time_ms: number;
  error_message: string | null;
  /** JSON. */
  metadata: string;
  checked_at: string;
}

export interface FabricChaincodesTable {
  id: Generated<number>;
  name: string;
  /** The channel (a FABRIC row of `networks`). */
  network_id: number;
  created_at: string;
}

export interface FabricChaincodeDefinitionsTable {
  id: Generated<number>;
  chaincode_id: number;
  version: string;
  sequence: number;
  /** Signature-policy DSL, a channel policy path, or "" (the channel's /Channel/Application/Endorsement). */
  endorsement_policy: string;
  init_required: number;
  /** Private data collections, JSON array. */
  collections: string;
  docker_image: string;
  /** host:port the peers dial (connection.json) and the chaincode server listens on. */
  chaincode_address: string;
  /** docker, node, go, executable or none. */
  source_type: string;
  /** The source folder in the data directory (uploaded or copied), or the executable. */
  source_path: string | null;
  /** TLS between peer and chaincode server (certificates from the org's TLS CA). */
  tls: number;
  /** The chaincode server's TLS key and certificate (issued by a channel org's TLS CA), once made. */
  tls_key_id: number | null;
  /** The ccaas package id installed on peers (label:sha256), once packaged. */
  package_id: string | null;
  /** Extra environment of the chaincode server, JSON object. */
  environment: string;
  /** none, building, running, stopped or error. */
  deploy_status: string;
  deploy_error: string | null;
  /**
   * "console": created here and driven through the lifecycle by this console; "adopted": committed
   * on the channel by someone else and recorded from the peers (no source until one is uploaded).
   */
  origin: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface FabricChaincodeEventsTable {
  id: Generated<number>;
  definition_id: number;
  /** install, approve, commit, deploy, undeploy, build, crash… */
  event_type: string;
  /** JSON: status (started, success, failed), user, peer/org, error and step details. */
  event_data: string;
  created_at: string;
}

export interface ChaincodeProjectsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: string;
  boilerplate: string;
  network_id: number;
  endorsement_policy: string;
  /** stopped | building | running | error */
  status: string;
  chaincode_id: number | null;
  last_error: string | null;
  last_started_at: string | null;
  last_stopped_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BackupTargetsTable {
  id: Generated<number>;
  name: string;
  /** S3 or LOCAL. */
  type: string;
  endpoint: string | null;
  region: string | null;
  bucket_name: string | null;
  /** The repository's path in the bucket (S3) or its absolute directory (LOCAL). */
  bucket_path: string;
  access_key_id: string | null;
  /** Master-key envelopes; never returned. */
  secret_key_enc: string | null;
  restic_password_enc: string;
  force_path_style: number;
  created_at: string;
  updated_at: string;
}

/** The managed Prometheus (one row, id 1). */
export interface PluginsTable {
  id: Generated<number>;
  /** metadata.name: unique, also the folder and the compose project name. */
  name: string;
  /** The YAML as saved. */
  source: string;
  /** The parsed document (JSON). */
  definition: string;
  /** not-deployed, deploying, running, stopping, stopped or error. */
  status: string;
  /** The deployment's parameter values as given (JSON), x-source values as ids. */
  parameters: string | null;
  error: string | null;
  started_at: string | null;
  stopped_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A scrape job an operator added (POST /metrics/job/add), rendered beside the nodes' jobs. */
export interface MetricsJobsTable {
  id: Generated<number>;
  job_name: string;
  /** JSON array of host:port strings. */
  targets: string;
  metrics_path: string;
  /** A Prometheus duration such as 15s; null: the deployment's interval. */
  scrape_interval: string | null;
  created_at: string;
  updated_at: string;
}

export interface NodeTemplatesTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** FABRIC, BESU, ETHEREUM, BITCOIN, POLKADOT or COSMOS (upstream's enum). */
  platform: string;
  /** peer, orderer, validator, fullnode, fabric_network… (upstream's enum). */
  node_type: string;
  version: string;
  /** JSON object with {{variable}} placeholders. */
  config: string;
  /** JSON array of TemplateVariable. */
  variables: string;
  /** JSON array of strings. */
  tags: string;
  /** 0/1: the default of its (platform, node_type); a partial unique index keeps one. */
  is_default: number;
  /** 0/1: deleted templates stay as inactive rows. */
  is_active: number;
  usage_count: Generated<number>;
  created_by: string;
  /** The key of a template the console ships, null for the operators' own. */
  builtin: string | null;
  created_at: string;
  updated_at: string;
}

export interface DockerEnginesTable {
  id: Generated<number>;
  name: string;
  /** unix:///path or tcp://host:port. */
  host: string;
  tls_ca: string | null;
  tls_cert: string | null;
  /** The TLS client key, encrypted under the master key (AAD: the engine's name). */
  tls_key_encrypted: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetricsDeploymentTable {
  id: number;
  /** service (a supervised process) or docker. */
  deployment_mode: string;
  port: number;
  /** Seconds. */
  scrape_interval: number;
  /** The version label the operator asked for. */
  version: string;
  /** 1 while it is deployed, 0 after undeploy. */
  deployed: number;
  /** 1 after POST /metrics/stop (deployed, configuration kept, not running), 0 otherwise. */
  stopped: Generated<number>;
  started_at: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface BackupSchedulesTable {
  id: Generated<number>;
  name: string;
  description: string;
  cron_expression: string;
  target_id: number;
  retention_days: number;
  enabled: number;
  last_run_at: string | null;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BackupsTable {
  id: Generated<number>;
  target_id: number;
  schedule_id: number | null;
  /** pending, running, completed or failed. */
  status: string;
  metadata: string;
  size_bytes: number | string | null;
  duration_ms: number | null;
  snapshot_id: string | null;
  manifest_sha256: string | null;
  error_message: string | null;
  /** verified or failed, after a restore drill. */
  verification_status: string | null;
  verification_error: string | null;
  verified_at: string | null;
  created_by: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

export interface NotificationProvidersTable {
  id: Generated<number>;
  name: string;
  /** SMTP or WEBHOOK. */
  type: string;
  /** Non-secret settings as JSON (the keys of the provider's type). */
  config: string;
  /** Master-key envelope of the SMTP password or the webhook HMAC key; never returned. */
  secret_enc: string | null;
  is_default: number;
  notify_node_downtime: number;
  notify_backup_success: number;
  notify_backup_failure: number;
  notify_s3_conn_issue: number;
  notify_cert_expiry: number;
  notify_peer_lag: number;
  notify_raft_health: number;
  last_test_at: string | null;
  /** success or failure. */
  last_test_status: string | null;
  last_test_message: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertStatesTable {
  id: Generated<number>;
  /** The rule (e.g. certificate.expiry) and the key of what it watches (e.g. key:12). */
  rule_id: string;
  alert_key: string;
  subject: string;
  /** pending, firing or resolved. */
  status: string;
  pending_since: string | null;
  firing_since: string | null;
  resolved_at: string | null;
  /** When the firing event last went out (the cool-down counts from it). */
  last_notified_at: string | null;
  /** 1 when this episode's firing event went out (0: held back by the cool-down). */
  notified: Generated<number>;
  /** The condition's data when it last changed state, JSON. */
  data: string;
  updated_at: string;
}

/** This console's federation identity: one row, id 1 (docs/federation.md). */
export interface FederationIdentityTable {
  id: number;
  /** `cl-` + the first 32 hex characters of SHA-256 of the raw 32-byte Ed25519 public key. */
  node_id: string;
  /** The raw 32-byte Ed25519 public key, base64url. */
  public_key: string;
  /** AES-256-GCM envelope (master key) of the PKCS#8 DER private key; never plaintext. */
  private_key_encrypted: string;
  created_at: string;
}

export interface FederationInvitationsTable {
  id: Generated<number>;
  /** The invitation's one-time nonce (128-bit, base64url). */
  nonce: string;
  bidirectional: number;
  expires_at: string;
  /** Set, once, by the handshake that consumed it. */
  used_at: string | null;
  used_by_node_id: string | null;
  created_by: string | null;
  created_at: string;
}

export interface FederationConnectionsTable {
  id: Generated<number>;
  node_id: string;
  /** The other console's base URL (its federation routes are under /api/v1/federation). */
  endpoint: string;
  /** Its raw Ed25519 public key, base64url. */
  public_key: string;
  /** connected, unreachable or revoked. */
  status: string;
  metrics_federation: number;
  last_seen_at: string | null;
  last_error: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Message nonces seen from each sender within the replay window (unique per sender). */
export interface FederationSeenNoncesTable {
  id: Generated<number>;
  node_id: string;
  nonce: string;
  seen_at: string;
}

/** A share this console sent or received (docs/federation.md, "Sharing"). */
export interface FederationSharesTable {
  /** UUID; the share id of the routes (a received share gets its own, the sender's is remote_share_id). */
  id: string;
  /** sent or received. */
  direction: string;
  /** fabric_network, besu_network or key. */
  kind: string;
  /** Received: the connection it came through. Sent key shares: the recipient. Sent network shares: null. */
  connection_id: number | null;
  /** Received: the sender's share id. */
  remote_share_id: string | null;
  /** The sender's network or key id, as text. */
  resource_id: string;
  /** Network name (Fabric: the channel) or key name. */
  name: string;
  /** fabric or besu for networks; null for keys. */
  platform: string | null;
  /** JSON. Received: what was shared (public material only). Sent: recipients with their outcome, metadata. */
  data_json: string;
  /** Received: pending, accepting, accepted, rejected (keys: active). Sent: sent or failed. */
  status: string;
  /** Why the last accept or send failed. */
  error: string | null;
  /** Received networks: the network the accept imported. */
  local_network_id: number | null;
  /** Who shared it: the sending user's name. */
  shared_by: string | null;
  /** Key shares: when the share expires. */
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ExternalFabricOrganizationsTable {
  id: Generated<number>;
  connection_id: number;
  source_node_id: string;
  /** The organization's id on the console it came from. */
  remote_id: number;
  msp_id: string;
  name: string;
  /** The sign CA certificate (PEM). */
  sign_certificate: string;
  /** The TLS CA certificate (PEM). */
  tls_certificate: string;
  created_at: string;
  updated_at: string;
}

export interface ExternalFabricNodesTable {
  id: Generated<number>;
  connection_id: number;
  source_node_id: string;
  remote_id: number;
  /** peer or orderer. */
  role: string;
  name: string;
  msp_id: string;
  external_endpoint: string;
  sign_certificate: string;
  tls_certificate: string;
  tls_ca_certificate: string;
  version: string;
  created_at: string;
  updated_at: string;
}

export interface ExternalBesuNodesTable {
  id: Generated<number>;
  connection_id: number;
  source_node_id: string;
  remote_id: number;
  name: string;
  enode_url: string;
  rpc_url: string;
  p2p_host: string;
  p2p_port: number;
  metrics_enabled: number;
  metrics_port: number;
  version: string;
  created_at: string;
  updated_at: string;
}

/** A channel config-update proposal (docs/governance.md). */
export interface GovernanceProposalsTable {
  /** UUID (a received proposal gets its own; the sender's is remote_proposal_id). */
  id: string;
  /** The local Fabric network of the channel; null when this console has none for it. */
  network_id: number | null;
  channel_name: string;
  proposal_type: string;
  /** JSON array of the update-config operations. */
  operations_json: string;
  /** The marshalled common.ConfigUpdate, base64: what every signature covers. */
  update_b64: string;
  /** The read/write-set delta as JSON. */
  preview_json: string;
  /** The channel config (common.Config, base64) the update was computed against: policies and MSPs to check signatures with. */
  config_b64: string;
  /** The config sequence the update was computed against (stale once the channel moved on). */
  config_sequence: number;
  /** pending, stale, submitted. */
  status: string;
  tx_id: string | null;
  /** The federation node id of the console that proposed it; null when proposed here. */
  origin_node_id: string | null;
  /** Received proposals: the connection it came through. */
  connection_id: number | null;
  remote_proposal_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** An org admin's ConfigSignature over a proposal's update bytes. */
export interface GovernanceSignaturesTable {
  id: Generated<number>;
  proposal_id: string;
  msp_id: string;
  signature_header_b64: string;
  signature_b64: string;
  /** The user (local) or the sending console's node id (received). */
  signed_by: string;
  /** local or received. */
  source: string;
  connection_id: number | null;
  created_at: string;
}

/** One entry of a proposal's timeline. */
export interface GovernanceEventsTable {
  id: string;
  proposal_id: string;
  event_type: string;
  data_json: string;
  created_at: string;
}

/** A chaincode-definition proposal, made here or received from another console (migration 0018). */
export interface ChaincodeProposalsTable {
  id: Generated<number>;
  /** The proposer's slug, the same on every console it reached. */
  def_id: string;
  name: string;
  /** The local Fabric network of the channel; 0 when this console has none for it. */
  network_id: number;
  channel_name: string;
  version: string;
  sequence: number;
  endorsement_policy: string;
  docker_image: string;
  chaincode_address: string;
  init_required: number;
  /** docker, node, go, executable or none. */
  source_type: string;
  /** SHA-256 (hex) of the source archive; empty when there is none. */
  source_sha256: string;
  /** Received proposals: path of the stored source archive. */
  source_archive: string | null;
  /** proposed, received, accepting, accepted, failed, committed. */
  status: string;
  error: string;
  /** The connection it came in on; 0 when proposed here. */
  connection_id: number;
  shared_by: string;
  shared_by_node_id: string;
  created_by: string;
  chaincode_id: number | null;
  definition_id: number | null;
  /** JSON array of the connection ids it was shared with from here. */
  shared_with: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  chaincode_proposals: ChaincodeProposalsTable;
  governance_proposals: GovernanceProposalsTable;
  governance_signatures: GovernanceSignaturesTable;
  governance_events: GovernanceEventsTable;
  federation_identity: FederationIdentityTable;
  federation_invitations: FederationInvitationsTable;
  federation_connections: FederationConnectionsTable;
  federation_seen_nonces: FederationSeenNoncesTable;
  federation_shares: FederationSharesTable;
  external_fabric_organizations: ExternalFabricOrganizationsTable;
  external_fabric_nodes: ExternalFabricNodesTable;
  external_besu_nodes: ExternalBesuNodesTable;
  alert_states: AlertStatesTable;
  notification_providers: NotificationProvidersTable;
  backup_targets: BackupTargetsTable;
  backup_schedules: BackupSchedulesTable;
  backups: BackupsTable;
  chaincode_projects: ChaincodeProjectsTable;
  fabric_chaincodes: FabricChaincodesTable;
  fabric_chaincode_definitions: FabricChaincodeDefinitionsTable;
  fabric_chaincode_events: FabricChaincodeEventsTable;
  nodes: NodesTable;
  metrics_deployment: MetricsDeploymentTable;
  metrics_jobs: MetricsJobsTable;
  docker_engines: DockerEnginesTable;
  node_templates: NodeTemplatesTable;
  plugins: PluginsTable;
  node_events: NodeEventsTable;
  node_health_checks: NodeHealthChecksTable;
  networks: NetworksTable;
  network_validator_keys: NetworkValidatorKeysTable;
  network_nodes: NetworkNodesTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  api_key_logs: ApiKeyLogsTable;
  audit_logs: AuditLogsTable;
  settings: SettingsTable;
  user_notifications: UserNotificationsTable;
  key_providers: KeyProvidersTable;
  keys: KeysTable;
  fabric_organizations: FabricOrganizationsTable;
  organization_keys: OrganizationKeysTable;
  organization_revoked_certificates: OrganizationRevokedCertificatesTable;
}
