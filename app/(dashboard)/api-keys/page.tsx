import type { Metadata } from "next";
import { ApiKeysView } from "./_components/api-keys-view";

export const metadata: Metadata = { title: "API keys" };

// /api-keys: list, create (the secret shown once) and revoke the workspace's API keys.
export default function ApiKeysPage() {
  return <ApiKeysView />;
}
