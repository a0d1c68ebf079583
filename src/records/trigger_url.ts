/** A trigger's public URL (docs/api.md#triggerinput-and-trigger): `{base_url}/webhooks/<token>`. */
export const triggerUrl = (baseUrl: string, token: string) => `${baseUrl}/webhooks/${token}`;
