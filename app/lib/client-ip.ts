/** The header the server entry sets to the client's address; any value a client sends is replaced. */
export const CLIENT_IP_HEADER = "x-shop-client-ip";

/** The client's address as the server entry worked it out (TRUST_PROXY honoured). */
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "";
}

export function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}
