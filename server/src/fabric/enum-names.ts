import { common, msp, peer } from "@hyperledger/fabric-protos";

/**
 * A protobuf enum's names by number, made on first use: reading the enum loads the Fabric protobuf code,
 * which start-up skips (the namespaces load on first use, see server/scripts/bundle-plugins.mjs).
 */
function namesOf(values: () => object): (n: number) => string {
  let table: Record<number, string> | undefined;
  return (n) => {
    const names = (table ??= Object.fromEntries(
      Object.entries(values() as Record<string, number>).map(([k, v]) => [v, k]),
    ));
    return names[n] ?? String(n);
  };
}

/** The `common.Status` name of a number (SUCCESS, BAD_REQUEST, NOT_FOUND, ...), or the number. */
export const fabricStatusName = namesOf(() => common.Status);

/** The `common.HeaderType` name of a number (MESSAGE, CONFIG, ENDORSER_TRANSACTION, ...), or the number. */
export const headerTypeName = namesOf(() => common.HeaderType);

/** The `peer.TxValidationCode` name of a number (VALID, MVCC_READ_CONFLICT, ...), or the number. */
export const txValidationCodeName = namesOf(() => peer.TxValidationCode);

/** The `msp.MSPRole.MSPRoleType` name of a number (MEMBER, ADMIN, CLIENT, PEER, ORDERER), or the number. */
export const mspRoleName = namesOf(() => msp.MSPRole.MSPRoleType);

/** The `peer.ChaincodeMessage.Type` name of a number (REGISTER, READY, COMPLETED, ...), or the number. */
export const chaincodeMessageTypeName = namesOf(() => peer.ChaincodeMessage.Type);
