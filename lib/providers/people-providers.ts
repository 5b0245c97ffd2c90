import type { ProviderDeps } from "./provider-deps";

/** The people operations' provider lists (filled in by the people endpoints). */
export type PeopleProviderLists = Record<never, never>;

export function livePeopleProviders(deps: ProviderDeps): PeopleProviderLists {
  void deps;
  return {};
}

export const sandboxPeopleProviders: PeopleProviderLists = {};
