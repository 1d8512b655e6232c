/** Product name used in page titles and the sidebar. */
export const PRODUCT_NAME = "ChainLaunch";
/** The version label shown in the sidebar (spec §1). */
export const APP_VERSION = "v0.0.1-beta82";
/** External feedback link in the header. */
export const FEEDBACK_URL = "https://github.com/LF-Decentralized-Trust-labs/chainlaunch/issues/new";

/** Live connection constants (spec §9). */
export const HEARTBEAT_MS = 30_000;
export const RECONNECT_MAX_ATTEMPTS = 5;
export const RECONNECT_BASE_MS = 3_000;
export const RECONNECT_FACTOR = 1.5;
export const HISTORY_CAP = 50;

/** A route chunk that takes longer than this to load shows an error with a retry (spec §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** Organization list limit used by the command palette. */
export const ORGANIZATION_LIST_LIMIT = 1000;

/** Page title: the screen name followed by the product name. */
export function pageTitle(screen: string): string {
  return `${screen} | ${PRODUCT_NAME}`;
}
