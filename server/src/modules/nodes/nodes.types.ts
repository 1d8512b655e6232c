import type { EventBus } from "../../events/bus.js";
import type { DockerRuntime } from "../../runtime/docker/index.js";
import type { FabricBinaryResolver } from "../../runtime/index.js";
import type { BesuNetworksService } from "../besu-networks/besu-networks.service.js";
import type { KeysService } from "../keys/keys.service.js";
import type { OrganizationsRepo } from "../organizations/organizations.repo.js";
import type { SettingsService } from "../settings/settings.service.js";
import type { BesuBinaryResolver } from "./besu-binary.js";
import type { NodesRepo } from "./nodes.repo.js";
import type { NodeRuntime } from "./nodes.runtime.js";
import type { FabricOrdererConfig, FabricPeerConfig } from "./nodes.schema.js";

/**
 * Types shared by the files of the nodes service (plan, create, update, lifecycle). They live here,
 * not in `nodes.service.ts`, so that those files need not import the service that composes them.
 */

/** The creation config of either Fabric role. */
export type FabricConfig = FabricPeerConfig | FabricOrdererConfig;

/** What the nodes service is given: narrowed dependencies, wired in the module's `index.ts`. */
export interface NodesServiceDeps {
  repo: NodesRepo;
  runtime: NodeRuntime;
  keys: Pick<KeysService, "get" | "row" | "createKey" | "recertify" | "exportPrivateKeyPem" | "removeOwned">;
  orgs: Pick<OrganizationsRepo, "byId">;
  besuNetworks: Pick<BesuNetworksService, "get">;
  settings: Pick<SettingsService, "get">;
  fabricBins: FabricBinaryResolver;
  besuBins: BesuBinaryResolver;
  dataDir: string;
  /** External Besu nodes synced from other consoles (for `externalBootnodeIds`): their enode URLs by id. */
  externalEnodes?: (ids: number[]) => Promise<{ id: number; enodeUrl: string }[]>;
  /** Announces created, changed and deleted nodes (`node.created|updated|deleted`), e.g. for the scrape config. */
  bus?: Pick<EventBus, "publish">;
  /** The console's Docker engine: Fabric nodes with mode "docker" run there. */
  docker?: DockerRuntime;
  /** Repositories (no tag) of the images container nodes run; the tag is the node's version. */
  images: { fabric: string; besu: string };
}
