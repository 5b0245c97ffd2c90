import { describe, expect, it } from "vitest";
import { orderProviders } from "./registry";

const providers = ["website", "dns", "hunter", "vendor-b"].map((id) => ({ id }));
const ids = (list: { id: string }[]) => list.map((provider) => provider.id);

describe("orderProviders", () => {
  it("keeps the default order when nothing is configured", () => {
    expect(ids(orderProviders(providers, ""))).toEqual(["website", "dns", "hunter", "vendor-b"]);
  });

  it("runs listed providers first, in the configured order, then the rest in default order", () => {
    expect(ids(orderProviders(providers, "vendor-b, Hunter"))).toEqual(["vendor-b", "hunter", "website", "dns"]);
  });

  it("ignores ids that match no provider", () => {
    expect(ids(orderProviders(providers, "nobody,dns,,"))).toEqual(["dns", "website", "hunter", "vendor-b"]);
  });
});
