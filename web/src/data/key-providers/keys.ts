export const keyProviderKeys = {
  all: ["key-providers"] as const,
  list: () => [...keyProviderKeys.all, "list"] as const,
  detail: (id: number) => [...keyProviderKeys.all, "detail", id] as const,
};
