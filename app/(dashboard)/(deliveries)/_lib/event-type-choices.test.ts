import { describe, expect, it } from "vitest";
import { eventTypeChoices } from "./event-type-choices";

describe("eventTypeChoices", () => {
  it("lists each type once, alphabetically, with those on screen that the list does not have yet", () => {
    expect(
      eventTypeChoices(["invoice.paid", "charge.refunded"], ["push", null, "invoice.paid", "Issues.opened"], ""),
    ).toEqual(["charge.refunded", "invoice.paid", "Issues.opened", "push"]);
  });

  it("keeps the selected type when no delivery of it was listed or shown", () => {
    expect(eventTypeChoices(["push"], [], "orders/create")).toEqual(["orders/create", "push"]);
    expect(eventTypeChoices([], [], "")).toEqual([]);
  });
});
