import type { PluginFixture } from "../../src/plugins/index.ts";

// A batch of two Blob Storage events in the Event Grid schema (trimmed), as Event Grid delivers
// it with batching on: the delivery id is both ids, sorted, so the second event's comes first.
const topic = "/subscriptions/3f2a9c1b-7e10-4d6a-9b8e-5c4d3e2f1a0b/resourceGroups/media/providers/Microsoft.Storage/storageAccounts/inletuploads";

export default {
  appSecret: "c2v0dXAtc2VjcmV0LWZvci1ldmVudGdyaWQtdGVzdHM",
  body: JSON.stringify([
    {
      topic,
      subject: "/blobServices/default/containers/uploads/blobs/report-2025-06.csv",
      eventType: "Microsoft.Storage.BlobCreated",
      eventTime: "2025-06-15T14:26:40.1234567Z",
      id: "e5a2c1d0-201e-0042-3c7b-def6a1062b11",
      data: {
        api: "PutBlob",
        clientRequestId: "2b7e4f0a-91c3-4d8e-a6b5-0c1d2e3f4a5b",
        requestId: "e5a2c1d0-201e-0042-3c7b-def6a1000000",
        eTag: "0x8DD8C3A1B2C3D4E",
        contentType: "text/csv",
        contentLength: 48213,
        blobType: "BlockBlob",
        url: "https://inletuploads.blob.core.windows.net/uploads/report-2025-06.csv",
        sequencer: "0000000000000000000000000002a1f30000000000001c2d",
      },
      dataVersion: "",
      metadataVersion: "1",
    },
    {
      topic,
      subject: "/blobServices/default/containers/uploads/blobs/old-report.csv",
      eventType: "Microsoft.Storage.BlobDeleted",
      eventTime: "2025-06-15T14:26:41.0000012Z",
      id: "91c4b7e2-201e-0042-3c7b-def6a1062c22",
      data: {
        api: "DeleteBlob",
        requestId: "91c4b7e2-201e-0042-3c7b-def6a1000000",
        contentType: "text/csv",
        blobType: "BlockBlob",
        url: "https://inletuploads.blob.core.windows.net/uploads/old-report.csv",
        sequencer: "0000000000000000000000000002a1f30000000000001c2e",
      },
      dataVersion: "",
      metadataVersion: "1",
    },
  ]),
  headers: {
    "aeg-event-type": "Notification",
    "aeg-subscription-name": "INLET-UPLOADS",
    "aeg-delivery-count": "0",
    "aeg-metadata-version": "1",
  },
  deliveryId: "91c4b7e2-201e-0042-3c7b-def6a1062c22,e5a2c1d0-201e-0042-3c7b-def6a1062b11",
  event: "Microsoft.Storage.BlobCreated",
  // The key is a token, not a signature over the body.
  signsBody: false,
} satisfies PluginFixture;
