import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveriesView } from "./_components/deliveries-view";

export const metadata: Metadata = { title: "Deliveries" };

// The dashboard's home page. Its filters live in the URL (useSearchParams), which is read in the browser.
export default function DeliveriesPage() {
  return (
    <Suspense>
      <DeliveriesView />
    </Suspense>
  );
}
