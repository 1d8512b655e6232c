export const certificateKeys = {
  all: ["certificates"] as const,
  inventory: () => [...certificateKeys.all, "inventory"] as const,
};
