'use strict';
// A port for a service this process is about to start: the one implementation the benches and
// the tests share.
//
// Chosen below the kernel's ephemeral range: a port the kernel handed out (listen(0)) can be
// handed out again as the source port of any outbound connection on the machine before the
// service binds it — a fresh CI machine hit exactly that.
//
// Checking that nothing listens is not enough either: between the check and the service's bind
// (a second or more while it connects to its dependencies) another test worker or bench can pick
// the same port, or this process can pick it twice. CI hit that too (EADDRINUSE on a deliverer's
// port). So a chosen port is also reserved for RESERVE_MS in a file under the machine's temporary
// directory, created exclusively: every process using this module skips a port another reserved.
// After RESERVE_MS the service has bound it (so the listen check sees it) or has given up.

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const RESERVE_MS = 120_000;
const DIR = path.join(os.tmpdir(), 'relay-port-reservations');

function ephemeralLow() {
  try {
    const n = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(n) && n > 21000 ? n : 32768;
  } catch {
    return 32768; // not Linux: the usual default
  }
}

/** @param {number} port */
function canListen(port) {
  return new Promise((/** @type {(free: boolean) => void} */ resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Takes the port's reservation unless a live one exists. The file's name is the port; its
 * modification time is when it was taken, so a stale one is simply taken again.
 * @param {number} port
 */
function reserve(port) {
  const file = path.join(DIR, String(port));
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
  }
  let taken;
  try {
    taken = fs.statSync(file).mtimeMs;
  } catch {
    return reserve(port); // released between our attempts: try once more
  }
  if (Date.now() - taken < RESERVE_MS) return false;
  // stale: renaming a fresh file over it is atomic, but two processes could both see it stale;
  // the one whose pid the file then holds has it
  const mine = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(mine, String(process.pid));
  fs.renameSync(mine, file);
  return fs.readFileSync(file, 'utf8') === String(process.pid);
}

/** A port nobody listens on and nobody using this module has reserved in the last RESERVE_MS. */
async function freePort() {
  fs.mkdirSync(DIR, { recursive: true });
  const high = ephemeralLow() - 1;
  for (let tries = 0; tries < 100; tries++) {
    const port = 20000 + Math.floor(Math.random() * (high - 20000));
    if (reserve(port) && (await canListen(port))) return port;
  }
  throw new Error('no free port found below the ephemeral range in 100 tries');
}

module.exports = { freePort };
