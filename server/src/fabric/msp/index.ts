export { buildChannelMsp, type ChannelMspConfig, type FabricOuIdentifier } from "./channel-msp.js";
export {
  LOCAL_MSP_FILES,
  NODE_OU_ROLES,
  nodeOusConfigYaml,
  validateLocalMsp,
  writeLocalMsp,
  type LocalMspMaterial,
  type NodeOuRole,
} from "./local-msp.js";
export { assertValidMspId, isValidMspId } from "./msp-id.js";
