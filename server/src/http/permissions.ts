/**
 * The one permission table. Every route names one entry of `Permission` (or a public/self rule);
 * this file decides which role holds which permission. `GET /permissions` serves it and
 * docs/permissions.md describes it.
 */
export const ROLES = ["admin", "manager", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** Parses a role case-insensitively ("ADMIN", "Admin" and "admin" are the same role). */
export function parseRole(value: string): Role | undefined {
  const lower = value.toLowerCase();
  return (ROLES as readonly string[]).includes(lower) ? (lower as Role) : undefined;
}

interface PermissionDef {
  name: string;
  category: string;
  description: string;
  roles: readonly Role[];
}

const ALL: readonly Role[] = ["admin", "manager", "viewer"];
const OPERATORS: readonly Role[] = ["admin", "manager"];
const ADMIN_VIEWER: readonly Role[] = ["admin", "viewer"];
const ADMIN: readonly Role[] = ["admin"];

export const PERMISSIONS = {
  NETWORK_READ: {
    name: "Read networks",
    category: "Networks",
    description: "List and inspect networks, channels and blocks",
    roles: ALL,
  },
  NETWORK_CREATE: {
    name: "Create networks",
    category: "Networks",
    description: "Create and import networks",
    roles: OPERATORS,
  },
  NETWORK_UPDATE: {
    name: "Update networks",
    category: "Networks",
    description: "Join nodes and change channel configuration",
    roles: OPERATORS,
  },
  NETWORK_DELETE: { name: "Delete networks", category: "Networks", description: "Delete networks", roles: OPERATORS },
  NODE_READ: {
    name: "Read nodes",
    category: "Nodes",
    description: "List nodes, read their logs, events and health",
    roles: ALL,
  },
  NODE_CREATE: {
    name: "Create nodes",
    category: "Nodes",
    description: "Create peers, orderers and Besu nodes",
    roles: OPERATORS,
  },
  NODE_UPDATE: {
    name: "Update nodes",
    category: "Nodes",
    description: "Change node configuration and renew certificates",
    roles: OPERATORS,
  },
  NODE_DELETE: {
    name: "Delete nodes",
    category: "Nodes",
    description: "Delete nodes and their files",
    roles: OPERATORS,
  },
  NODE_EXECUTE: {
    name: "Operate nodes",
    category: "Nodes",
    description: "Start, stop and restart nodes",
    roles: OPERATORS,
  },
  CHAINCODE_READ: {
    name: "Read chaincodes",
    category: "Chaincodes",
    description: "List chaincodes, their definitions, timelines, logs and metadata, and query them",
    roles: ALL,
  },
  CHAINCODE_CREATE: {
    name: "Create chaincodes",
    category: "Chaincodes",
    description: "Create chaincodes and definitions, upload their source",
    roles: OPERATORS,
  },
  CHAINCODE_UPDATE: {
    name: "Update chaincodes",
    category: "Chaincodes",
    description: "Change definitions; install, approve and commit them",
    roles: OPERATORS,
  },
  CHAINCODE_DELETE: {
    name: "Delete chaincodes",
    category: "Chaincodes",
    description: "Delete chaincodes and definitions",
    roles: OPERATORS,
  },
  CHAINCODE_EXECUTE: {
    name: "Run chaincodes",
    category: "Chaincodes",
    description: "Deploy and undeploy chaincode servers, invoke transactions",
    roles: OPERATORS,
  },
  KEY_READ: { name: "Read keys", category: "Keys", description: "List keys and read public material", roles: ALL },
  KEY_CREATE: {
    name: "Create keys",
    category: "Keys",
    description: "Generate keys and certificates",
    roles: OPERATORS,
  },
  KEY_DELETE: { name: "Delete keys", category: "Keys", description: "Delete keys", roles: OPERATORS },
  PROVIDER_READ: {
    name: "Read key providers",
    category: "Key providers",
    description: "List and inspect key providers",
    roles: OPERATORS,
  },
  PROVIDER_CREATE: {
    name: "Create key providers",
    category: "Key providers",
    description: "Add key providers",
    roles: OPERATORS,
  },
  PROVIDER_DELETE: {
    name: "Delete key providers",
    category: "Key providers",
    description: "Remove key providers",
    roles: OPERATORS,
  },
  ORGANIZATION_READ: {
    name: "Read organizations",
    category: "Organizations",
    description: "List organizations and their certificates",
    roles: ALL,
  },
  ORGANIZATION_CREATE: {
    name: "Create organizations",
    category: "Organizations",
    description: "Create organizations and issue identities",
    roles: OPERATORS,
  },
  ORGANIZATION_UPDATE: {
    name: "Update organizations",
    category: "Organizations",
    description:
      "Renew and revoke certificates; write an org admin's MSP folder on the console host (MSP export, network config)",
    roles: OPERATORS,
  },
  ORGANIZATION_DELETE: {
    name: "Delete organizations",
    category: "Organizations",
    description: "Delete organizations",
    roles: OPERATORS,
  },
  USER_READ: { name: "Read users", category: "Users", description: "List users", roles: ADMIN_VIEWER },
  USER_CREATE: { name: "Create users", category: "Users", description: "Create users", roles: ADMIN },
  USER_UPDATE: {
    name: "Update users",
    category: "Users",
    description: "Change a user's name, role or password",
    roles: ADMIN,
  },
  USER_DELETE: { name: "Delete users", category: "Users", description: "Delete users", roles: ADMIN },
  API_KEY_READ: {
    name: "Read API keys",
    category: "API keys",
    description: "List your API keys and their usage",
    roles: ALL,
  },
  API_KEY_CREATE: {
    name: "Create API keys",
    category: "API keys",
    description: "Create API keys for yourself",
    roles: OPERATORS,
  },
  API_KEY_REVOKE: {
    name: "Revoke API keys",
    category: "API keys",
    description: "Revoke your API keys",
    roles: OPERATORS,
  },
  AUDIT_READ: { name: "Read audit logs", category: "Audit", description: "Read the audit log", roles: ADMIN_VIEWER },
  SETTINGS_READ: { name: "Read settings", category: "System", description: "Read global settings", roles: ALL },
  OPERATION_READ: {
    name: "Read operation progress",
    category: "System",
    description:
      "See the phases and elapsed time of running and recently finished project runs, backups and chaincode steps",
    roles: ALL,
  },
  SYSTEM_CONFIG: {
    name: "Change settings",
    category: "System",
    description: "Change global settings",
    roles: OPERATORS,
  },
  BACKUP_READ: {
    name: "Read backups",
    category: "Backups",
    description: "List backups, schedules and targets (secrets masked), preview cron expressions",
    roles: ALL,
  },
  BACKUP_RUN: {
    name: "Run backups",
    category: "Backups",
    description: "Back up now to a target an admin made, delete backups",
    roles: OPERATORS,
  },
  BACKUP_CONFIG: {
    name: "Schedule backups",
    category: "Backups",
    description: "Create, change, enable and delete backup schedules (on targets an admin made)",
    roles: OPERATORS,
  },
  BACKUP_TARGETS: {
    name: "Configure backup targets",
    category: "Backups",
    description:
      "Create, change, test and delete backup targets (where the console's data goes) and make the recovery key that wraps the master key in snapshots",
    roles: ADMIN,
  },
  BACKUP_RESTORE: {
    name: "Restore backups",
    category: "Backups",
    description:
      "Run restore drills (a snapshot restored onto this host and compared with its manifest) and restore a snapshot into a new data directory on this host",
    roles: ADMIN,
  },
  METRICS_READ: {
    name: "Read metrics",
    category: "Monitoring",
    description:
      "Prometheus status, targets and scrape jobs, node metrics queries (scoped to the node's own series), and connected consoles' node metrics as far as they grant",
    roles: ALL,
  },
  METRICS_CONFIG: {
    name: "Manage Prometheus",
    category: "Monitoring",
    description:
      "Deploy, stop, start, refresh, reload and undeploy the managed Prometheus, and add and remove its custom scrape jobs",
    roles: OPERATORS,
  },
  NOTIFICATION_PROVIDER_READ: {
    name: "Read notification providers",
    category: "Monitoring",
    description: "List and inspect email and webhook notification providers (secrets masked)",
    roles: ALL,
  },
  NOTIFICATION_PROVIDER_CONFIG: {
    name: "Configure notification providers",
    category: "Monitoring",
    description: "Create, change, delete and send a test through email and webhook notification providers",
    roles: OPERATORS,
  },
  PLUGIN_READ: {
    name: "Read plugins",
    category: "Plugins",
    description: "List and inspect plugins, their services, logs and the catalogue",
    roles: OPERATORS,
  },
  PLUGIN_MANAGE: {
    name: "Manage plugins",
    category: "Plugins",
    description: "Install, edit, delete, deploy, stop and resume plugins",
    roles: OPERATORS,
  },
  DOCKER_ENGINE_MANAGE: {
    name: "Manage Docker engines",
    category: "System",
    description:
      "Register and remove the Docker engines nodes can be placed on (a new engine is a new destination for node keys)",
    roles: ADMIN,
  },
  TEMPLATE_READ: {
    name: "Read node templates",
    category: "Templates",
    description: "List, search and export node templates (they hold configuration, never secrets)",
    roles: ALL,
  },
  TEMPLATE_MANAGE: {
    name: "Manage node templates",
    category: "Templates",
    description:
      "Create, change, delete, import and apply node templates and set the defaults; environment variables only an admin may give a node stay admin-only in a template",
    roles: OPERATORS,
  },
  HOST_COMMAND: {
    name: "Define host commands",
    category: "System",
    description:
      "Define what the console runs on its host: plugins that are not a built-in catalogue entry as published (their own processes or compose file), prebuilt chaincode executables, chaincode source copied from a host path (source_path), plugin registries",
    roles: ADMIN,
  },
  FEDERATION_READ: {
    name: "Read federation",
    category: "Federation",
    description:
      "See this console's federation identity, the connected consoles and their status, their live nodes and the external nodes",
    roles: ALL,
  },
  FEDERATION_MANAGE: {
    name: "Manage federation",
    category: "Federation",
    description: "Generate and accept invitations, disconnect consoles, sync and delete external nodes",
    roles: OPERATORS,
  },
  FEDERATION_REGISTER: {
    name: "Register consoles",
    category: "Federation",
    description:
      "Register a console by its public key and address without an invitation (upstream's /node/register-peer): the console then sends to that address",
    roles: ADMIN,
  },
  GOVERNANCE_READ: {
    name: "Read channel proposals",
    category: "Governance",
    description: "See channel config-update proposals, their signatures, policy status and timeline",
    roles: ALL,
  },
  GOVERNANCE_MANAGE: {
    name: "Manage channel proposals",
    category: "Governance",
    description:
      "Propose channel config updates, sign them as this console's org admins, withdraw signatures, share proposals and signatures with connected consoles, recompute and submit",
    roles: OPERATORS,
  },
} as const satisfies Record<string, PermissionDef>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What a route requires:
 * - a permission code: the caller's role must hold it;
 * - "public": anyone, no credentials needed;
 * - "self": any signed-in caller acting on their own account or inbox (logout, own password,
 *   own notifications). The read-only demo visitor is refused for "self" mutations.
 */
export type RouteAccess = Permission | "public" | "self";

export function roleHas(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly Role[]).includes(role);
}

export function permissionsOf(role: Role): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleHas(role, p));
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "Full access, including users and audit logs",
  manager: "Operates infrastructure: nodes, networks, keys, organizations, plugins and settings",
  viewer: "Read-only access",
};
