/** The header the server entry sets to the client's address; any value a client sends is replaced. */
export const CLIENT_IP_HEADER = "x-shop-client-ip";
