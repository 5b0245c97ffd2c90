import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The workspace's admin pages as a signed-in user drives them: Endpoints (create, test delivery, disable, delete),
// API keys (create, use, revoke) and Usage (test-key calls show up, balances stay put). Every action goes through the
// UI; the API is called with Playwright's own `request` (no cookies) the way a customer's code calls it.

/** Signs up a new user with a new workspace and waits for the home page. */
async function signUp(page: Page, tag: string): Promise<{ email: string; workspace: string }> {
  const user = {
    name: "Grace Hopper",
    email: `grace+${tag}-${Date.now()}@example.com`,
    password: "compiler-a0-1952",
    workspace: `Admin ${tag}`,
  };
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Workspace name").fill(user.workspace);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(page.getByText(user.workspace)).toBeVisible();
  return user;
}

async function openFromNav(page: Page, label: "Deliveries" | "Endpoints" | "API keys" | "Usage"): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: label, exact: true }).click();
}

/** Creates a key through the form and returns its secret, read from the one-time dialog (which is then closed). */
async function createKey(page: Page, name: string, mode: "Live" | "Test"): Promise<string> {
  const form = page.getByRole("region", { name: "Create a key" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("radio", { name: new RegExp(`^${mode}`) }).check();
  await form.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: `Your new ${mode.toLowerCase()} key “${name}”` });
  await expect(dialog).toBeVisible();
  const secret = (await dialog.getByLabel("API key", { exact: true }).textContent())?.trim() ?? "";
  expect(secret).toMatch(new RegExp(`^sbx_${mode.toLowerCase()}_[0-9A-Za-z]+$`));
  await dialog.getByRole("button", { name: "I have stored the key" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Created “${name}”.` })).toBeVisible();
  return secret;
}

interface Balances {
  subscriptionAllowanceCents: number;
  subscriptionRemainingCents: number;
  purchasedBalanceCents: number;
}

/** The workspace's balances, read with the page's session the way the Usage page reads them. */
async function balances(request: APIRequestContext): Promise<Balances> {
  const response = await request.get("/v1/usage", { headers: { "x-signalbox-dashboard": "1" } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { balances: Balances } }).data.balances;
}

test("endpoints: create one in the form, send a test delivery, disable it, delete it", async ({ page }) => {
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  await signUp(page, "endpoints");

  await openFromNav(page, "Endpoints");
  await expect(page).toHaveURL(/\/endpoints$/);
  await expect(page.getByRole("heading", { level: 1, name: "Webhook endpoints" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No webhook endpoints yet" })).toBeVisible();

  // Create through the form.
  await page.getByRole("button", { name: "Create your first endpoint" }).click();
  const form = page.getByRole("region", { name: "New endpoint" });
  await form.getByLabel("Name", { exact: true }).fill("Billing events");
  await form.getByLabel("Description").fill("Sent by the billing service.");
  await form.getByRole("button", { name: "Create endpoint" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Created “Billing events”." })).toBeVisible();
  const card = page.getByRole("article", { name: "Billing events" });
  await expect(card).toBeVisible();
  await expect(card.getByText("Enabled", { exact: true })).toBeVisible();
  await expect(card.getByText("Sent by the billing service.")).toBeVisible();
  await expect(card.getByLabel("Ingest URL", { exact: true })).toContainText("/ingest/");

  // A test delivery is stored.
  await card.getByRole("button", { name: "Send test delivery" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Delivered: it is now pending in the inbox" })).toBeVisible();
  await expect(card.getByRole("definition").first()).toHaveText("1"); // Pending
  await page.screenshot({ path: `${SCREENSHOTS}/endpoints.png`, fullPage: true, animations: "disabled" });

  // Where its senders put the event type: a bad JSON path is refused next to its field, a header is saved.
  await card.getByRole("button", { name: "Event types" }).click();
  const eventTypes = card.getByRole("region", { name: "Event types" });
  await eventTypes.getByLabel("Read the event type from").selectOption({ label: "A path in the JSON body" });
  await eventTypes.getByLabel("JSON path").fill("data..type");
  await eventTypes.getByRole("button", { name: "Save" }).click();
  await expect(eventTypes.getByText(/must be names and array indexes joined by dots/)).toBeVisible();
  await expect(eventTypes.getByLabel("JSON path")).toBeFocused();
  await eventTypes.getByLabel("Read the event type from").selectOption({ label: "A request header" });
  await eventTypes.getByLabel("Header name").fill("X-Event-Name");
  await eventTypes.getByRole("button", { name: "Save" }).click();
  await expect(eventTypes).toBeHidden();
  await expect(card.getByRole("status").filter({ hasText: "Saved where event types are read." })).toBeVisible();
  await expect(card.getByText("Header x-event-name, else the usual place")).toBeVisible();

  // Retention: the owner sets the workspace default, then the endpoint gets a policy of its own (checked before sending).
  await expect(card.getByText("Keeps everything", { exact: true })).toBeVisible();
  const defaults = page.getByRole("region", { name: "Default retention" });
  await defaults.getByRole("button", { name: "Change" }).click();
  await defaults.getByLabel("Delete every delivery after (days)").fill("30");
  await defaults.getByRole("button", { name: "Save default" }).click();
  await expect(defaults.getByRole("status").filter({ hasText: "Saved. Keeps all 30 days." })).toBeVisible();
  await expect(card.getByText("Keeps all 30 days (workspace default)")).toBeVisible();
  await card.getByRole("button", { name: "Retention" }).click();
  const retention = card.getByRole("region", { name: "Retention" });
  await retention.getByLabel("Keep this endpoint's deliveries").selectOption({ label: "For a time of its own" });
  await retention.getByLabel("Delete every delivery after (days)").fill("30");
  await retention.getByLabel("Delete acknowledged deliveries after (days)").fill("40");
  await retention.getByRole("button", { name: "Save" }).click();
  await expect(retention.getByText(/must not be more than `allDays`/)).toBeVisible();
  await expect(retention.getByLabel("Delete acknowledged deliveries after (days)")).toBeFocused();
  await retention.getByLabel("Delete acknowledged deliveries after (days)").fill("7");
  await retention.getByRole("button", { name: "Save" }).click();
  await expect(retention).toBeHidden();
  await expect(card.getByText("Keeps acknowledged 7 days, all 30 days", { exact: true })).toBeVisible();

  // It waits in the inbox.
  await openFromNav(page, "Deliveries");
  await expect(page).toHaveURL(/\/$/);
  const rows = page.locator("table.deliveries-table tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.getByText("Pending", { exact: true })).toHaveCount(1);
  await expect(page.getByText("1 pending delivery")).toBeVisible();

  // Disable it with its switch: the next test delivery is refused with 404.
  await openFromNav(page, "Endpoints");
  await expect(card).toBeVisible();
  const toggle = card.getByRole("switch", { name: "Accept deliveries" });
  await expect(toggle).toBeChecked();
  const refreshed = page.waitForResponse(
    (response) => response.request().method() === "GET" && new URL(response.url()).pathname === "/v1/webhook-endpoints",
  );
  await toggle.click();
  await refreshed;
  await expect(toggle).not.toBeChecked();
  await expect(toggle).not.toHaveAttribute("aria-disabled", "true");
  await expect(card.getByText("Disabled", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Send test delivery" }).click();
  await expect(
    card
      .getByRole("status")
      .filter({ hasText: "Refused with 404: the endpoint is disabled. Enable it to receive deliveries." }),
  ).toBeVisible();

  // Delete it, after the confirmation dialog.
  await card.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete “Billing events”?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("All 1 delivery received on it, 1 of them still pending, are deleted with it.");
  await confirm.getByRole("button", { name: "Delete endpoint and deliveries" }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page.getByRole("status").filter({ hasText: "Deleted “Billing events” and its 1 delivery." }),
  ).toBeVisible();
  await expect(card).toBeHidden();
  await expect(page.getByRole("heading", { name: "No webhook endpoints yet" })).toBeVisible();

  // The errors are Chromium's own network log lines for the refused JSON path (400) and the refused test delivery
  // (404), which this test asks for; the app itself logged nothing.
  expect(errors, "the pages logged errors").toEqual([
    expect.stringMatching(
      /^console: Failed to load resource: the server responded with a status of 400 \(Bad Request\) \(http:\/\/[^)]+\/v1\/webhook-endpoints\/we_\w+\)$/,
    ),
    expect.stringMatching(
      /^console: Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/[^)]+\/webhooks\/ingest\/we_\w+\)$/,
    ),
  ]);
});

test("API keys: a live key made in the UI works until it is revoked", async ({ page, request }) => {
  const errors = collectPageErrors(page);
  await signUp(page, "keys");

  await openFromNav(page, "API keys");
  await expect(page).toHaveURL(/\/api-keys$/);
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

  const key = await createKey(page, "CRM sync", "Live");
  const table = page.getByRole("table", { name: "API keys of this workspace" });
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "CRM sync" }) });
  await expect(row).toContainText("Live");
  await expect(row).toContainText("Active");
  // The table shows only the start of the key, never the secret.
  await expect(table).not.toContainText(key);

  const before = await request.get("/v1/workspace", { headers: { authorization: `Bearer ${key}` } });
  expect(before.status()).toBe(200);

  await row.getByRole("button", { name: "Revoke CRM sync" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke “CRM sync”?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page.getByRole("status").filter({ hasText: "Revoked “CRM sync”. Requests with it now get 401." }),
  ).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: "Revoke CRM sync" })).toHaveCount(0);

  const after = await request.get("/v1/workspace", { headers: { authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);

  expect(errors, "the pages logged errors").toEqual([]);
});

test("usage: calls with a test key are listed per operation and in the ledger, and cost nothing", async ({
  page,
  request,
}) => {
  const errors = collectPageErrors(page);
  await signUp(page, "usage");

  await openFromNav(page, "Usage");
  await expect(page.getByRole("heading", { level: 1, name: "Usage and balance" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No enrichment calls yet" })).toBeVisible();
  const subscription = page.getByRole("region", { name: "Subscription remaining" });
  const purchased = page.getByRole("region", { name: "Purchased balance" });
  const subscriptionText = (await subscription.textContent()) ?? "";
  const purchasedText = (await purchased.textContent()) ?? "";
  const startBalances = await balances(page.request);

  await openFromNav(page, "API keys");
  const key = await createKey(page, "Sandbox", "Test");
  const headers = { authorization: `Bearer ${key}` };

  const emails = await request.post("/v1/data/svc/companies/domain-emails", {
    headers,
    data: { domain: "example.org" },
  });
  expect(emails.status()).toBe(200);
  expect(await emails.json()).toHaveProperty("meta");
  const intelligence = await request.post("/v1/data/svc/companies/intelligence", {
    headers,
    data: { domain: "example.org", signal: "funding" },
  });
  expect(intelligence.status()).toBe(200);
  expect(await intelligence.json()).toHaveProperty("meta");

  // Back through the menu, as a user would: the page must show the calls just made, not its earlier figures.
  await openFromNav(page, "Usage");
  await expect(page.getByRole("heading", { level: 1, name: "Usage and balance" })).toBeVisible();
  const operations = page.getByRole("region", { name: "Calls per operation" }).getByRole("table");
  const emailsRow = operations.getByRole("row").filter({ hasText: "companies_domain_emails" });
  const intelligenceRow = operations.getByRole("row").filter({ hasText: "companies_intelligence" });
  await expect(emailsRow.getByRole("rowheader")).toContainText("Companies: domain emails");
  await expect(intelligenceRow.getByRole("rowheader")).toContainText("Companies: intelligence");
  // Columns: Calls, Cost, Cache hits, Test calls.
  for (const row of [emailsRow, intelligenceRow]) {
    await expect(row.getByRole("cell").nth(0)).toHaveText("1");
    await expect(row.getByRole("cell").nth(3)).toHaveText("1");
  }

  const ledger = page.getByRole("region", { name: "Recent ledger entries" }).getByRole("table");
  const calls = ledger.getByRole("row").filter({ hasText: "Test key: free" });
  await expect(calls).toHaveCount(2);
  await expect(calls.filter({ hasText: "Companies: domain emails" })).toHaveCount(1);
  await expect(calls.filter({ hasText: "Companies: intelligence" })).toHaveCount(1);

  // Test calls are free: the balances have not moved.
  await expect(subscription).toHaveText(subscriptionText);
  await expect(purchased).toHaveText(purchasedText);
  expect(await balances(page.request)).toEqual(startBalances);

  await page.screenshot({ path: `${SCREENSHOTS}/usage.png`, fullPage: true, animations: "disabled" });

  expect(errors, "the pages logged errors").toEqual([]);
});
