import { z } from 'zod';

/** What bankops needs of an authorization server's metadata (OpenID Connect discovery or RFC 8414). */
export const ServerMetadataSchema = z.looseObject({
  issuer: z.string(),
  jwks_uri: z.string().optional(),
  token_endpoint: z.string().optional(),
  device_authorization_endpoint: z.string().optional(),
  introspection_endpoint: z.string().optional(),
});

export type ServerMetadata = z.infer<typeof ServerMetadataSchema>;

/** The discovery documents of an issuer, in the order they are tried. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
}

/**
 * The issuer's metadata, whose `issuer` must be exactly the configured one (a document answering
 * for another issuer would let that one's keys sign for this one).
 */
export async function discover(issuer: string, fetcher: typeof fetch = fetch): Promise<ServerMetadata> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const response = await fetcher(url, { headers: { Accept: 'application/json' } });
      if (!response.ok) {
        problems.push(`${url}: ${response.status}`);
        continue;
      }
      const metadata = ServerMetadataSchema.parse(await response.json());
      if (metadata.issuer !== issuer) {
        problems.push(`${url} names the issuer ${metadata.issuer}, not ${issuer}`);
        continue;
      }
      return metadata;
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`cannot discover the identity provider ${issuer}: ${problems.join('; ')}`);
}
