"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.rssBytes = rssBytes;
exports.openFds = openFds;
exports.serverConnections = serverConnections;
const node_fs_1 = require("node:fs");
/**
 * What the kernel says about the spawned gateway (Linux /proc): its resident memory, and the
 * connections it holds on its listening port, counted from its own descriptors so that client
 * sockets of the test process (the other end of the same connections) are never counted.
 */
/** VmRSS in bytes. */
function rssBytes(pid) {
    const status = (0, node_fs_1.readFileSync)(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    if (!m)
        throw new Error(`no VmRSS for ${pid}`);
    return Number(m[1]) * 1024;
}
function openFds(pid) {
    return (0, node_fs_1.readdirSync)(`/proc/${pid}/fd`).length;
}
function socketInodes(pid) {
    const inodes = new Set();
    for (const fd of (0, node_fs_1.readdirSync)(`/proc/${pid}/fd`)) {
        try {
            const m = /^socket:\[(\d+)\]$/.exec((0, node_fs_1.readlinkSync)(`/proc/${pid}/fd/${fd}`));
            if (m)
                inodes.add(m[1]);
        }
        catch {
            // closed between readdir and readlink
        }
    }
    return inodes;
}
/** TCP connections (not the listener) the process holds whose local port is `port`. */
function serverConnections(pid, port) {
    const inodes = socketInodes(pid);
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    let n = 0;
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
        let text;
        try {
            text = (0, node_fs_1.readFileSync)(table, 'utf8');
        }
        catch {
            continue;
        }
        for (const line of text.split('\n').slice(1)) {
            const f = line.trim().split(/\s+/);
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            if (f.length < 10)
                continue;
            const [, local, , state, , , , , , inode] = f;
            if (local.endsWith(`:${hexPort}`) && state !== '0A' && inodes.has(inode))
                n++;
        }
    }
    return n;
}
//# sourceMappingURL=process-probe.js.map