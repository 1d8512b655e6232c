export const organizationKeys = {
  all: ["organizations"] as const,
  list: (limit: number, offset: number) => [...organizationKeys.all, "list", limit, offset] as const,
  detail: (id: number) => [...organizationKeys.all, "detail", id] as const,
  identities: (id: number) => [...organizationKeys.all, "identities", id] as const,
  revoked: (id: number) => [...organizationKeys.all, "revoked", id] as const,
};
