export { buildCliCoreYaml, renderCliCoreYaml, type CliCoreYamlOptions } from "./cli-core-yaml.js";
export { CCAAS_BUILDER_NAME, CCAAS_BUILDER_SCRIPTS, writeCcaasBuilder } from "./ccaas-builder.js";
export {
  buildCoreYaml,
  renderCoreYaml,
  type CoreYaml,
  type ExternalBuilderOption,
  type PeerConfigOptions,
  type TlsFiles,
} from "./core-yaml.js";
export { buildOrdererYaml, renderOrdererYaml, type OrdererConfigOptions, type OrdererYaml } from "./orderer-yaml.js";
export { FabricConfigError, fabricConfigFlavour, splitHostPort, type FabricConfigFlavour } from "./version.js";
export { FABRIC_PLAIN_LOG_FORMAT, fabricNodeEnv, writeCoreYaml, writeOrdererYaml } from "./write.js";
