/**
 * A Cloud Storage notification pushed by Pub/Sub (an object finalized in a bucket), with a token
 * signed by a local stand-in for Google (`google_stand_in.ts`): the fixture's `jwksUrl` names it,
 * and `providerFetch` allows it.
 */
import type { PluginFixture } from "../../src/plugins/index.ts";
import { googleStandIn } from "./google_stand_in.ts";

const google = await googleStandIn();

/** The fetcher the failure-mode suite gives this plugin's hooks: the stand-in is allowed. */
export const providerFetch = google.providerFetch();

const object = {
  kind: "storage#object",
  id: "acme-uploads/invoices/2025-06/inv-1042.pdf/1750000000000000",
  name: "invoices/2025-06/inv-1042.pdf",
  bucket: "acme-uploads",
  generation: "1750000000000000",
  contentType: "application/pdf",
  size: "48213",
  timeCreated: "2025-06-15T15:06:40.000Z",
};

export default {
  appSecret: "",
  signingKey: google.privatePem,
  providerKeys: true,
  appSettings: { serviceAccountEmail: "pubsub-push@acme-prod.iam.gserviceaccount.com", jwksUrl: google.jwksUrl },
  body: JSON.stringify({
    message: {
      attributes: {
        bucketId: "acme-uploads",
        eventTime: "2025-06-15T15:06:40.000Z",
        eventType: "OBJECT_FINALIZE",
        notificationConfig: "projects/_/buckets/acme-uploads/notificationConfigs/3",
        objectGeneration: "1750000000000000",
        objectId: "invoices/2025-06/inv-1042.pdf",
        payloadFormat: "JSON_API_V1",
      },
      data: Buffer.from(JSON.stringify(object)).toString("base64"),
      messageId: "14790134552118432",
      message_id: "14790134552118432",
      publishTime: "2025-06-15T15:06:40.512Z",
      publish_time: "2025-06-15T15:06:40.512Z",
    },
    subscription: "projects/acme-prod/subscriptions/inlet-uploads",
  }),
  headers: { "user-agent": "APIs-Google; (+https://developers.google.com/webmasters/APIs-Google.html)" },
  deliveryId: "14790134552118432",
  event: "OBJECT_FINALIZE",
  // The token authenticates Google's push, not the body: it signs no part of it.
  signsBody: false,
} satisfies PluginFixture;
