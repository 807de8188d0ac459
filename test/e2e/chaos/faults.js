"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SCHEDULE = void 0;
exports.runFaults = runFaults;
const amqplib_1 = __importDefault(require("amqplib"));
/**
 * The faults of one chaos run, in order, each at a share of the events sent (so they land at the
 * same point of any run length): three webhook-deliverer kills, a RabbitMQ restart, a store
 * restart, a Redis restart, an activity-writer kill. Servers are restarted in order (SIGTERM,
 * then started again; CHAOS_SERVER_STOP=SIGKILL crashes them instead); services are killed with SIGKILL and replaced by a new process, as a
 * supervisor would. Nothing else is ever restarted: the gateway and the deliverers that keep
 * running must reconnect on their own.
 */
exports.SCHEDULE = [
    { share: 0.1, name: 'kill -9 webhook-deliverer' },
    { share: 0.2, name: 'restart RabbitMQ' },
    { share: 0.45, name: 'kill -9 webhook-deliverer' },
    { share: 0.55, name: 'restart the store (FerretDB)' },
    { share: 0.65, name: 'restart Redis' },
    { share: 0.75, name: 'kill -9 activity-writer' },
    { share: 0.85, name: 'kill -9 webhook-deliverer' },
];
/** Runs the schedule while the stream runs; every wait is bounded. */
async function runFaults(ctx) {
    const run = { faults: [], broker: null };
    for (const { share, name } of exports.SCHEDULE) {
        // bounded: the stream always ends, and the last fault comes before its end
        while (ctx.progress() < Math.floor(share * ctx.total) && ctx.progress() < ctx.total)
            await sleep(20);
        const startedAt = Date.now();
        const atShare = ctx.progress() / ctx.total;
        let detail;
        if (name === 'kill -9 webhook-deliverer')
            detail = await replace(ctx, 'webhook-deliverer');
        else if (name === 'kill -9 activity-writer')
            detail = await replace(ctx, 'activity-writer');
        else if (name === 'restart RabbitMQ') {
            run.broker = await restartBroker(ctx);
            detail = `down ${run.broker.backAt - run.broker.goneAt} ms (stop took ${run.broker.stoppedAt - run.broker.stopIssuedAt} ms); ${run.broker.retriesWaiting} retries waiting in the long tier at the stop`;
        }
        else {
            const server = name === 'restart Redis' ? ctx.servers.redis : ctx.servers.ferretdb;
            await server.stop(ctx.serverStop);
            const down = Date.now();
            const back = await server.start(60000);
            detail = `down ${back - startedAt} ms (stopped after ${down - startedAt} ms)`;
        }
        run.faults.push({ name, atShare, startedAt, endedAt: Date.now(), detail });
    }
    return run;
}
/** SIGKILL one instance and start a new one in its place (the supervisor's part, not Relay's). */
async function replace(ctx, name) {
    const { stack } = ctx;
    const victim = name === 'activity-writer' ? stack.writer : stack.deliverers[0];
    await victim.stop('SIGKILL');
    ctx.killed.push(victim);
    const fresh = await stack.startService(name);
    if (name === 'activity-writer')
        stack.writer = fresh;
    else
        stack.deliverers = [...stack.deliverers.slice(1), fresh];
    return `pid ${victim.process.pid} killed, pid ${fresh.process.pid} ready`;
}
async function restartBroker(ctx) {
    const url = ctx.servers.rabbitmq.url;
    // an idle connection of our own: when the broker closes it, the broker has gone away for every client
    const observer = await amqplib_1.default.connect(url);
    observer.on('error', () => undefined);
    const closed = new Promise((resolve) => observer.once('close', () => resolve(Date.now())));
    const ch = await observer.createChannel();
    const retriesWaiting = (await ch.checkQueue(ctx.longRetryQueue)).messageCount;
    const stopIssuedAt = Date.now();
    const stopped = ctx.servers.rabbitmq.stop(ctx.serverStop);
    const goneAt = await Promise.race([closed, stopped.then(() => stopIssuedAt)]);
    await stopped;
    const stoppedAt = Date.now();
    const backAt = await ctx.servers.rabbitmq.start(180000);
    return { stopIssuedAt, goneAt, stoppedAt, backAt, retriesWaiting };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
//# sourceMappingURL=faults.js.map