import type { Metadata } from "next";
import { DeliveriesView } from "./_components/deliveries-view";

export const metadata: Metadata = { title: "Deliveries" };

// The dashboard's home page.
export default function DeliveriesPage() {
  return <DeliveriesView />;
}
