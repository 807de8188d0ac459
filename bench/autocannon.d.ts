// The part of autocannon 8 (no types of its own) the benches use: https://github.com/mcollina/autocannon#api
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RequestContext {
    [key: string]: unknown;
  }
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  interface Request extends RequestParams {
    setupRequest?: (req: RequestParams, context: RequestContext) => RequestParams;
    onResponse?: (status: number, body: string, context: RequestContext) => void;
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    body?: string | Buffer;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Histogram {
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    latency: Histogram;
    requests: Histogram;
  }
  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, status: number, bytes: number, responseTime: number) => void,
    ): this;
  }
  function autocannon(opts: Options): Instance;
  export = autocannon;
}
