import process from "node:process";
import { expect, test } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";
import { LIVE_KEY_ENV } from "./global-setup";

// The tags of spec §1 (and the service's own), in the order the reference lists them.
const EXPECTED_TAGS = [
  "People email",
  "People enrich",
  "People mobile",
  "People search",
  "Companies discover",
  "Companies enrich",
  "Companies search",
  "Media",
  "Webhooks",
  "Workspace",
  "Operator",
  "System",
];

test.describe("pages", () => {
  let errors: string[] = [];

  test.beforeEach(({ page }) => {
    errors = collectPageErrors(page);
  });

  test.afterEach(() => {
    expect(errors, "the page logged errors").toEqual([]);
  });

  test("signed out, / redirects to the sign-in page, which introduces Signalbox and links to the API reference", async ({
    page,
  }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page).toHaveTitle("Sign in · Signalbox");
    await expect(page.getByRole("heading", { level: 1, name: "Signalbox" })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.getByText("Authorization: Bearer sbx_live_")).toBeVisible();
    await expect(main.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(main.getByLabel("Email")).toBeVisible();
    await expect(main.getByLabel("Password")).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}/sign-in.png`, fullPage: true });

    await main.getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  });

  test("/docs lists every tag and documents GET /v1/workspace", async ({ page, request }) => {
    const response = await page.goto("/docs");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("API reference · Signalbox");

    const tagHeadings = page.getByRole("heading", { level: 2 });
    await expect(tagHeadings).toHaveText(EXPECTED_TAGS);
    // Whatever the OpenAPI document declares is rendered, in the same order.
    const document = (await (await request.get("/v1/openapi.json")).json()) as { tags: { name: string }[] };
    await expect(tagHeadings).toHaveText(document.tags.map((tag) => tag.name));

    const workspace = page.getByRole("region", { name: "Workspace" }).locator("article.card.operation#getWorkspace");
    await expect(workspace).toHaveCount(1);
    await expect(workspace.getByRole("heading", { level: 3 })).toContainText("GET");
    await expect(workspace.getByRole("heading", { level: 3 })).toContainText("/v1/workspace");
    await expect(workspace).toContainText("Authorization: Bearer");
    await expect(workspace).toContainText("401");

    await page.screenshot({ path: `${SCREENSHOTS}/docs.png`, fullPage: true });
  });
});

test("the demo user printed at the first start can sign in at once", async ({ page }) => {
  const email = process.env.SIGNALBOX_E2E_DEMO_EMAIL;
  const password = process.env.SIGNALBOX_E2E_DEMO_PASSWORD;
  expect(email, "the first start prints the demo sign-in").toBe("demo@signalbox.local");
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email!);
  await page.getByLabel("Password").fill(password!);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(page.getByText("Demo workspace").first()).toBeVisible();
});

test.describe("API", () => {
  test("/v1/openapi.json is an OpenAPI 3.1 document, version 1.0.0", async ({ request }) => {
    const response = await request.get("/v1/openapi.json");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    const document = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(Object.keys(document.paths)).toContain("/v1/workspace");
  });

  test("/healthz reports the database", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  test("the first-run live key opens /v1/workspace; a wrong key gets the 401 error body", async ({ request }) => {
    const liveKey = process.env[LIVE_KEY_ENV];
    expect(liveKey, "global setup exposes the printed live key").toMatch(/^sbx_live_/);

    const ok = await request.get("/v1/workspace", { headers: { Authorization: `Bearer ${liveKey}` } });
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toMatchObject({
      success: true,
      data: { workspace: { name: "Demo workspace" }, apiKey: { mode: "live" } },
    });

    const denied = await request.get("/v1/workspace", { headers: { Authorization: "Bearer sbx_live_wrong" } });
    expect(denied.status()).toBe(401);
    expect(await denied.json()).toMatchObject({ success: false, error: { code: "unauthorized" } });
  });

  test("an unknown /v1 path answers a JSON 404", async ({ request }) => {
    const response = await request.get("/v1/no-such-thing");
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, error: { code: "not_found" } });
  });
});
