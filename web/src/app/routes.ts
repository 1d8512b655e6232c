import type { PageLoader } from "@/app/lazy-page";

/** One screen of the console (spec §2). `load` absent means the screen is still pending. */
export interface AppRoute {
  /** React Router path without the leading slash, e.g. "settings/api-keys/:id". */
  path: string;
  /** Screen name: page title and breadcrumb. */
  title: string;
  load?: PageLoader;
  /**
   * `:id` is not a numeric database id (connect/:id names a console by its node id, "cl-…"), so the
   * screen itself says when it names nothing.
   */
  textId?: boolean;
}

const dashboard: PageLoader = () => import("@/pages/dashboard/DashboardPage").then((m) => m.DashboardPage);
const account: PageLoader = () => import("@/pages/account/AccountPage").then((m) => m.AccountPage);
const access: PageLoader = () => import("@/pages/settings/AccessPage").then((m) => m.AccessPage);
const network: PageLoader = () => import("@/pages/settings/NetworkSettingsPage").then((m) => m.NetworkSettingsPage);
const mcp: PageLoader = () => import("@/pages/settings/McpSettingsPage").then((m) => m.McpSettingsPage);
const dockerEngines: PageLoader = () => import("@/pages/settings/DockerEnginesPage").then((m) => m.DockerEnginesPage);
const general: PageLoader = () => import("@/pages/settings/GeneralSettingsPage").then((m) => m.GeneralSettingsPage);
const users: PageLoader = () => import("@/pages/users/UsersPage").then((m) => m.UsersPage);
const apiKeys: PageLoader = () => import("@/pages/api-keys/ApiKeysPage").then((m) => m.ApiKeysPage);
const apiKeyNew: PageLoader = () => import("@/pages/api-keys/ApiKeyCreatePage").then((m) => m.ApiKeyCreatePage);
const apiKey: PageLoader = () => import("@/pages/api-keys/ApiKeyDetailPage").then((m) => m.ApiKeyDetailPage);
const auditLogs: PageLoader = () => import("@/pages/audit/AuditLogsPage").then((m) => m.AuditLogsPage);
const auditLog: PageLoader = () => import("@/pages/audit/AuditLogDetailPage").then((m) => m.AuditLogDetailPage);
const docs: PageLoader = () => import("@/pages/docs/ApiDocsPage").then((m) => m.ApiDocsPage);
const keys: PageLoader = () => import("@/pages/keys/KeysPage").then((m) => m.KeysPage);
const key: PageLoader = () => import("@/pages/keys/KeyDetailPage").then((m) => m.KeyDetailPage);
const backups: PageLoader = () => import("@/pages/backups/BackupsPage").then((m) => m.BackupsPage);
const backupTargetCreate: PageLoader = () =>
  import("@/pages/backups/BackupTargetPage").then((m) => m.BackupTargetCreatePage);
const backupTarget: PageLoader = () => import("@/pages/backups/BackupTargetPage").then((m) => m.BackupTargetDetailPage);
const backupRestore: PageLoader = () => import("@/pages/backups/BackupRestorePage").then((m) => m.BackupRestorePage);
const providerCreate: PageLoader = () => import("@/pages/monitoring/ProviderPage").then((m) => m.ProviderCreatePage);
const providerDetail: PageLoader = () => import("@/pages/monitoring/ProviderPage").then((m) => m.ProviderDetailPage);
const providers: PageLoader = () => import("@/pages/key-providers/KeyProvidersPage").then((m) => m.KeyProvidersPage);
const providerAdd: PageLoader = () =>
  import("@/pages/key-providers/KeyProviderAddPage").then((m) => m.KeyProviderAddPage);
const provider: PageLoader = () =>
  import("@/pages/key-providers/KeyProviderDetailPage").then((m) => m.KeyProviderDetailPage);
const providerVault: PageLoader = () =>
  import("@/pages/key-providers/VaultProviderCreatePage").then((m) => m.VaultProviderCreatePage);
const providerAwsKms: PageLoader = () =>
  import("@/pages/key-providers/AwsKmsProviderCreatePage").then((m) => m.AwsKmsProviderCreatePage);
const organizations: PageLoader = () =>
  import("@/pages/organizations/OrganizationsPage").then((m) => m.OrganizationsPage);
const organization: PageLoader = () =>
  import("@/pages/organizations/OrganizationDetailPage").then((m) => m.OrganizationDetailPage);
const networks: PageLoader = () => import("@/pages/networks/NetworksPage").then((m) => m.NetworksPage);
const networkImport: PageLoader = () => import("@/pages/networks/NetworkImportPage").then((m) => m.NetworkImportPage);
const besuNetworks: PageLoader = () => import("@/pages/networks/BesuNetworksPage").then((m) => m.BesuNetworksPage);
const besuCreate: PageLoader = () =>
  import("@/pages/networks/BesuNetworkCreatePage").then((m) => m.BesuNetworkCreatePage);
const besuBulk: PageLoader = () => import("@/pages/networks/BesuBulkCreatePage").then((m) => m.BesuBulkCreatePage);
const besuBlock: PageLoader = () => import("@/pages/networks/BesuBlockPage").then((m) => m.BesuBlockPage);
const fabricNetworks: PageLoader = () =>
  import("@/pages/networks/FabricNetworksPage").then((m) => m.FabricNetworksPage);
const besuContracts: PageLoader = () =>
  import("@/pages/smart-contracts/BesuContractsPage").then((m) => m.BesuContractsPage);
const smartContracts: PageLoader = () =>
  import("@/pages/smart-contracts/SmartContractsPage").then((m) => m.SmartContractsPage);
const fabricChaincodes: PageLoader = () =>
  import("@/pages/smart-contracts/FabricChaincodesPage").then((m) => m.FabricChaincodesPage);
const chaincode: PageLoader = () =>
  import("@/pages/smart-contracts/ChaincodeDetailPage").then((m) => m.ChaincodeDetailPage);
const chaincodeDefinitionForm: PageLoader = () =>
  import("@/pages/smart-contracts/ChaincodeDefinitionFormPage").then((m) => m.ChaincodeDefinitionFormPage);
const chaincodePlayground: PageLoader = () =>
  import("@/pages/smart-contracts/ChaincodePlaygroundPage").then((m) => m.ChaincodePlaygroundPage);
const project: PageLoader = () => import("@/pages/smart-contracts/projects/ProjectPage").then((m) => m.ProjectPage);
const projectEditor: PageLoader = () =>
  import("@/pages/smart-contracts/projects/ProjectEditorPage").then((m) => m.ProjectEditorPage);
const chaincodePropose: PageLoader = () =>
  import("@/pages/networks/proposals/ChaincodeProposePage").then((m) => m.ChaincodeProposePage);
const networkChaincode: PageLoader = () =>
  import("@/pages/smart-contracts/NetworkChaincodePage").then((m) => m.NetworkChaincodePage);
const fabricCreate: PageLoader = () =>
  import("@/pages/networks/FabricNetworkCreatePage").then((m) => m.FabricNetworkCreatePage);
const fabricNetwork: PageLoader = () =>
  import("@/pages/networks/FabricNetworkDetailPage").then((m) => m.FabricNetworkDetailPage);
const fabricBlocks: PageLoader = () => import("@/pages/networks/FabricBlocksPage").then((m) => m.FabricBlocksPage);
const fabricBlock: PageLoader = () => import("@/pages/networks/FabricBlockPage").then((m) => m.FabricBlockPage);
const fabricJoin: PageLoader = () => import("@/pages/fabric-join/FabricJoinPage").then((m) => m.FabricJoinPage);
const fabricWizard: PageLoader = () => import("@/pages/fabric-wizard/FabricWizardPage").then((m) => m.FabricWizardPage);
const proposal: PageLoader = () => import("@/pages/governance/ProposalDetailPage").then((m) => m.ProposalDetailPage);
const proposalCreate: PageLoader = () =>
  import("@/pages/governance/ProposalCreatePage").then((m) => m.ProposalCreatePage);
const proposalSign: PageLoader = () => import("@/pages/governance/ProposalSignPage").then((m) => m.ProposalSignPage);
const besuNetwork: PageLoader = () =>
  import("@/pages/networks/BesuNetworkDetailPage").then((m) => m.BesuNetworkDetailPage);

const analytics: PageLoader = () => import("@/pages/analytics/AnalyticsPage").then((m) => m.AnalyticsPage);
const troubleshooting: PageLoader = () =>
  import("@/pages/troubleshooting/TroubleshootingPage").then((m) => m.TroubleshootingPage);
const monitoring: PageLoader = () => import("@/pages/monitoring/MonitoringPage").then((m) => m.MonitoringPage);

const nodes: PageLoader = () => import("@/pages/nodes/NodesPage").then((m) => m.NodesPage);
const templates: PageLoader = () => import("@/pages/templates/TemplatesPage").then((m) => m.TemplatesPage);
const templateNew: PageLoader = () => import("@/pages/templates/TemplateCreatePage").then((m) => m.TemplateCreatePage);
const template: PageLoader = () => import("@/pages/templates/TemplateDetailPage").then((m) => m.TemplateDetailPage);
const nodeCreate: PageLoader = () => import("@/pages/nodes/NodeCreatePage").then((m) => m.NodeCreatePage);
const nodeDetail: PageLoader = () => import("@/pages/nodes/NodeDetailPage").then((m) => m.NodeDetailPage);
const fabricNodeCreate: PageLoader = () =>
  import("@/pages/nodes/FabricNodeCreatePage").then((m) => m.FabricNodeCreatePage);
const fabricNodeEdit: PageLoader = () => import("@/pages/nodes/FabricNodeEditPage").then((m) => m.FabricNodeEditPage);

const nodeLogs: PageLoader = () => import("@/pages/nodes/NodeLogsPage").then((m) => m.NodeLogsPage);

const fabricBulk: PageLoader = () => import("@/pages/nodes/FabricBulkCreatePage").then((m) => m.FabricBulkCreatePage);

const plugins: PageLoader = () => import("@/pages/plugins/PluginsPage").then((m) => m.PluginsPage);
const pluginCreate: PageLoader = () => import("@/pages/plugins/PluginEditorPage").then((m) => m.PluginCreatePage);
const pluginEdit: PageLoader = () => import("@/pages/plugins/PluginEditorPage").then((m) => m.PluginEditPage);
const plugin: PageLoader = () => import("@/pages/plugins/PluginDetailPage").then((m) => m.PluginDetailPage);
const pluginDeploy: PageLoader = () => import("@/pages/plugins/PluginDeployPage").then((m) => m.PluginDeployPage);

const connect: PageLoader = () => import("@/pages/connect/ConnectPage").then((m) => m.ConnectPage);
const connection: PageLoader = () => import("@/pages/connect/ConnectionPage").then((m) => m.ConnectionPage);
const sharedNetworks: PageLoader = () =>
  import("@/pages/shared-networks/SharedNetworksPage").then((m) => m.SharedNetworksPage);
const externalNodes: PageLoader = () =>
  import("@/pages/external-nodes/ExternalNodesPage").then((m) => m.ExternalNodesPage);

const besuNodeCreate: PageLoader = () => import("@/pages/nodes/BesuNodeFormPage").then((m) => m.BesuNodeCreatePage);
const besuNodeEdit: PageLoader = () => import("@/pages/nodes/BesuNodeFormPage").then((m) => m.BesuNodeEditPage);

/** Every route of spec §2, in its order. Screens without `load` render the pending placeholder. */
export const ROUTES: readonly AppRoute[] = [
  { path: "dashboard", title: "Dashboard", load: dashboard },
  { path: "fabric-wizard", title: "Fabric Network Wizard", load: fabricWizard },
  { path: "fabric-join", title: "Join Fabric Network", load: fabricJoin },
  { path: "account", title: "Account", load: account },
  { path: "nodes", title: "Nodes", load: nodes },
  { path: "nodes/create", title: "Create Node", load: nodeCreate },
  { path: "nodes/logs", title: "Node Logs", load: nodeLogs },
  { path: "nodes/:id", title: "Node", load: nodeDetail },
  { path: "nodes/fabric/create", title: "Create Fabric Node", load: fabricNodeCreate },
  { path: "nodes/fabric/edit/:id", title: "Edit Fabric Node", load: fabricNodeEdit },
  { path: "nodes/fabric/bulk", title: "Bulk Create Fabric Nodes", load: fabricBulk },
  { path: "nodes/besu/create", title: "Create Besu Node", load: besuNodeCreate },
  { path: "nodes/besu/edit/:id", title: "Edit Besu Node", load: besuNodeEdit },
  { path: "templates", title: "Templates", load: templates },
  { path: "templates/new", title: "New Template", load: templateNew },
  { path: "templates/:id", title: "Template", load: template },
  { path: "smart-contracts", title: "Smart Contracts", load: smartContracts },
  { path: "smart-contracts/fabric", title: "Fabric Chaincodes", load: fabricChaincodes },
  { path: "smart-contracts/besu", title: "Besu Contracts", load: besuContracts },
  { path: "smart-contracts/fabric/:id/playground", title: "Chaincode Playground", load: chaincodePlayground },
  { path: "sc/fabric/chaincodes/:id", title: "Chaincode", load: chaincode },
  { path: "sc/fabric/chaincodes/:id/add-definition", title: "Add Chaincode Definition", load: chaincodeDefinitionForm },
  {
    path: "sc/fabric/chaincodes/:id/definitions/:definitionId/edit",
    title: "Edit Chaincode Definition",
    load: chaincodeDefinitionForm,
  },
  { path: "sc/fabric/projects/chaincodes/:id", title: "Chaincode Project", load: project },
  { path: "sc/fabric/projects/chaincodes/:id/editor", title: "Chaincode Editor", load: projectEditor },
  { path: "monitoring", title: "Monitoring", load: monitoring },
  { path: "monitoring/providers/new", title: "New Monitoring Provider", load: providerCreate },
  { path: "monitoring/providers/:id", title: "Monitoring Provider", load: providerDetail },
  { path: "settings/monitoring", title: "Monitoring", load: monitoring },
  { path: "networks", title: "Networks", load: networks },
  { path: "networks/import", title: "Import Network", load: networkImport },
  { path: "network/fabric", title: "Fabric Networks", load: fabricNetworks },
  { path: "network/besu", title: "Besu Networks", load: besuNetworks },
  { path: "networks/fabric/create", title: "Create Fabric Network", load: fabricCreate },
  { path: "networks/besu/create", title: "Create Besu Network", load: besuCreate },
  { path: "networks/besu/bulk-create", title: "Create Besu Network", load: besuBulk },
  { path: "networks/fabric/shared", title: "Shared Networks", load: sharedNetworks },
  { path: "networks/:id/besu", title: "Besu Network", load: besuNetwork },
  { path: "networks/:id/fabric", title: "Fabric Network", load: fabricNetwork },
  { path: "networks/:id/blocks", title: "Blocks", load: fabricBlocks },
  { path: "networks/:id/blocks/:blockNumber", title: "Block", load: fabricBlock },
  { path: "networks/besu/:networkId/:nodeId/blocks/:blockNumber", title: "Block", load: besuBlock },
  { path: "networks/:networkId/fabric/proposals/:id", title: "Proposal", load: proposal, textId: true },
  { path: "networks/:id/fabric/proposals/create", title: "Create Proposal", load: proposalCreate },
  { path: "networks/fabric/proposals/:proposalId/sign", title: "Sign Proposal", load: proposalSign },
  { path: "networks/:networkId/fabric/chaincodes/propose", title: "Propose Chaincode", load: chaincodePropose },
  { path: "networks/fabric/chaincodes/:id", title: "Chaincode", load: networkChaincode },
  { path: "organizations/:id", title: "Organization", load: organization },
  { path: "fabric/organizations", title: "Organizations", load: organizations },
  { path: "settings/access", title: "Access Control", load: access },
  { path: "settings/network", title: "Network Settings", load: network },
  { path: "settings/keys", title: "Key Management", load: keys },
  { path: "settings/keys/:id", title: "Key", load: key },
  { path: "settings/api-keys", title: "API Keys", load: apiKeys },
  { path: "settings/api-keys/new", title: "New API Key", load: apiKeyNew },
  { path: "settings/api-keys/:id", title: "API Key", load: apiKey },
  { path: "settings/mcp", title: "MCP Integration", load: mcp },
  { path: "settings/docker-engines", title: "Docker Engines", load: dockerEngines },
  { path: "settings/providers", title: "Key Providers", load: providers },
  { path: "settings/providers/add", title: "Add Key Provider", load: providerAdd },
  { path: "settings/providers/create/vault", title: "Create Vault Provider", load: providerVault },
  { path: "settings/providers/create/aws-kms", title: "Create AWS KMS Provider", load: providerAwsKms },
  { path: "settings/providers/:id", title: "Key Provider", load: provider },
  { path: "settings/backups", title: "Backups", load: backups },
  { path: "settings/backups/targets/create", title: "Create Backup Target", load: backupTargetCreate },
  { path: "settings/backups/targets/:id", title: "Backup Target", load: backupTarget },
  { path: "settings/backups/targets/:id/restore", title: "Restore", load: backupRestore },
  { path: "settings/general", title: "Settings", load: general },
  { path: "settings/audit-logs", title: "Audit Logs", load: auditLogs },
  { path: "settings/audit-logs/:id", title: "Audit Log", load: auditLog },
  { path: "views/audit-logs/:id", title: "Audit Log", load: auditLog },
  { path: "connect", title: "Connect", load: connect },
  { path: "connect/:id", title: "Connection", load: connection, textId: true },
  { path: "external-nodes", title: "External Nodes", load: externalNodes },
  { path: "docs", title: "API Documentation", load: docs },
  { path: "plugins", title: "Plugins", load: plugins },
  { path: "plugins/new", title: "New Plugin", load: pluginCreate },
  { path: "plugins/:name", title: "Plugin", load: plugin },
  { path: "plugins/:name/edit", title: "Edit Plugin", load: pluginEdit },
  { path: "plugins/:name/deploy", title: "Deploy Plugin", load: pluginDeploy },
  { path: "users", title: "Users", load: users },
  { path: "platform/analytics", title: "Analytics", load: analytics },
  { path: "platform/troubleshooting", title: "Troubleshooting", load: troubleshooting },
];

/** Routes whose screens later issues deliver; each renders the "coming soon" placeholder. */
export const PENDING_ROUTES: readonly string[] = ROUTES.filter((r) => !r.load).map((r) => r.path);
