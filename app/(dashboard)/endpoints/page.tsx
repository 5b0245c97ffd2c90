import type { Metadata } from "next";
import { EndpointsView } from "./_components/endpoints-view";

export const metadata: Metadata = { title: "Webhook endpoints" };

// /endpoints: create, copy, test, rename, sign, disable and delete the workspace's webhook endpoints.
export default function EndpointsPage() {
  return <EndpointsView />;
}
