/** What the owner reads of a caller outside the trigger's allowed sources: its address, or why it is unknown. */
export function sourceReason(address: string | null): string {
  return address !== null
    ? `source address ${address} is not in the trigger's allowed sources`
    : "source address unknown (no peer address, or an X-Forwarded-For entry that is not an IP address): the trigger allows only listed sources";
}
