import type { ProviderDeps } from "./provider-deps";

/** The company operations' provider lists (filled in by the company endpoints). */
export type CompanyProviderLists = Record<never, never>;

export function liveCompanyProviders(deps: ProviderDeps): CompanyProviderLists {
  void deps;
  return {};
}

export const sandboxCompanyProviders: CompanyProviderLists = {};
