export const keyProviderKeys = {
  all: ["key-providers"] as const,
  list: () => [...keyProviderKeys.all, "list"] as const,
  detail: (id: number) => [...keyProviderKeys.all, "detail", id] as const,
  vaultStatus: (id: number) => [...keyProviderKeys.all, "vault-status", id] as const,
  awsKmsStatus: (id: number) => [...keyProviderKeys.all, "awskms-status", id] as const,
};
