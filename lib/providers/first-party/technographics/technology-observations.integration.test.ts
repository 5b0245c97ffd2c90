import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { recordTechnologyObservations } from "./technology-observations";

const MONDAY = new Date("2031-03-03T09:00:00.000Z");
const WEDNESDAY = new Date("2031-03-05T09:00:00.000Z");
const FRIDAY = new Date("2031-03-07T09:00:00.000Z");

async function storedRows(domain: string) {
  return db().technologyObservation.findMany({ where: { domain }, orderBy: { technology: "asc" } });
}

describe("recordTechnologyObservations", () => {
  it("sets first and last detected to the moment of the first sighting", async () => {
    const spans = await recordTechnologyObservations(
      db(),
      "first.example",
      [
        { name: "WordPress", category: "CMS" },
        { name: "Nginx", category: "Web servers" },
      ],
      MONDAY,
    );

    expect(spans).toEqual(
      new Map([
        ["WordPress", { firstDetected: MONDAY, lastDetected: MONDAY }],
        ["Nginx", { firstDetected: MONDAY, lastDetected: MONDAY }],
      ]),
    );
    expect(await storedRows("first.example")).toEqual([
      {
        domain: "first.example",
        technology: "Nginx",
        category: "Web servers",
        firstDetectedAt: MONDAY,
        lastDetectedAt: MONDAY,
      },
      {
        domain: "first.example",
        technology: "WordPress",
        category: "CMS",
        firstDetectedAt: MONDAY,
        lastDetectedAt: MONDAY,
      },
    ]);
  });

  it("moves only last detected on a later sighting, and leaves technologies not seen this time alone", async () => {
    await recordTechnologyObservations(
      db(),
      "later.example",
      [
        { name: "WordPress", category: "CMS" },
        { name: "jQuery", category: "JavaScript libraries" },
      ],
      MONDAY,
    );
    const spans = await recordTechnologyObservations(
      db(),
      "later.example",
      [{ name: "WordPress", category: "Blogs" }],
      WEDNESDAY,
    );

    expect(spans).toEqual(new Map([["WordPress", { firstDetected: MONDAY, lastDetected: WEDNESDAY }]]));
    expect(await storedRows("later.example")).toEqual([
      {
        domain: "later.example",
        technology: "WordPress",
        category: "Blogs",
        firstDetectedAt: MONDAY,
        lastDetectedAt: WEDNESDAY,
      },
      {
        domain: "later.example",
        technology: "jQuery",
        category: "JavaScript libraries",
        firstDetectedAt: MONDAY,
        lastDetectedAt: MONDAY,
      },
    ]);
  });

  it("never moves last detected back for an out-of-order sighting, but lets it reveal an earlier first one", async () => {
    await recordTechnologyObservations(
      db(),
      "late.example",
      [{ name: "PHP", category: "Programming languages" }],
      WEDNESDAY,
    );
    await recordTechnologyObservations(
      db(),
      "late.example",
      [{ name: "PHP", category: "Programming languages" }],
      FRIDAY,
    );
    const spans = await recordTechnologyObservations(
      db(),
      "late.example",
      [{ name: "PHP", category: "Outdated category" }],
      MONDAY,
    );

    expect(spans.get("PHP")).toEqual({ firstDetected: MONDAY, lastDetected: FRIDAY });
    expect(await storedRows("late.example")).toEqual([
      {
        domain: "late.example",
        technology: "PHP",
        category: "Programming languages",
        firstDetectedAt: MONDAY,
        lastDetectedAt: FRIDAY,
      },
    ]);
  });

  it("keeps domains apart and is shared rather than per workspace", async () => {
    await recordTechnologyObservations(db(), "one.example", [{ name: "Nginx", category: "Web servers" }], MONDAY);
    const spans = await recordTechnologyObservations(
      db(),
      "two.example",
      [{ name: "Nginx", category: "Web servers" }],
      FRIDAY,
    );

    expect(spans.get("Nginx")).toEqual({ firstDetected: FRIDAY, lastDetected: FRIDAY });
    expect((await storedRows("one.example")).map((row) => row.lastDetectedAt)).toEqual([MONDAY]);
    // The primary key is (domain, technology): there is no workspace column to scope by.
    expect(Object.keys((await storedRows("one.example"))[0] ?? {}).sort()).toEqual([
      "category",
      "domain",
      "firstDetectedAt",
      "lastDetectedAt",
      "technology",
    ]);
  });

  it("accepts a name given twice and an empty list", async () => {
    const spans = await recordTechnologyObservations(
      db(),
      "twice.example",
      [
        { name: "Nginx", category: "Reverse proxies" },
        { name: "Nginx", category: "Web servers" },
      ],
      MONDAY,
    );
    expect([...spans.keys()]).toEqual(["Nginx"]);
    expect((await storedRows("twice.example"))[0]?.category).toBe("Web servers");
    expect(await recordTechnologyObservations(db(), "twice.example", [], FRIDAY)).toEqual(new Map());
    expect((await storedRows("twice.example"))[0]?.lastDetectedAt).toEqual(MONDAY);
  });

  it("joins a caller's transaction", async () => {
    await expect(
      db().$transaction(async (tx) => {
        await recordTechnologyObservations(
          tx,
          "rolled-back.example",
          [{ name: "Nginx", category: "Web servers" }],
          MONDAY,
        );
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await storedRows("rolled-back.example")).toEqual([]);
  });
});
