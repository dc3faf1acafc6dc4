import Provider from "oidc-provider";
import { freePort } from "#server/free-port.ts";

/**
 * A real OpenID Connect provider standing in for Google in tests. Its development login form
 * accepts any login; "unverified:someone@example.test" signs in with email_verified=false,
 * any other login is a verified address.
 */
export async function startOidcServer(client: { id: string; secret: string; redirectUri: string }) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [client.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    cookies: { keys: ["oidc-test-cookie-key"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name"],
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const unverified = sub.startsWith("unverified:");
      const email = sub.replace(/^(un)?verified:/, "");
      const local = email.split("@")[0] ?? email;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email,
            email_verified: !unverified,
            name: `Google ${local}`,
            given_name: "Google",
            family_name: local,
          };
        },
      };
    },
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
