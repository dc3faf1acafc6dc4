import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny S3-compatible HTTP server for tests: path-style PUT, GET, HEAD and DELETE of objects
 * in one bucket, with S3's XML errors. It is a protocol stand-in that lets the real AWS SDK
 * talk to something local; it does not verify signatures (only that a SigV4 Authorization
 * header names the expected access key) and knows nothing of listing, multipart uploads or
 * versioning. Real S3, MinIO or R2 remain the reference.
 */
export type FakeS3Object = { bytes: Buffer; contentType: string; etag: string };

export type FakeS3Request = { method: string; key: string; headers: http.IncomingHttpHeaders };

export type FakeS3 = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, FakeS3Object>;
  requests: FakeS3Request[];
  /** Lets `count` more PUTs succeed, then answers 500 to the rest (undefined: all succeed). */
  failPutsAfter(count: number | undefined): void;
  close(): Promise<void>;
};

function xmlError(res: http.ServerResponse, status: number, code: string, message: string) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>fake</RequestId></Error>`;
  res.writeHead(status, {
    "Content-Type": "application/xml",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(
  options: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<FakeS3> {
  const bucket = options.bucket ?? "posters";
  const accessKeyId = options.accessKeyId ?? "AKIAFAKES3TEST";
  const secretAccessKey = options.secretAccessKey ?? "fake-secret-access-key";
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3Request[] = [];
  let putsLeft: number | undefined;
  let etags = 0;

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://fake-s3");
      const [, bucketName = "", ...rest] = url.pathname.split("/");
      const key = decodeURIComponent(rest.join("/"));
      requests.push({ method: req.method ?? "", key, headers: req.headers });
      const body = await readBody(req);

      const authorization = req.headers.authorization ?? "";
      if (!authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) {
        return xmlError(res, 403, "InvalidAccessKeyId", "The access key does not exist.");
      }
      if (decodeURIComponent(bucketName) !== bucket) {
        return xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist.");
      }
      if (!key) return xmlError(res, 501, "NotImplemented", "Only object requests are served.");

      if (req.method === "PUT") {
        if (req.headers["content-encoding"]?.includes("aws-chunked")) {
          return xmlError(res, 501, "NotImplemented", "aws-chunked bodies are not supported.");
        }
        if (putsLeft !== undefined) {
          if (putsLeft <= 0) return xmlError(res, 500, "InternalError", "Store is down.");
          putsLeft -= 1;
        }
        const etag = `"${(++etags).toString(16).padStart(32, "0")}"`;
        objects.set(key, {
          bytes: body,
          contentType: req.headers["content-type"] ?? "binary/octet-stream",
          etag,
        });
        res.writeHead(200, { ETag: etag, "Content-Length": 0 });
        return res.end();
      }
      if (req.method === "GET" || req.method === "HEAD") {
        const object = objects.get(key);
        if (!object) {
          if (req.method === "HEAD") {
            res.writeHead(404);
            return res.end();
          }
          return xmlError(res, 404, "NoSuchKey", "The specified key does not exist.");
        }
        res.writeHead(200, {
          "Content-Type": object.contentType,
          "Content-Length": object.bytes.byteLength,
          ETag: object.etag,
        });
        return res.end(req.method === "GET" ? object.bytes : undefined);
      }
      if (req.method === "DELETE") {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      return xmlError(res, 405, "MethodNotAllowed", "The method is not allowed.");
    } catch (error) {
      return xmlError(res, 500, "InternalError", String(error));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    failPutsAfter(count) {
      putsLeft = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
