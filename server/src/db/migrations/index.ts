import type { Migration, MigrationProvider } from "kysely";
import { foundation } from "./0001-foundation.js";
import { keysOrganizations } from "./0002-keys-organizations.js";
import { networks } from "./0003-networks.js";
import { nodes } from "./0004-nodes.js";
import { fabricNetworks } from "./0005-fabric-networks.js";
import { usernamesCaseInsensitive } from "./0006-usernames-case-insensitive.js";
import { fabricChaincodes } from "./0007-fabric-chaincodes.js";
import { nodeDowntime } from "./0008-node-downtime.js";
import { chaincodeProjects } from "./0009-chaincode-projects.js";
import { backups } from "./0010-backups.js";
import { notificationProviders } from "./0011-notification-providers.js";
import { alerts } from "./0012-alerts.js";
import { metrics } from "./0013-metrics.js";
import { plugins } from "./0014-plugins.js";
import { federation } from "./0015-federation.js";
import { federationSharing } from "./0016-federation-sharing.js";
import { governanceProposals } from "./0017-governance-proposals.js";
import { chaincodeProposals } from "./0018-chaincode-proposals.js";
import { keyProviderSecrets } from "./0019-key-provider-secrets.js";
import { dockerEngines } from "./0020-docker-engines.js";
import { metricsJobs } from "./0021-metrics-jobs.js";
import { chaincodeDefinitionOrigin } from "./0022-chaincode-definition-origin.js";
import { nodeTemplates } from "./0023-node-templates.js";
import { networkConfigBlock } from "./0024-network-config-block.js";
import type { Dialect } from "./helpers.js";

/**
 * Versioned migrations, in order. Names sort lexically; never rename or edit one that has shipped:
 * add a new file instead.
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001-foundation": foundation(dialect),
        "0002-keys-organizations": keysOrganizations(dialect),
        "0003-networks": networks(dialect),
        "0004-nodes": nodes(dialect),
        "0005-fabric-networks": fabricNetworks(dialect),
        "0006-usernames-case-insensitive": usernamesCaseInsensitive(dialect),
        "0007-fabric-chaincodes": fabricChaincodes(dialect),
        "0008-node-downtime": nodeDowntime(dialect),
        "0009-chaincode-projects": chaincodeProjects(dialect),
        "0010-backups": backups(dialect),
        "0011-notification-providers": notificationProviders(dialect),
        "0012-alerts": alerts(dialect),
        "0013-metrics": metrics(dialect),
        "0014-plugins": plugins(dialect),
        "0015-federation": federation(dialect),
        "0016-federation-sharing": federationSharing(dialect),
        "0017-governance-proposals": governanceProposals(dialect),
        "0018-chaincode-proposals": chaincodeProposals(dialect),
        "0019-key-provider-secrets": keyProviderSecrets(dialect),
        "0020-docker-engines": dockerEngines(dialect),
        "0021-metrics-jobs": metricsJobs(dialect),
        "0022-chaincode-definition-origin": chaincodeDefinitionOrigin(dialect),
        "0023-node-templates": nodeTemplates(dialect),
        "0024-network-config-block": networkConfigBlock(dialect),
      };
    },
  };
}
