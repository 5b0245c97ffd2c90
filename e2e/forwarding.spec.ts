import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// Forwarding from the dashboard (issue #21): a destination added on the Endpoints page receives each delivery, signed
// with the secret shown once; the delivery drawer shows the forward and its attempts; a failing receiver shows on the
// destination; Replay (one delivery, then every matching one) sends again. The receiver is a node:http server on
// 127.0.0.1 started here (playwright.config.ts starts the app with FORWARD_ALLOW_PRIVATE=true for it).

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A local webhook receiver: records what it gets, answers 200 "thanks", or 500 "boom" while `failing`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { failing: false };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(state.failing ? 500 : 200, { "content-type": "text/plain" });
      response.end(state.failing ? "boom" : "thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function signUp(page: Page): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Radia Perlman");
  await page.getByLabel("Email").fill(`radia+forwarding-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("spanning-tree-1985");
  await page.getByLabel("Workspace name").fill("Forwarding");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
}

/** Sends one webhook the way a sender does, with exact bytes. */
async function send(page: Page, ingestUrl: string, body: string): Promise<void> {
  const sent = await page.request.post(ingestUrl, { headers: { "content-type": "application/json" }, data: body });
  expect(sent.status()).toBe(200);
}

test("a destination added in the dashboard gets signed deliveries; the drawer shows attempts; Replay sends again", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  const receiver = await startReceiver();
  try {
    await signUp(page);
    const created = await page.request.post("/v1/webhook-endpoints", {
      headers: { "x-signalbox-dashboard": "1" },
      data: { name: "Orders" },
    });
    expect(created.status()).toBe(201);
    const endpoint = ((await created.json()) as { data: { id: string; ingestUrl: string } }).data;

    // Add a destination. Mistakes are caught before sending, on their fields, with the contract's words.
    await page.goto("/endpoints");
    const card = page.getByRole("article", { name: "Orders" });
    const section = card.getByRole("region", { name: "Destinations", exact: true });
    await expect(section).toContainText("None: deliveries wait in the inbox");
    await section.getByRole("button", { name: "Add destination" }).click();
    const form = section.getByRole("region", { name: "New destination" });
    await expect(form.getByLabel("URL")).toBeFocused();
    await form.getByLabel("URL").fill("ftp://example.com/hooks");
    await form.getByRole("button", { name: "Add header" }).click();
    await expect(form.getByLabel("Header 1 name")).toBeFocused();
    await form.getByLabel("Header 1 name").fill("Host");
    await form.getByLabel("Header 1 value").fill("example.com");
    await form.getByLabel("Max attempts").fill("many");
    await form.getByRole("button", { name: "Create destination" }).click();
    await expect(form.getByText("must be an http:// or https:// URL without credentials or #fragment")).toBeVisible();
    await expect(form.getByText("Host: is set by Signalbox and cannot be overridden")).toBeVisible();
    await expect(form.getByText("must be a whole number")).toBeVisible();
    await expect(form.getByLabel("URL")).toBeFocused();

    await form.getByLabel("URL").fill(receiver.url);
    await form.getByLabel("Header 1 name").fill("X-Team");
    await form.getByLabel("Header 1 value").fill("billing");
    // One attempt: a failure is final at once, so the test need not wait out the backoff.
    await form.getByLabel("Max attempts").fill("1");
    await form.getByRole("button", { name: "Create destination" }).click();

    // The signing secret, shown this once.
    const dialog = page.getByRole("dialog", { name: "The destination's signing secret" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Standard Webhooks");
    const secret = (await dialog.getByLabel("Signing secret", { exact: true }).textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await page.screenshot({ path: `${SCREENSHOTS}/destination-secret.png`, animations: "disabled" });
    await dialog.getByRole("button", { name: "I have stored the secret" }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByRole("button", { name: "Add destination" })).toBeFocused();
    await expect(page.getByText(secret)).toHaveCount(0);
    const destination = section.getByRole("article", { name: receiver.url });
    await expect(destination.getByText("Enabled", { exact: true })).toBeVisible();
    await expect(destination).toContainText("up to 1 attempt");
    // Header names are stored lower-case (HTTP ignores their case).
    await expect(destination).toContainText("extra headers: x-team");

    // A delivery arrives and is forwarded: exact body, the extra header, a signature made with that secret.
    const first = '{"event":"order.paid","order":1}';
    await send(page, endpoint.ingestUrl, first);
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const forwarded = receiver.received[0]!;
    expect(forwarded.body).toBe(first);
    expect(forwarded.headers["x-team"]).toBe("billing");
    expect(() => new Webhook(secret).verify(forwarded.body, forwarded.headers)).not.toThrow();

    // The drawer's timeline shows it succeeded, with the receiver's answer.
    await page.goto("/");
    const rows = page.locator("table.deliveries-table tbody tr");
    await expect(rows).toHaveCount(1);
    await page
      .getByRole("button", { name: /View delivery/ })
      .first()
      .click();
    const drawer = page.getByRole("dialog", { name: "Delivery" });
    const forwarding = drawer.getByRole("region", { name: "Forwarding" });
    const succeeded = forwarding.getByRole("article", { name: receiver.url });
    await expect(succeeded.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(succeeded).toContainText("1 attempt");
    const attempt = succeeded.getByRole("list", { name: /^Attempts to / }).getByRole("listitem");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("HTTP 200");
    await attempt.getByText(/^Response body/).click();
    await expect(attempt.locator("pre")).toHaveText("thanks");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();

    // The receiver fails: the forward fails (one attempt allowed) and the destination is marked failing.
    receiver.state.failing = true;
    await send(page, endpoint.ingestUrl, '{"event":"order.paid","order":2}');
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    await page.goto("/endpoints");
    await expect(destination.getByText("Failing", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(destination.getByText(/^Failing: Last error: .*500/)).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOTS}/destination-failing.png`, fullPage: true, animations: "disabled" });

    // In the drawer: failed, HTTP 500 and its body. Replay, the receiver is back: a new forward that succeeds.
    receiver.state.failing = false;
    await page.goto("/");
    await expect(rows).toHaveCount(2);
    await page
      .getByRole("button", { name: /View delivery/ })
      .first()
      .click();
    const failed = forwarding.getByRole("article", { name: receiver.url });
    await expect(failed.getByText("Failed", { exact: true })).toBeVisible({ timeout: 15_000 });
    const failedAttempt = failed.getByRole("listitem");
    await expect(failedAttempt).toContainText("HTTP 500");
    await failedAttempt.getByText(/^Response body/).click();
    await expect(failedAttempt.locator("pre")).toHaveText("boom");
    await forwarding.getByRole("button", { name: "Replay" }).click();
    await expect(forwarding.getByRole("status")).toHaveText("Queued again to 1 destination.");
    const forwards = forwarding.getByRole("list", { name: "Forwards, newest first" }).getByRole("article");
    await expect(forwards).toHaveCount(2);
    const replayed = forwards.first();
    await expect(replayed.getByText("Replay", { exact: true })).toBeVisible();
    // Polled while pending: it turns to Succeeded without a reload.
    await expect(replayed.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(replayed.getByRole("listitem")).toContainText("HTTP 200");
    await expect(forwards.nth(1).getByText("Failed", { exact: true })).toBeVisible();
    expect(receiver.received).toHaveLength(3);
    // The receiver sees the same webhook-id again, so it can tell a replay from a new event.
    expect(receiver.received[2]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);
    await page.screenshot({ path: `${SCREENSHOTS}/delivery-forwarding.png`, animations: "disabled" });
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();

    // Replay matching: every delivery the (empty) filters select, after a confirmation that says how many were queued.
    await page.getByRole("button", { name: "Replay matching" }).click();
    const confirm = page.getByRole("dialog", { name: "Forward every delivery again?" });
    await expect(confirm).toBeVisible();
    const replayRequest = page.waitForRequest(
      (sent) => sent.url().endsWith("/v1/webhook-endpoints/deliveries/replay") && sent.method() === "POST",
    );
    await confirm.getByRole("button", { name: "Replay all" }).click();
    const body = JSON.parse((await replayRequest).postData() ?? "{}") as { filter: { until?: string } };
    expect(body.filter.until).toMatch(/Z$/);
    await expect(
      page.getByRole("status").filter({ hasText: "Queued 2 deliveries to be forwarded again." }),
    ).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(5);

    // Back on the card: healthy again. Switch it off, then remove it after the confirmation.
    await page.goto("/endpoints");
    await expect(destination.getByText("Failing", { exact: true })).toBeHidden({ timeout: 20_000 });
    const forwardSwitch = destination.getByRole("switch", { name: "Forward" });
    await forwardSwitch.click();
    await expect(forwardSwitch).not.toBeChecked();
    await expect(destination.getByText("Disabled", { exact: true })).toBeVisible();
    await destination.getByRole("button", { name: "Remove" }).click();
    const remove = page.getByRole("dialog", { name: "Remove this destination?" });
    await remove.getByRole("button", { name: "Remove destination" }).click();
    await expect(remove).toBeHidden();
    await expect(section.getByRole("status")).toHaveText(`Removed the destination ${receiver.url}.`);
    await expect(destination).toBeHidden();
    await expect(section).toContainText("None: deliveries wait in the inbox");

    expect(errors, "the pages logged errors").toEqual([]);
  } finally {
    await receiver.close();
  }
});
