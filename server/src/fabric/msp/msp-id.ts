import { CryptoInputError } from "../../crypto/errors.js";

/**
 * An MSP id becomes the organization's config group key in channel config, and Fabric's
 * configtx only accepts keys matching [a-zA-Z0-9.-]+, at most 249 characters, and not "." or
 * ".." (common/configtx/validator.go validateConfigID). Underscores and spaces are refused.
 */
const MSP_ID_PATTERN = /^[A-Za-z0-9.-]{1,249}$/;

/** True when Fabric will accept `mspId` as an organization name in channel config. */
export function isValidMspId(mspId: string): boolean {
  return MSP_ID_PATTERN.test(mspId) && mspId !== "." && mspId !== "..";
}

/** @throws CryptoInputError("mspId") naming the rule. */
export function assertValidMspId(mspId: string): void {
  if (!isValidMspId(mspId)) {
    throw new CryptoInputError(
      "mspId",
      `invalid mspId "${mspId}": use 1 to 249 letters, digits, dots or hyphens (Fabric's config id rule)`,
    );
  }
}
