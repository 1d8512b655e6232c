/** Filters of the key list (GET /keys/filter). */
export interface KeyFilters {
  page: number;
  pageSize: number;
  providerId?: number | undefined;
  algorithm?: "EC" | "ED25519" | "RSA" | undefined;
  curve?: "P-256" | "P-384" | "secp256k1" | undefined;
}

export const keyKeys = {
  all: ["keys"] as const,
  list: (f: KeyFilters) => [...keyKeys.all, "list", f] as const,
  detail: (id: number) => [...keyKeys.all, "detail", id] as const,
};
