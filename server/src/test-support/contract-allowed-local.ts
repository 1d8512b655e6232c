/*
 * Deliberate deviations from upstream's reference in the console's own areas (chaincode, projects, backups,
 * metrics, notification providers, alerts, plugins), each with its reason. http/contract.test.ts composes them
 * into its allow-list.
 */

/**
 * The reference attaches the node config types (types.FabricPeerConfig, FabricOrdererConfig,
 * BesuNodeConfig, http.UpdateFabricPeerRequest) to their fields through `allOf`, which this
 * comparison reads as free-form; our request schemas spell out the same fields.
 */
export const viaAllOf = (op: string, field: string, props: string[]): Record<string, string> =>
  Object.fromEntries(
    props.map((p) => [
      `${op} request:${field}.${p}`,
      `same field as the reference's ${field} type, which the reference attaches through allOf`,
    ]),
  );

/** Read-shape fields clients echo into updates (the upstream server ignores unknown fields; we accept these by name). */
export const echoed = (op: string, field: string, props: string[]): Record<string, string> =>
  Object.fromEntries(
    props.map((p) => [
      `${op} request:${field}.${p}`,
      `field of the node's read shape (types.${field === "fabricPeer" ? "FabricPeerConfig" : "FabricOrdererConfig"}) that clients echo back; accepted when unchanged`,
    ]),
  );
export const ECHO = [
  "autoRenewalDays",
  "autoRenewalEnabled",
  "certificateExpiration",
  "mspId",
  "name",
  "organizationId",
  "type",
];

/** Product additions of the chaincode lifecycle (issue 11) to the reference's chaincodeploy shapes. */
const COLLECTION = [
  "",
  "[].blockToLive",
  "[].endorsementPolicy",
  "[].maxPeerCount",
  "[].memberOnlyRead",
  "[].memberOnlyWrite",
  "[].name",
  "[].policy",
  "[].requiredPeerCount",
].map((p) => `collections${p}`);
const DEFINITION_WRITE = [
  ...COLLECTION,
  "collections[].endorsementPolicy.channelConfigPolicy",
  "collections[].endorsementPolicy.signaturePolicy",
  "environment_variables",
  "init_required",
  "source_path",
  "source_type",
  "tls",
];
const DEFINITION_READ = [
  ...COLLECTION,
  "deploy_error",
  "deploy_status",
  "environment_variables",
  "init_required",
  "origin",
  "package_id",
  "source_path",
  "source_type",
  "tls",
  "updated_at",
];
const chaincodeAdditions = (
  op: string,
  kind: "request" | "response",
  prefix: string,
  props: string[],
  reason: string,
): Record<string, string> =>
  Object.fromEntries(props.map((p) => [`${op} ${kind}:${prefix}${p}`, `product addition (issue 11): ${reason}`]));
const DEF_REASON =
  "what _lifecycle needs (init_required, private data collections), where the code comes from and how its server runs";
export const CHAINCODE_ALLOWED: Record<string, string> = {
  ...chaincodeAdditions(
    "GET /sc/fabric/chaincodes",
    "response",
    "chaincodes[].",
    ["definitions_count", "latest_definition"],
    "the list shows each chaincode's latest definition",
  ),
  ...chaincodeAdditions(
    "POST /sc/fabric/chaincodes",
    "response",
    "chaincode.",
    ["definitions_count", "latest_definition"],
    "same shape as the list",
  ),
  ...chaincodeAdditions(
    "GET /sc/fabric/chaincodes/{id}",
    "response",
    "",
    ["definitions_count", "latest_definition"],
    "same shape as the list",
  ),
  ...chaincodeAdditions(
    "GET /sc/fabric/chaincodes/{chaincodeId}/definitions",
    "response",
    "definitions[].",
    DEFINITION_READ.filter((p) => !p.startsWith("collections[")),
    DEF_REASON,
  ),
  ...chaincodeAdditions(
    "POST /sc/fabric/chaincodes/{chaincodeId}/definitions",
    "request",
    "",
    DEFINITION_WRITE,
    DEF_REASON,
  ),
  ...chaincodeAdditions(
    "POST /sc/fabric/chaincodes/{chaincodeId}/definitions",
    "response",
    "definition.",
    DEFINITION_READ,
    DEF_REASON,
  ),
  ...chaincodeAdditions(
    "GET /sc/fabric/chaincodes/{chaincodeId}/definitions/{definitionId}",
    "response",
    "definition.",
    DEFINITION_READ,
    DEF_REASON,
  ),
  ...chaincodeAdditions("PUT /sc/fabric/definitions/{definitionId}", "request", "", DEFINITION_WRITE, DEF_REASON),
  ...chaincodeAdditions(
    "PUT /sc/fabric/definitions/{definitionId}",
    "response",
    "",
    [
      ...DEFINITION_READ,
      "collections[].endorsementPolicy.channelConfigPolicy",
      "collections[].endorsementPolicy.signaturePolicy",
    ],
    DEF_REASON,
  ),
  ...chaincodeAdditions(
    "POST /sc/fabric/chaincodes/{chaincodeId}/invoke",
    "response",
    "",
    ["transaction_id"],
    "the transaction id of the call",
  ),
  ...chaincodeAdditions(
    "POST /sc/fabric/chaincodes/{chaincodeId}/query",
    "response",
    "",
    ["transaction_id"],
    "the transaction id of the call",
  ),
  "GET /sc/fabric/definitions/{definitionId}/status":
    "product addition (issue 11): installed per peer, approved per org and committed, read from the peers for the lifecycle screen",
  "GET /networks/fabric/{id}/organizations/{orgId}/network-config":
    "the path upstream's own CLI (`network-config pull`) and Terraform data source call; the reference documents the same handler as .../config, which is served too",
  "GET /networks/fabric/{id}/chaincodes/committed":
    "product addition (issue 32): the chaincodes committed on a channel, read from a peer, and those committed outside this console adopted",
  "POST /organizations/{id}/msp/export":
    "product addition (issue 11): writes an org identity's MSP folder on the console host for Fabric's own CLI (the key never leaves the host)",
  "POST /sc/fabric/definitions/{definitionId}/source":
    "product addition (issue 11): upload the chaincode's code (archive or executable) to run it without Docker",
};

/** Product additions of chaincode projects (issue 12). */
const PROJECT_READ = ["chaincodeId", "createdAt", "lastError"];
const PROJECT_REASON =
  "the chaincode a project's runs deploy, when it was made, and what failed in its last build or run (the status screen shows them)";
export const PROJECT_ALLOWED: Record<string, string> = {
  ...chaincodeAdditions("GET /chaincode-projects", "response", "projects[].", PROJECT_READ, PROJECT_REASON),
  ...chaincodeAdditions("GET /chaincode-projects/{id}", "response", "", PROJECT_READ, PROJECT_REASON),
  ...chaincodeAdditions(
    "PUT /chaincode-projects/{id}/endorsement-policy",
    "response",
    "",
    PROJECT_READ,
    PROJECT_REASON,
  ),
  ...chaincodeAdditions(
    "POST /chaincode-projects",
    "response",
    "",
    [...PROJECT_READ, "lastStartedAt", "lastStoppedAt", "networkName", "networkPlatform", "status"],
    "create answers with the whole project, as GET does, so a client needs no second call",
  ),
  "POST /chaincode-projects/{id}/commits/{commitHash}/restore":
    "product addition (issue 12): put a project's files back as they were at a commit, recorded as a new commit",
  "GET /ai/boilerplates response:[].language":
    "product addition (issue 12): the language (typescript, javascript, go) the editor highlights",
};

/** Product additions of backups (issue 13). */
const BACKUP_READ = [
  "createdBy",
  "durationMs",
  "snapshotId",
  "targetName",
  "verificationError",
  "verificationStatus",
  "verifiedAt",
];
const BACKUP_REASON =
  "who started it, how long it took, its restic snapshot (what a restore names) and the result of its restore drill";
export const BACKUP_ALLOWED: Record<string, string> = {
  ...chaincodeAdditions("GET /backups", "response", "[].", BACKUP_READ, BACKUP_REASON),
  ...chaincodeAdditions("POST /backups", "response", "", BACKUP_READ, BACKUP_REASON),
  ...chaincodeAdditions("GET /backups/{id}", "response", "", BACKUP_READ, BACKUP_REASON),
  ...Object.fromEntries(
    [
      "GET /backups/targets response:[].secretKey",
      "POST /backups/targets response:secretKey",
      "GET /backups/targets/{id} response:secretKey",
      "PUT /backups/targets/{id} response:secretKey",
    ].map((k) => [k, "the S3 secret key, masked ('********' when set): a client sees it is set, never its value"]),
  ),
  "POST /backups/targets/test":
    "product addition (issue 13): the forms' Test connection button checks settings without saving them",
  "POST /backups/{id}/verify":
    "product addition (issue 13): a restore drill (restic check, restore into a scratch folder, compare with the manifest)",
  "GET /backups/recovery-key":
    "product addition (issue 29): whether the recovery key that wraps the master key in snapshots exists, and its fingerprint",
  "POST /backups/recovery-key":
    "product addition (issue 29): an admin makes the recovery key, shown once; snapshots hold the master key only wrapped under it",
  "GET /backups/targets/{id}/snapshots":
    "product addition (issue 33): the restore screen lists a target's restic snapshots (upstream has no snapshot route)",
  "POST /backups/targets/{id}/restore":
    "product addition (issue 33): an admin restores a snapshot into a new data directory from the UI (upstream restores only by hand)",
};

export const METRICS_ALLOWED: Record<string, string> = {
  "GET /metrics/defaults response:binary_found":
    "product addition (issue 14): whether a prometheus binary was found, so the form can say what to install",
  "GET /metrics/status response:scrape_interval_seconds":
    "product addition (issue 14): scrape_interval is Go's time.Duration (nanoseconds) on the wire; this is seconds",
  "GET /metrics/status response:targets":
    "product addition (issue 14): how many scrape jobs (nodes, plugins, custom jobs) the configuration holds",
  "GET /metrics/status response:binary_version":
    "product addition (issue 32): what the running Prometheus reports (2.42.0+ds); version echoes the prometheus_version label it was deployed with, as upstream does",
  "POST /metrics/node/{id}/query response:warnings": "Prometheus's own warnings field, passed through",
  "POST /metrics/connection/{id}/query response:warnings": "Prometheus's own warnings field, passed through",
  "POST /metrics/job/{jobName}/query response:warnings": "Prometheus's own warnings field, passed through",
  ...Object.fromEntries(
    ["GET /metrics/job/{jobName}/range", "GET /metrics/node/{id}/range", "GET /metrics/connection/{id}/range"].flatMap(
      (op) => [
        [`${op} response:error`, "the common.QueryResult shape every query route answers"],
        [`${op} response:warnings`, "Prometheus's own warnings field, passed through"],
      ],
    ),
  ),
};
/** Product additions of notification providers (issue 14). */
const PROVIDER_FLAGS = ["notifyCertExpiry", "notifyPeerLag", "notifyRaftHealth"];
const PROVIDER_FLAGS_REASON =
  "product addition (issue 14): routing flags for the console's alerts (certificate expiry, peer lag, Raft health)";
const TERRAFORM_ALIASES = [
  "is_default",
  "notify_backup_failure",
  "notify_backup_success",
  "notify_node_downtime",
  "notify_s3_conn_issue",
];
const TERRAFORM_REASON =
  "the upstream Terraform provider sends these snake_case spellings; accepted as aliases (camelCase wins)";
export const PROVIDER_ALLOWED: Record<string, string> = Object.fromEntries([
  ...[
    "GET /notifications/providers response:[].",
    "POST /notifications/providers response:",
    "GET /notifications/providers/{id} response:",
    "PUT /notifications/providers/{id} response:",
    "POST /notifications/providers request:",
    "PUT /notifications/providers/{id} request:",
  ].flatMap((prefix) => PROVIDER_FLAGS.map((f) => [`${prefix}${f}`, PROVIDER_FLAGS_REASON])),
  ...["POST /notifications/providers request:", "PUT /notifications/providers/{id} request:"].flatMap((prefix) =>
    TERRAFORM_ALIASES.map((f) => [`${prefix}${f}`, TERRAFORM_REASON]),
  ),
]);
/** Product additions of the alert engine (issue 14): its thresholds in the settings and its list. */
const ALERT_SETTINGS = [
  "alertEvaluationInterval",
  "alertCooldownMinutes",
  "alertCertExpiryDays",
  "alertPeerLagBlocks",
  "alertPeerLagMinutes",
  "alertRaftMinutes",
  "nodeDowntimeGraceSeconds",
];
export const PLUGIN_SETTINGS_ALLOWED: Record<string, string> = Object.fromEntries(
  ["POST /settings response", "GET /settings response", "POST /settings request"].map((where) => [
    `${where}:config.pluginRegistries`,
    "product addition (issue 15): HTTP plugin indexes listed by /plugins/available beside the built-in catalogue",
  ]),
);
/** Product additions of plugins (issue 15, docs/plugins.md). */
const PROCESS_FORM = "product addition (issue 15): spec.processes, plugins run as supervised processes without Docker";
export const PLUGIN_ALLOWED: Record<string, string> = {
  "POST /plugins/validate":
    "product addition (issue 15): checks a plugin's YAML without saving it (the editor's inline errors)",
  "GET /plugins/sources/{type}":
    "product addition (issue 15): what an x-source parameter can name, for the deploy form's pickers",
  ...Object.fromEntries(
    [
      "GET /plugins response:[].",
      "POST /plugins response:",
      "GET /plugins/{name} response:",
      "PUT /plugins/{name} response:",
    ].flatMap((where) => [
      [`${where}spec.processes`, PROCESS_FORM],
      [`${where}yaml`, "product addition (issue 15): the YAML as saved (comments kept), for the editor"],
      ...(where.endsWith("[].") ? [] : [[`${where}spec.processes[].name`, PROCESS_FORM]]),
    ]),
  ),
  ...Object.fromEntries(
    ["GET /plugins/available response:", "POST /plugins/available/refresh response:"].flatMap((where) => [
      [`${where}errors`, "product addition (issue 15): registries that could not be read"],
      [`${where}errors[].message`, "product addition (issue 15): registries that could not be read"],
      [`${where}errors[].source`, "product addition (issue 15): registries that could not be read"],
      [`${where}plugins[].installed`, "product addition (issue 15): whether a plugin of that name is installed here"],
    ]),
  ),
};
export const ALERT_ALLOWED: Record<string, string> = {
  ...Object.fromEntries(
    ["POST /settings response", "GET /settings response", "POST /settings request"].flatMap((where) =>
      ALERT_SETTINGS.map((f) => [
        `${where}:config.${f}`,
        "product addition (issue 14): alert thresholds, evaluation interval and cool-down (docs/alerts.md)",
      ]),
    ),
  ),
  "GET /alerts": "product addition (issue 14): the alert engine's pending, firing and recently resolved alerts",
  "GET /operations":
    "product addition (issue 33): phases and elapsed time of running project runs, backups and chaincode steps, read after a reload",
};
