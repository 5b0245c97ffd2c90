import { authOptions } from "@/lib/auth/next-auth";

export interface OAuthProviderView {
  id: string;
  name: string;
}

/** The OAuth providers switched on by the environment (GitHub, Google), for the "Sign in with …" buttons. */
export function enabledOAuthProviders(): OAuthProviderView[] {
  return authOptions()
    .providers.filter((provider) => provider.type === "oauth")
    .map((provider) => ({ id: provider.id, name: provider.name }));
}
