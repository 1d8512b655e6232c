export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: () => [...apiKeyKeys.all, "list"] as const,
  detail: (id: number) => [...apiKeyKeys.all, "detail", id] as const,
  logs: (id: number) => [...apiKeyKeys.all, "logs", id] as const,
};
