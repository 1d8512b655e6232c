export const dockerEngineKeys = {
  all: ["docker-engines"] as const,
  list: () => [...dockerEngineKeys.all, "list"] as const,
};
