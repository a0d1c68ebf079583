import { describe, expect, test } from "bun:test";
import { handshakeAnswer, pluginContext, type PluginRequest } from "../../src/plugins/index.ts";
import { pluginProblems } from "../../src/plugins/registry.ts";
import { accepted, requestOf, signedFixture, TRIGGER_URL, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const NOW = new Date(1_750_000_000_000);
const KEY = fixture.appSecret;
const ctx = (secret = KEY) => pluginContext(secret, NOW);
const keyed = (parts: Parameters<typeof requestOf>[0] = {}) =>
  requestOf({ ...parts, headers: { "aeg-sas-key": KEY, ...(parts.headers as Record<string, string>) } });

// The validation event as Event Grid sends it when a subscription is created (Event Grid schema).
const validation = JSON.stringify([
  {
    id: "2d1781af-3a4c-4d7c-bd0c-e34b19da4e66",
    topic: "/subscriptions/3f2a9c1b-7e10-4d6a-9b8e-5c4d3e2f1a0b",
    subject: "",
    data: {
      validationCode: "512d38b6-c7b8-40c8-89fe-f46f9e9622b6",
      validationUrl:
        "https://rp-eastus2.eventgrid.azure.net:553/eventsubscriptions/inlet/validate?id=512d38b6&t=2025-06-15T14:26:40Z&apiVersion=2018-05-01-preview&token=1A1A",
    },
    eventType: "Microsoft.EventGrid.SubscriptionValidationEvent",
    eventTime: "2025-06-15T14:26:40.1981776Z",
    metadataVersion: "1",
    dataVersion: "1",
  },
]);

// A CloudEvents v1.0 structured event, as Event Grid delivers it with the CloudEvents schema.
const cloudEvent = (id: string, type = "Microsoft.Storage.BlobCreated") => ({
  specversion: "1.0",
  type,
  source: "/subscriptions/3f2a9c1b-7e10-4d6a-9b8e-5c4d3e2f1a0b/resourceGroups/media/providers/Microsoft.Storage/storageAccounts/inletuploads",
  id,
  time: "2025-06-15T14:26:40.1234567Z",
  subject: "/blobServices/default/containers/uploads/blobs/a.csv",
  data: { api: "PutBlob" },
});

const options = (headers: Record<string, string>, url = TRIGGER_URL): PluginRequest => requestOf({ method: "OPTIONS", url, headers });

describe("azure-eventgrid: the key", () => {
  test("a generated secret; its plugin shape loads (credential query and OPTIONS handshakes declared)", () => {
    expect(plugin.secret.generated).toBe(true);
    expect(plugin.credentialHeaders).toEqual(["aeg-sas-key"]);
    expect(plugin.credentialQuery).toEqual(["code"]);
    expect(plugin.handshakeMethods).toEqual(["OPTIONS"]);
    expect(pluginProblems(plugin)).toEqual([]);
  });

  test("the aeg-sas-key header or the ?code= parameter equal to the secret verifies", async () => {
    expect(await accepted(plugin, keyed({ body: fixture.body }), KEY, NOW)).toBe(true);
    const inQuery = requestOf({ url: `${TRIGGER_URL}?code=${KEY}&topic=uploads`, body: fixture.body });
    expect(await accepted(plugin, inQuery, KEY, NOW)).toBe(true);
    // Either one suffices when both are sent.
    expect(await accepted(plugin, withHeaders(inQuery, { "aeg-sas-key": "wrong" }), KEY, NOW)).toBe(true);
  });

  test("a missing, wrong or near key fails, as does an empty secret", async () => {
    const cases: PluginRequest[] = [
      requestOf({ body: fixture.body }),
      keyed({ headers: { "aeg-sas-key": KEY.slice(0, -1) } }),
      keyed({ headers: { "aeg-sas-key": KEY + "x" } }),
      keyed({ headers: { "aeg-sas-key": KEY.toUpperCase() } }),
      requestOf({ url: `${TRIGGER_URL}?code=wrong` }),
      requestOf({ url: `${TRIGGER_URL}?Code=${KEY}` }), // the parameter's name is `code`
      requestOf({ url: `${TRIGGER_URL}?code=` }),
      requestOf({ url: "not a url", headers: { "aeg-sas-key": "x" } }),
    ];
    for (const req of cases) expect(await accepted(plugin, req, KEY, NOW)).toBe(false);
    expect(await accepted(plugin, requestOf({ headers: { "aeg-sas-key": "" }, url: `${TRIGGER_URL}?code=` }), "", NOW)).toBe(false);
  });

  test("sign() sends the key in aeg-sas-key, and cannot sign without one", async () => {
    const req = await signedFixture(plugin, fixture, NOW);
    expect(req.headers.get("aeg-sas-key")).toBe(KEY);
    expect(() => plugin.sign(requestOf(), ctx(""))).toThrow("cannot sign: the Event Grid delivery key is empty");
  });
});

describe("azure-eventgrid: validation handshakes, only with the key", () => {
  test("Event Grid schema: a SubscriptionValidationEvent is answered with its validationCode", async () => {
    const answer = (await handshakeAnswer(plugin, keyed({ body: validation, headers: { "aeg-event-type": "SubscriptionValidation" } }), ctx())) as Response;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ validationResponse: "512d38b6-c7b8-40c8-89fe-f46f9e9622b6" });
    const viaQuery = (await handshakeAnswer(plugin, requestOf({ url: `${TRIGGER_URL}?code=${KEY}`, body: validation }), ctx())) as Response;
    expect(await viaQuery.json()).toEqual({ validationResponse: "512d38b6-c7b8-40c8-89fe-f46f9e9622b6" });
  });

  test("without the key, or with a wrong one, there is no answer (the host then gives its 401)", async () => {
    for (const req of [requestOf({ body: validation }), keyed({ body: validation, headers: { "aeg-sas-key": "wrong" } })]) {
      expect(await handshakeAnswer(plugin, req, ctx())).toBeNull();
    }
  });

  test("CloudEvents: an OPTIONS with WebHook-Request-Origin is allowed for that origin at any rate", async () => {
    const answer = (await handshakeAnswer(plugin, options({ "aeg-sas-key": KEY, "WebHook-Request-Origin": "eventgrid.azure.net" }), ctx())) as Response;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("webhook-allowed-origin")).toBe("eventgrid.azure.net");
    expect(answer.headers.get("webhook-allowed-rate")).toBe("*");
    expect(answer.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await answer.text()).toBe("");
    const viaQuery = (await handshakeAnswer(
      plugin,
      options({ "WebHook-Request-Origin": "eventgrid.azure.net" }, `${TRIGGER_URL}?code=${KEY}`),
      ctx(),
    )) as Response;
    expect(viaQuery.headers.get("webhook-allowed-origin")).toBe("eventgrid.azure.net");
  });

  test("an OPTIONS without the key, or without WebHook-Request-Origin, gets no answer", async () => {
    for (const req of [
      options({ "WebHook-Request-Origin": "eventgrid.azure.net" }),
      options({ "aeg-sas-key": "wrong", "WebHook-Request-Origin": "eventgrid.azure.net" }),
      options({ "aeg-sas-key": KEY }),
    ]) {
      expect(await handshakeAnswer(plugin, req, ctx())).toBeNull();
    }
  });

  test("GET and HEAD, which the host asks unverified, are never answered, even with the key", async () => {
    for (const method of ["GET", "HEAD"]) {
      expect(await plugin.handshake(requestOf({ method, headers: { "aeg-sas-key": KEY, "WebHook-Request-Origin": "eventgrid.azure.net" } }))).toBeNull();
      expect(await plugin.handshake(requestOf({ method, url: `${TRIGGER_URL}?code=${KEY}`, body: validation }))).toBeNull();
    }
  });

  test("an ordinary batch, or a CloudEvent, is no handshake", async () => {
    expect(await plugin.handshake(keyed({ body: fixture.body }))).toBeNull();
    expect(await plugin.handshake(keyed({ body: JSON.stringify(cloudEvent("a1")) }))).toBeNull();
  });
});

describe("azure-eventgrid: delivery id and event", () => {
  const idOf = (body: unknown) => plugin.deliveryId(requestOf({ body: JSON.stringify(body) }));

  test("a batch's ids, sorted, joined by a comma; one event's id alone", () => {
    expect(idOf([{ id: "id2" }, { id: "id1" }])).toBe("id1,id2");
    expect(idOf([{ id: "b" }, { id: "c" }, { id: "a" }])).toBe("a,b,c");
    expect(idOf([{ id: "only" }])).toBe("only");
    // CloudEvents: one structured event (application/cloudevents+json) or a batch.
    expect(idOf(cloudEvent("ce-1"))).toBe("ce-1");
    expect(idOf([cloudEvent("ce-2"), cloudEvent("ce-1")])).toBe("ce-1,ce-2");
  });

  test("the same batch in another order is the same delivery", () => {
    const batch = JSON.parse(fixture.body) as unknown[];
    expect(idOf([...batch].reverse())).toBe(fixture.deliveryId);
  });

  test("no id when an event lacks one, or there are no events", () => {
    expect(idOf([{ id: "a" }, { eventType: "x" }])).toBeNull();
    expect(idOf([{ id: 7 }])).toBeNull();
    expect(idOf([])).toBeNull();
    expect(idOf("text")).toBeNull();
    expect(plugin.deliveryId(requestOf({ body: "not json" }))).toBeNull();
  });

  test("the event is eventType (Event Grid schema) or type (CloudEvents), of the first event of a batch", () => {
    const req = requestOf();
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe("Microsoft.Storage.BlobCreated");
    expect(plugin.event(req, cloudEvent("a", "Microsoft.Storage.BlobDeleted"))).toBe("Microsoft.Storage.BlobDeleted");
    expect(plugin.event(req, [cloudEvent("a", "first.type"), cloudEvent("b", "second.type")])).toBe("first.type");
    expect(plugin.event(req, [])).toBeNull();
    expect(plugin.event(req, null)).toBeNull();
  });
});
