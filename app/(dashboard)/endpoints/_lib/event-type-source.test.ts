import { describe, expect, it } from "vitest";
import {
  describeEventTypeSource,
  eventTypeSourceKind,
  eventTypeSourceText,
  toEventTypeSource,
} from "./event-type-source";

describe("event type source in the endpoint form", () => {
  it("round-trips each kind through the form's kind and text", () => {
    for (const source of [null, { header: "x-event-name" }, { jsonPath: "data.object.type" }]) {
      expect(toEventTypeSource(eventTypeSourceKind(source), eventTypeSourceText(source))).toEqual(source);
    }
  });

  it("trims the text and sends null for the built-in places, whatever was typed", () => {
    expect(toEventTypeSource("jsonPath", "  event.type ")).toEqual({ jsonPath: "event.type" });
    expect(toEventTypeSource("builtIn", "x-ignored")).toBeNull();
  });

  it("describes the source", () => {
    expect(describeEventTypeSource({ header: "x-event-name" })).toBe("Header x-event-name, else the usual place");
    expect(describeEventTypeSource({ jsonPath: "event.type" })).toBe("JSON event.type, else the usual place");
    expect(describeEventTypeSource(null)).toMatch(/^From the sender's usual place/);
  });
});
