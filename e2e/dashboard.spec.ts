import { expect, test, type Page } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The dashboard as a new user meets it: sign up, the empty Deliveries page, webhooks arriving live, bulk and single
// acknowledgement, the detail drawer, sign out and back in. Endpoints are created through the API with the session
// (the Endpoints page has its own test), exactly as the dashboard's client calls it.

const user = {
  name: "Ada Lovelace",
  email: `ada+${Date.now()}@example.com`,
  password: "analytical-engine-1843",
  workspace: "Analytical Engines",
};

test.describe.configure({ mode: "serial" });

/**
 * Waits until the list shows `count` deliveries. After the first arrival the list is no longer empty: later ones wait
 * behind the "N new" button, which is clicked as it appears.
 */
async function expectDeliveriesShown(page: Page, count: number): Promise<void> {
  const rows = page.locator("table.deliveries-table tbody tr");
  await expect
    .poll(
      async () => {
        const more = page.getByRole("button", { name: /new deliver/ });
        if (await more.isVisible()) await more.click();
        return rows.count();
      },
      { timeout: 20_000 },
    )
    .toBe(count);
}

test("sign up, see the empty inbox, receive webhooks live, acknowledge them, sign out and in", async ({ page }) => {
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);

  // Sign up: a new user with a new workspace.
  await page.goto("/sign-up");
  await expect(page).toHaveTitle("Create an account · Signalbox");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Workspace name").fill(user.workspace);
  await page.screenshot({ path: `${SCREENSHOTS}/sign-up.png`, fullPage: true });
  await page.getByRole("button", { name: "Create account" }).click();

  // Signed in, on the home page: the empty state says what to do.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(page.getByText(user.workspace)).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  const empty = page.getByRole("region", { name: "No deliveries yet" });
  await expect(empty).toBeVisible();
  await expect(empty.getByRole("link", { name: "Create a webhook endpoint" })).toHaveAttribute("href", "/endpoints");
  await expect(empty).toContainText("curl -X POST");
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-empty.png`, fullPage: true });

  // An endpoint, created with the session the way the dashboard's client does it.
  const created = await page.request.post("/v1/webhook-endpoints", {
    headers: { "x-signalbox-dashboard": "1" },
    data: { name: "Payments" },
  });
  expect(created.status()).toBe(201);
  const endpoint = ((await created.json()) as { data: { id: string; ingestUrl: string } }).data;
  await expect(empty).toContainText(endpoint.ingestUrl, { timeout: 10_000 });

  // Three webhooks arrive while the page is open: they appear without a reload, Pending.
  for (const n of [1, 2, 3]) {
    const sent = await page.request.post(endpoint.ingestUrl, { data: { event: "payment.succeeded", n } });
    expect(sent.status()).toBe(200);
  }
  const rows = page.locator("table.deliveries-table tbody tr");
  await expectDeliveriesShown(page, 3);
  await expect(rows.getByText("Pending", { exact: true })).toHaveCount(3);
  // Their event type, read from the body's `event` at receipt, in its own column.
  await expect(rows.getByRole("cell", { name: "payment.succeeded", exact: true })).toHaveCount(3);
  await expect(page.getByText("3 pending deliveries")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-list.png`, fullPage: true });

  // Bulk-acknowledge two: one request, both rows change, the pending count drops.
  await page
    .getByRole("checkbox", { name: /Select delivery/ })
    .nth(0)
    .check();
  await page
    .getByRole("checkbox", { name: /Select delivery/ })
    .nth(1)
    .check();
  const bulk = page.waitForRequest(
    (request) => request.url().endsWith("/v1/webhook-endpoints/deliveries/ack") && request.method() === "POST",
  );
  await page.getByRole("button", { name: "Acknowledge 2" }).click();
  expect(JSON.parse((await bulk).postData() ?? "{}").ids).toHaveLength(2);
  await expect(page.getByRole("status").filter({ hasText: "Acknowledged 2 deliveries." })).toBeVisible();
  await expect(rows.getByText("Acknowledged", { exact: true })).toHaveCount(2);
  await expect(page.getByText("1 pending delivery")).toBeVisible();

  // The third from the drawer: payload, headers, then Acknowledge; Escape closes it.
  await page
    .getByRole("button", { name: /View delivery/ })
    .nth(2)
    .click();
  const drawer = page.getByRole("dialog", { name: "Delivery" });
  await expect(drawer).toBeVisible();
  await expect(drawer.locator(".json-tree")).toContainText('"event": "payment.succeeded"');
  await expect(drawer.getByRole("rowheader", { name: "content-type" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/delivery-drawer.png`, animations: "disabled" });
  await drawer.getByRole("button", { name: "Acknowledge" }).click();
  await expect(drawer.locator(".badge-acknowledged")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(rows.getByText("Acknowledged", { exact: true })).toHaveCount(3);
  await expect(page.getByText("0 pending deliveries")).toBeVisible();

  // The status filter asks the server again.
  await page.getByLabel("Status").selectOption("pending");
  await expect(page.getByRole("heading", { name: "No deliveries match these filters" })).toBeVisible();
  await page.getByRole("button", { name: "Show all deliveries" }).click();
  await expect(rows).toHaveCount(3);

  // A phone-sized screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Sign out, and back in with the same credentials.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(rows).toHaveCount(3);

  expect(errors, "the pages logged errors").toEqual([]);
});

test("the drawer shows and copies the payload as sent: key order, number text, duplicate keys", async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  const created = await page.request.post("/v1/webhook-endpoints", {
    headers: { "x-signalbox-dashboard": "1" },
    data: { name: "Fidelity" },
  });
  expect(created.status()).toBe(201);
  const endpoint = ((await created.json()) as { data: { ingestUrl: string } }).data;
  // JSON.parse would reorder "10" and "2" first, round the amount, write 1.1 and keep one "dup".
  const sent = '{"action":"edited","zeta":1,"amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';
  const answer = await page.request.post(endpoint.ingestUrl, {
    headers: { "content-type": "application/json" },
    data: sent,
  });
  expect(answer.status()).toBe(200);

  await expectDeliveriesShown(page, 4);
  await page
    .getByRole("button", { name: /View delivery/ })
    .first()
    .click();
  const drawer = page.getByRole("dialog", { name: "Delivery" });
  const lines = drawer.locator(".json-tree .json-children > .json-line");
  await expect(lines).toHaveText([
    '"action": "edited",',
    '"zeta": 1,',
    '"amount": 12345678901234567890,',
    '"price": 1.10,',
    '"dup": 1,',
    '"dup": 2,',
    '"10": 0,',
    '"2": 0',
  ]);

  // Copy JSON: the same text, indented.
  await page.evaluate(() => {
    const copied: string[] = [];
    (window as unknown as { copied: string[] }).copied = copied;
    navigator.clipboard.writeText = async (text: string) => void copied.push(text);
  });
  await drawer.getByRole("button", { name: "Copy the payload as JSON" }).click();
  const copied = await page.evaluate(() => (window as unknown as { copied: string[] }).copied);
  expect(copied).toEqual([
    '{\n  "action": "edited",\n  "zeta": 1,\n  "amount": 12345678901234567890,\n  "price": 1.10,\n  "dup": 1,\n  "dup": 2,\n  "10": 0,\n  "2": 0\n}',
  ]);

  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // A form body: its fields are listed in the order sent, repeats kept.
  const form = await page.request.post(endpoint.ingestUrl, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: "text=hello+world&user=%C3%A9&text=again",
  });
  expect(form.status()).toBe(200);
  await expectDeliveriesShown(page, 5);
  await page
    .getByRole("button", { name: /View delivery/ })
    .first()
    .click();
  const fields = drawer.getByRole("region", { name: "Form fields" }).locator("tbody tr");
  await expect(fields.locator("th")).toHaveText(["text", "user", "text"]);
  await expect(fields.locator("td")).toHaveText(["hello world", "é", "again"]);

  expect(errors, "the pages logged errors").toEqual([]);
});

test("signing up with an email that is taken says so next to the field", async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("another-password-1");
  await page.getByLabel("Workspace name").fill("Second");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("This email is taken.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  expect(errors, "the page logged errors").toEqual([]);
});
