/**
 * Webhook requests as well-known senders make them, written by hand from each vendor's documented payloads and
 * headers (shortened, shapes kept: nested objects with their own `type` members, arrays, the order of members), with
 * the event type each should be given. Shared by the event-type unit tests and the ingest tests over HTTP.
 */
export interface SenderRequest {
  name: string;
  headers: Record<string, string>;
  body: string;
  eventType: string;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

const githubHeaders = (event: string, delivery: string, contentType = "application/json") => ({
  "content-type": contentType,
  "user-agent": "GitHub-Hookshot/4b4a9f2",
  "x-github-event": event,
  "x-github-delivery": delivery,
  "x-github-hook-id": "292430182",
  "x-hub-signature-256": "sha256=d57c68ca6f92289e6987922ff26938930f6e66a2d161ef06abdf1859230aa23c",
});

const repository = {
  id: 1296269,
  node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
  name: "Hello-World",
  full_name: "octocat/Hello-World",
  private: false,
  owner: { login: "octocat", id: 1, type: "User", site_admin: false },
  default_branch: "main",
};
const octocat = { login: "octocat", id: 1, type: "User", site_admin: false };

const pullRequestClosed = {
  action: "closed",
  number: 1347,
  pull_request: {
    url: "https://api.github.com/repos/octocat/Hello-World/pulls/1347",
    id: 1,
    number: 1347,
    state: "closed",
    title: "Amazing new feature",
    user: octocat,
    body: "Please pull these awesome changes in!",
    labels: [{ id: 208045946, name: "bug", color: "f29513", default: true }],
    merged: true,
    head: { label: "octocat:new-topic", ref: "new-topic", sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e" },
    base: { label: "octocat:main", ref: "main", sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e" },
  },
  repository,
  sender: octocat,
};

export const SENDER_REQUESTS: SenderRequest[] = [
  {
    name: "GitHub issues (opened)",
    headers: githubHeaders("issues", "72d3162e-cc78-11e3-81ab-4c9367dc0958"),
    body: JSON.stringify({
      action: "opened",
      issue: {
        url: "https://api.github.com/repos/octocat/Hello-World/issues/1347",
        number: 1347,
        title: "Found a bug",
        user: octocat,
        labels: [],
        state: "open",
        body: "I'm having a problem with this.",
      },
      repository,
      sender: octocat,
    }),
    eventType: "issues.opened",
  },
  {
    name: "GitHub push (no action)",
    headers: githubHeaders("push", "9f2c4d1a-cc78-11e3-81ab-4c9367dc0958"),
    body: JSON.stringify({
      ref: "refs/heads/main",
      before: "9049f1265b7d61be4a8904a9a27120d2064dab3b",
      after: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c",
      created: false,
      deleted: false,
      forced: false,
      commits: [
        {
          id: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c",
          message: "Update README.md",
          timestamp: "2026-05-15T15:20:30-07:00",
          author: { name: "Monalisa Octocat", email: "mona@github.com", username: "octocat" },
          added: [],
          removed: [],
          modified: ["README.md"],
        },
      ],
      repository,
      pusher: { name: "octocat", email: "mona@github.com" },
      sender: octocat,
    }),
    eventType: "push",
  },
  {
    name: "GitHub pull_request (closed)",
    headers: githubHeaders("pull_request", "a4e1b7c0-cc78-11e3-81ab-4c9367dc0958"),
    body: JSON.stringify(pullRequestClosed),
    eventType: "pull_request.closed",
  },
  {
    name: "GitHub pull_request as a form (payload=…)",
    headers: githubHeaders("pull_request", "b83f6e2d-cc78-11e3-81ab-4c9367dc0958", "application/x-www-form-urlencoded"),
    body: form({ payload: JSON.stringify(pullRequestClosed) }),
    eventType: "pull_request.closed",
  },
  {
    name: "Stripe invoice.paid",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature":
        "t=1492774577,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39",
    },
    // Stripe writes `type` last, after `data`, whose objects have a `type` and an `object` of their own.
    body: JSON.stringify(
      {
        id: "evt_1NG8Du2eZvKYlo2CUI79vXWy",
        object: "event",
        api_version: "2023-10-16",
        created: 1686089970,
        data: {
          object: {
            id: "in_1NG8Dt2eZvKYlo2C0f5KcRTa",
            object: "invoice",
            amount_paid: 2000,
            currency: "usd",
            customer: "cus_NffrFeUfNV2Hib",
            lines: {
              object: "list",
              data: [
                {
                  id: "il_1NG8Dt2eZvKYlo2CoEyMixus",
                  object: "line_item",
                  amount: 2000,
                  description: "1 × Pro (at $20.00 / month)",
                  type: "subscription",
                },
              ],
              has_more: false,
            },
            status: "paid",
          },
        },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: "invoice.paid",
      },
      null,
      2,
    ),
    eventType: "invoice.paid",
  },
  {
    name: "Shopify orders/create",
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": "orders/create",
      "x-shopify-hmac-sha256": "XWmrwMey6OsLMeiZKwP4FppHH3cmAiiJJAweH5Jo4bM=",
      "x-shopify-shop-domain": "johns-apparel.myshopify.com",
      "x-shopify-api-version": "2026-01",
      "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    },
    body: JSON.stringify({
      id: 820982911946154500,
      email: "jon@example.com",
      created_at: "2026-01-10T11:00:00-05:00",
      currency: "USD",
      total_price: "403.00",
      line_items: [{ id: 866550311766439000, title: "IPod Nano - 8GB", quantity: 1, price: "199.00" }],
      customer: { id: 115310627314723950, email: "john@example.com", first_name: "John" },
    }),
    eventType: "orders/create",
  },
  {
    name: "GitLab Push Hook",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitLab/17.0.0",
      "x-gitlab-event": "Push Hook",
      "x-gitlab-token": "s3cr3t",
      "x-gitlab-event-uuid": "5f0e6c4a-9a28-4f7e-8b5b-0e7d1f1c2a3b",
    },
    body: JSON.stringify({
      object_kind: "push",
      event_name: "push",
      before: "95790bf891e76fee5e1747ab589903a6a1f80f22",
      after: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
      ref: "refs/heads/master",
      user_name: "John Smith",
      project_id: 15,
      project: { id: 15, name: "Diaspora", path_with_namespace: "mike/diaspora" },
      commits: [{ id: "b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327", message: "Update Catalan translation to e38cb41." }],
      total_commits_count: 1,
    }),
    eventType: "Push Hook",
  },
  {
    name: "Standard Webhooks",
    headers: {
      "content-type": "application/json",
      "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
      "webhook-timestamp": "1674087231",
      "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    },
    body: JSON.stringify({
      type: "contact.created",
      timestamp: "2026-11-03T20:26:10.344522Z",
      data: { id: "1f81eb52-5198-4599-803e-771906343485", type: "person", email: "ada@example.com" },
    }),
    eventType: "contact.created",
  },
  {
    name: "Svix",
    headers: {
      "content-type": "application/json",
      "svix-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "svix-timestamp": "1614265330",
      "svix-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    },
    body: JSON.stringify({ data: { id: "inv_123", status: "open" }, type: "invoice.created" }),
    eventType: "invoice.created",
  },
  {
    name: "Slack Events API event_callback",
    headers: {
      "content-type": "application/json",
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
      "x-slack-request-timestamp": "1531420618",
    },
    body: JSON.stringify({
      token: "XXYYZZ",
      team_id: "T123ABC456",
      api_app_id: "A123ABC456",
      event: {
        type: "app_mention",
        user: "U123ABC456",
        text: "<@U0LAN0Z89> is it everything a river should be?",
        ts: "1515449522.000016",
        channel: "C123ABC456",
        event_ts: "1515449522000016",
      },
      type: "event_callback",
      event_id: "Ev123ABC456",
      event_time: 1515449522000016,
      authed_users: ["U0LAN0Z89"],
    }),
    eventType: "app_mention",
  },
  {
    name: "Slack url_verification",
    headers: { "content-type": "application/json", "x-slack-request-timestamp": "1531420618" },
    body: JSON.stringify({
      token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    }),
    eventType: "url_verification",
  },
  {
    name: "Slack block actions (interactivity form)",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
      "x-slack-request-timestamp": "1531420618",
    },
    body: form({
      payload: JSON.stringify({
        type: "block_actions",
        user: { id: "U123ABC456", username: "ada", team_id: "T123ABC456" },
        api_app_id: "A123ABC456",
        token: "9s8d9as89d8as9d8as989",
        container: { type: "message", message_ts: "1548261231.000200", channel_id: "C123ABC456" },
        trigger_id: "12321423423.333649436676.d8c1bb837935619ccad0f624c448ffb3",
        actions: [{ type: "button", action_id: "approve", block_id: "=qXel", value: "click_me_123" }],
      }),
    }),
    eventType: "block_actions",
  },
  {
    name: "Twilio SMS status callback",
    headers: {
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
      "user-agent": "TwilioProxy/1.1",
      "x-twilio-signature": "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
    },
    body: form({
      ApiVersion: "2010-04-01",
      MessageStatus: "delivered",
      SmsSid: "SM1342fe1b2c904d1ab04f0fc7a58abca9",
      SmsStatus: "delivered",
      To: "+15558675310",
      From: "+15017122661",
      MessageSid: "SM1342fe1b2c904d1ab04f0fc7a58abca9",
      AccountSid: "AC2e9d7b6a5c4f3e2d1c0b9a8f7e6d5c4b3a",
    }),
    eventType: "message.delivered",
  },
  {
    name: "Twilio incoming SMS",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
    },
    body: form({
      ToCountry: "US",
      SmsMessageSid: "SM1342fe1b2c904d1ab04f0fc7a58abca9",
      NumMedia: "0",
      SmsSid: "SM1342fe1b2c904d1ab04f0fc7a58abca9",
      SmsStatus: "received",
      Body: "Hello type=event",
      To: "+15558675310",
      From: "+15017122661",
      ApiVersion: "2010-04-01",
    }),
    eventType: "message.received",
  },
  {
    name: "Twilio voice status callback",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": "7nFbBfA8QYVUvOE1dKDY0t7pN8Y=",
    },
    body: form({
      CallSid: "CA1342fe1b2c904d1ab04f0fc7a58abca9",
      CallStatus: "completed",
      CallDuration: "42",
      Direction: "outbound-api",
      From: "+15017122661",
      To: "+15558675310",
    }),
    eventType: "call.completed",
  },
  {
    name: "CloudEvents, binary mode",
    headers: {
      "content-type": "application/json",
      "ce-specversion": "1.0",
      "ce-type": "com.github.pull_request.opened",
      "ce-source": "https://github.com/cloudevents/spec/pull",
      "ce-id": "A234-1234-1234",
      "ce-time": "2026-04-05T17:31:00Z",
    },
    body: JSON.stringify({ type: "data-level type, not the event's", number: 123 }),
    eventType: "com.github.pull_request.opened",
  },
  {
    name: "CloudEvents, structured mode",
    headers: { "content-type": "application/cloudevents+json; charset=utf-8" },
    body: JSON.stringify({
      specversion: "1.0",
      type: "com.example.object.deleted.v2",
      source: "/mycontext",
      subject: "larger-context",
      id: "C234-1234-1234",
      time: "2026-04-05T17:31:00Z",
      datacontenttype: "application/json",
      data: { type: "inner", appinfoA: "abc" },
    }),
    eventType: "com.example.object.deleted.v2",
  },
];
