/** Query keys of node templates. */
export const templateKeys = {
  all: ["templates"] as const,
  list: (filter: { platform?: string | undefined; query?: string | undefined }) =>
    [...templateKeys.all, "list", filter] as const,
  detail: (id: number) => [...templateKeys.all, "detail", id] as const,
};
