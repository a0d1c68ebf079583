import { describe, expect, test } from "bun:test";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import gitlabPlugin from "./index.ts";

const gitlab: InletPlugin = gitlabPlugin;

const NOW = new Date(1_750_000_000_000);

describe("gitlab plugin", () => {
  test("accepts exactly the secret token in X-Gitlab-Token", async () => {
    const req = requestOf({ body: fixture.body, headers: { "x-gitlab-token": fixture.appSecret } });
    expect(await accepted(gitlab, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(gitlab, withHeaders(req, { "x-gitlab-token": fixture.appSecret + " " + "x" }), fixture.appSecret, NOW)).toBe(false);
    expect(await accepted(gitlab, withHeaders(req, { "x-gitlab-token": fixture.appSecret.toUpperCase() }), fixture.appSecret, NOW)).toBe(false);
    expect(await accepted(gitlab, withHeaders(req, { "x-gitlab-token": null }), fixture.appSecret, NOW)).toBe(false);
  });

  test("signs by sending the token, which is a credential header", async () => {
    const req = await signedFixture(gitlab, fixture, NOW);
    expect(req.headers.get("x-gitlab-token")).toBe(fixture.appSecret);
    expect(gitlab.credentialHeaders).toEqual(["x-gitlab-token"]);
  });

  test("takes Idempotency-Key as the delivery id, never the per-request webhook UUID", async () => {
    const req = await signedFixture(gitlab, fixture, NOW);
    const ctx = pluginContext(fixture.appSecret, NOW);
    const retry = withHeaders(req, { "x-gitlab-webhook-uuid": "ffffffff-0000-4000-8000-000000000000" });
    expect(gitlab.deliveryId!(retry, ctx)).toBe("1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
    // GitLab before 17.4 sends no Idempotency-Key.
    expect(gitlab.deliveryId!(withHeaders(req, { "idempotency-key": null }), ctx)).toBeNull();
  });

  test("names the event by object_kind, event_name, then the header", () => {
    const req = requestOf({ headers: { "x-gitlab-event": "System Hook" } });
    expect(gitlab.event!(req, { object_kind: "merge_request" })).toBe("merge_request");
    expect(gitlab.event!(req, { event_name: "project_create" })).toBe("project_create");
    expect(gitlab.event!(req, null)).toBe("System Hook");
  });
});
