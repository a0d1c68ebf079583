/**
 * The azure-eventgrid app plugin through a real server, over HTTP: the subscription validation
 * (Event Grid schema) and the CloudEvents OPTIONS check answered only with the key, a batch as one
 * run deduplicated by its sorted event ids, and the key kept out of what is stored.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const outcomes = async (id: string) => (await server.activity(id)).map((row) => row.outcome).reverse();
const uniform401 = async (response: Response) => {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: "authentication failed", request_id: response.headers.get("x-request-id") });
};

const validationBody = JSON.stringify([
  {
    id: "2d1781af-3a4c-4d7c-bd0c-e34b19da4e66",
    topic: "/subscriptions/3f2a9c1b-7e10-4d6a-9b8e-5c4d3e2f1a0b",
    subject: "",
    data: {
      validationCode: "512d38b6-c7b8-40c8-89fe-f46f9e9622b6",
      validationUrl: "https://rp-eastus2.eventgrid.azure.net:553/eventsubscriptions/inlet/validate?id=1&token=2",
    },
    eventType: "Microsoft.EventGrid.SubscriptionValidationEvent",
    eventTime: "2025-06-15T14:26:40.1981776Z",
    metadataVersion: "1",
    dataVersion: "1",
  },
]);
const blobEvent = (id: string, eventType: string) => ({
  id,
  topic: "/subscriptions/3f2a9c1b-7e10-4d6a-9b8e-5c4d3e2f1a0b/resourceGroups/media/providers/Microsoft.Storage/storageAccounts/inletuploads",
  subject: `/blobServices/default/containers/uploads/blobs/${id}.csv`,
  eventType,
  eventTime: "2025-06-15T14:26:40.1234567Z",
  data: { api: "PutBlob", contentLength: 48213 },
  dataVersion: "",
  metadataVersion: "1",
});
const json = { "Content-Type": "application/json", "aeg-event-type": "Notification" };

describe("azure-eventgrid through a real server", () => {
  test("it is a built-in whose secret inlet generates", async () => {
    const { body } = await server.api("GET", "/api/plugins");
    expect(body.find((p: any) => p.id === "azure-eventgrid")).toMatchObject({
      id: "azure-eventgrid",
      name: "Azure Event Grid",
      secret: { label: "Delivery key", generated: true },
    });
  });

  test("subscription validation is answered with the validationCode only when the key verifies, and is no run", async () => {
    const t = await server.createTrigger({ name: "blobs", app: "azure-eventgrid" });
    expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const headers = { ...json, "aeg-event-type": "SubscriptionValidation" };

    await uniform401(await fetch(t.url, { method: "POST", body: validationBody, headers }));
    await uniform401(await fetch(`${t.url}?code=wrong`, { method: "POST", body: validationBody, headers }));
    const answered = await fetch(`${t.url}?code=${t.secret}`, { method: "POST", body: validationBody, headers });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("x-request-id")).toMatch(/-/);
    expect(await answered.json()).toEqual({ validationResponse: "512d38b6-c7b8-40c8-89fe-f46f9e9622b6" });

    expect(await runs(t.id)).toHaveLength(0);
    expect(await outcomes(t.id)).toEqual(["auth_failed", "auth_failed", "filtered"]);
  });

  test("a batch of two events is one run with both ids sorted; the same batch again is deduplicated", async () => {
    const t = await server.createTrigger({ name: "blob-batch", app: "azure-eventgrid" });
    const batch = JSON.stringify([blobEvent("id2", "Microsoft.Storage.BlobCreated"), blobEvent("id1", "Microsoft.Storage.BlobDeleted")]);
    const first = await fetch(t.url, { method: "POST", body: batch, headers: { ...json, "aeg-sas-key": t.secret } });
    expect(first.status).toBe(200);
    const again = await fetch(t.url, { method: "POST", body: batch, headers: { ...json, "aeg-sas-key": t.secret, "aeg-delivery-count": "1" } });
    expect(again.status).toBe(200);
    expect((await again.json()).received).toBe(true);

    const [run, ...rest] = await runs(t.id);
    expect(rest).toHaveLength(0);
    expect(run.trigger.app).toEqual({ id: "azure-eventgrid", event: "Microsoft.Storage.BlobCreated", deliveryId: "id1,id2" });
    expect(run.trigger.body).toHaveLength(2);
    expect(run.trigger.headers["aeg-sas-key"]).toBeUndefined();
    expect(JSON.stringify(run)).not.toContain(t.secret);
    expect(await outcomes(t.id)).toEqual(["run", "deduplicated"]);
  });

  test("CloudEvents: the key in ?code= verifies and is kept out of $trigger.query; a cloudevents-batch+json body is JSON", async () => {
    const t = await server.createTrigger({ name: "ce", app: "azure-eventgrid" });
    const events = [
      {
        specversion: "1.0",
        type: "Microsoft.Storage.BlobCreated",
        source: "/subscriptions/x/storageAccounts/inletuploads",
        id: "ce-b",
        time: "2025-06-15T14:26:40Z",
        data: { api: "PutBlob" },
      },
      {
        specversion: "1.0",
        type: "Microsoft.Storage.BlobDeleted",
        source: "/subscriptions/x/storageAccounts/inletuploads",
        id: "ce-a",
        time: "2025-06-15T14:26:41Z",
        data: { api: "DeleteBlob" },
      },
    ];
    const response = await fetch(`${t.url}?code=${t.secret}&tenant=media`, {
      method: "POST",
      body: JSON.stringify(events),
      headers: { "Content-Type": "application/cloudevents-batch+json; charset=utf-8" },
    });
    expect(response.status).toBe(200);
    const [run] = await runs(t.id);
    expect(run.trigger.query).toEqual({ tenant: "media" });
    expect(run.trigger.body).toEqual(events);
    expect(run.trigger.app).toEqual({ id: "azure-eventgrid", event: "Microsoft.Storage.BlobCreated", deliveryId: "ce-a,ce-b" });
    expect(JSON.stringify(run)).not.toContain(t.secret);
  });

  test("CloudEvents OPTIONS: allowed for the requesting origin only with the key; without WebHook-Request-Origin, 405", async () => {
    const t = await server.createTrigger({ name: "ce-options", app: "azure-eventgrid" });
    const origin = { "WebHook-Request-Origin": "eventgrid.azure.net" };

    await uniform401(await fetch(t.url, { method: "OPTIONS", headers: origin }));
    await uniform401(await fetch(t.url, { method: "OPTIONS", headers: { ...origin, "aeg-sas-key": "wrong" } }));
    const allowed = await fetch(`${t.url}?code=${t.secret}`, { method: "OPTIONS", headers: origin });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("webhook-allowed-origin")).toBe("eventgrid.azure.net");
    expect(allowed.headers.get("webhook-allowed-rate")).toBe("*");
    expect(allowed.headers.get("x-request-id")).toMatch(/-/);
    const noOrigin = await fetch(t.url, { method: "OPTIONS", headers: { "aeg-sas-key": t.secret } });
    expect(noOrigin.status).toBe(405);
    expect(await noOrigin.json()).toEqual({ error: "method not allowed", request_id: noOrigin.headers.get("x-request-id") });

    expect(await runs(t.id)).toHaveLength(0);
    expect(await outcomes(t.id)).toEqual(["auth_failed", "auth_failed", "filtered", "rejected"]);
  });

  test("a wrong or missing key is the uniform 401, and nothing runs", async () => {
    const t = await server.createTrigger({ name: "blob-wrong", app: "azure-eventgrid" });
    const batch = JSON.stringify([blobEvent("id9", "Microsoft.Storage.BlobCreated")]);
    await uniform401(await fetch(t.url, { method: "POST", body: batch, headers: { ...json, "aeg-sas-key": "wrong" } }));
    await uniform401(await fetch(t.url, { method: "POST", body: batch, headers: json }));
    await uniform401(await fetch(`${t.url}?code=${t.secret.slice(1)}`, { method: "POST", body: batch, headers: json }));
    expect(await runs(t.id)).toHaveLength(0);
    const rows = await server.activity(t.id);
    expect(rows.map((row) => row.detail)).toEqual(Array(3).fill("azure-eventgrid signature missing or invalid"));
  });
});
