import type { ResponseOf } from "@/api/client";
import type { components, paths } from "@/api/schema";

type Body<P extends keyof paths> =
  NonNullable<paths[P]["post"]> extends { requestBody?: { content: { "application/json": infer J } } } ? J : never;

/** Which side of a share this console is on. */
export type ShareDirection = "received" | "sent";
/** One network shared with this console (received) or by it (sent). */
export type SharedNetwork = ResponseOf<"/pro/shared-networks", "get">["networks"][number];
export type SharePlatform = SharedNetwork["platform"];
/** The outcome of one recipient of a network share (in the share answer, and in a sent share's dataJson). */
export type ShareRecipientResult = components["schemas"]["ShareRecipientResult"];
export type AcceptSharedNetworkResult = ResponseOf<"/pro/shared-networks/{shareId}/accept", "post">;
export type RejectSharedNetworkResult = ResponseOf<"/pro/shared-networks/{shareId}/reject", "post">;
/** Body of POST /pro/sharing/network (Fabric) and /pro/sharing/besu-network. */
export type ShareNetworkBody = Body<"/pro/sharing/network">;
export type ShareNetworkResult = ResponseOf<"/pro/sharing/network", "post", 201>;
/** Body of POST /pro/sharing/key: one public key to one connected console. */
export type ShareKeyBody = Body<"/pro/sharing/key">;
export type ShareKeyResult = ResponseOf<"/pro/sharing/key", "post", 201>;
/** A page of public keys connected consoles shared with this one. */
export type SharedKeyList = ResponseOf<"/pro/keys/shared-with-me", "get">;
/** A public key another console shared with this one. */
export type SharedKey = ResponseOf<"/pro/keys/shared-with-me", "get">["keys"][number];

/** Filters and page of GET /pro/keys/shared-with-me. */
export type SharedKeyFilters = Required<Pick<SharedKeysQuery, "limit" | "offset">> &
  Pick<SharedKeysQuery, "status" | "expired">;
type SharedKeysQuery = NonNullable<NonNullable<paths["/pro/keys/shared-with-me"]["get"]>["parameters"]["query"]>;
