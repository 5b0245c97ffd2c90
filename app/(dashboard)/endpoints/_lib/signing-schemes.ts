import { SIGNATURE_SCHEME_NAMES } from "@/lib/contracts/webhooks";

export type SigningScheme = (typeof SIGNATURE_SCHEME_NAMES)[number];

/** What each scheme is called in the UI, and what its secret looks like, to help the user paste the right thing. */
export const SIGNING_SCHEMES: Record<SigningScheme, { label: string; secretHint: string }> = {
  "standard-webhooks": {
    label: "Standard Webhooks (Svix, Resend, Clerk, …)",
    secretHint: "Base64, usually starting with whsec_.",
  },
  stripe: { label: "Stripe", secretHint: "The endpoint's signing secret, starting with whsec_ (not an API key)." },
  github: { label: "GitHub", secretHint: "The secret you typed into the webhook's settings on GitHub." },
  shopify: {
    label: "Shopify",
    secretHint: "The app's client secret, or the webhook signing key from the store's settings.",
  },
  slack: { label: "Slack", secretHint: "The app's signing secret, from Basic Information in the Slack app settings." },
};

export const SIGNING_SCHEME_OPTIONS = SIGNATURE_SCHEME_NAMES.map((scheme) => ({
  value: scheme,
  label: SIGNING_SCHEMES[scheme].label,
}));

export function isSigningScheme(value: string): value is SigningScheme {
  return (SIGNATURE_SCHEME_NAMES as readonly string[]).includes(value);
}

/** `Stripe · secret …abcd · invalid signatures refused` */
export function describeSigning(
  signing: { scheme: SigningScheme; rejectInvalid: boolean; secretHint: string } | null,
): string {
  if (!signing) return "Not checked";
  const name = SIGNING_SCHEMES[signing.scheme].label.replace(/ \(.*\)$/, "");
  return `${name} · secret ${signing.secretHint} · ${signing.rejectInvalid ? "invalid signatures refused" : "invalid signatures stored and flagged"}`;
}
