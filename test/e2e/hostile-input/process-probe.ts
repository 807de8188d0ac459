import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * What the kernel says about the spawned gateway (Linux /proc): its resident memory, and the
 * connections it holds on its listening port, counted from its own descriptors so that client
 * sockets of the test process (the other end of the same connections) are never counted.
 */

/** VmRSS in bytes. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/** TCP connections (not the listener) the process holds whose local port is `port`. */
export function serverConnections(pid: number, port: number): number {
  const inodes = socketInodes(pid);
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let n = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (f.length < 10) continue;
      const [, local, , state, , , , , , inode] = f;
      if (local!.endsWith(`:${hexPort}`) && state !== '0A' && inodes.has(inode!)) n++;
    }
  }
  return n;
}
