export const mcpKeys = {
  all: ["mcp"] as const,
  info: () => [...mcpKeys.all, "info"] as const,
};
