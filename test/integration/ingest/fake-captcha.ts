import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the hCaptcha / reCAPTCHA / Turnstile siteverify endpoint: a form POST of
 * `secret`, `response` and `remoteip`, answered with `{"success": …}` like the providers.
 * `mode` makes it fail like an outage: a 500, or no answer at all.
 */
export class FakeCaptchaVerifier {
  readonly calls: Record<string, string>[] = [];
  mode: 'normal' | 'error' | 'hang' = 'normal';

  private constructor(
    private readonly server: Server,
    readonly secret: string,
    readonly goodToken: string,
  ) {}

  static async start(secret = 'captcha-secret', goodToken = 'good-token'): Promise<FakeCaptchaVerifier> {
    let self: FakeCaptchaVerifier | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        self!.calls.push(form);
        if (self!.mode === 'hang') return;
        if (self!.mode === 'error') {
          res.writeHead(500).end('upstream error');
          return;
        }
        const success = form.secret === secret && form.response === goodToken;
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeCaptchaVerifier(server, secret, goodToken);
    return self;
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
