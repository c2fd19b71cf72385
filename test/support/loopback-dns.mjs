// Name resolution fenced to this machine, for tests and for CLI processes started with
// NODE_OPTIONS=--import=<this file>: `localhost` is 127.0.0.1, IP literals are themselves, every other name fails as getaddrinfo
// fails for an unknown name (ENOTFOUND), so no DNS query ever leaves the machine. Node's net, tls
// and fetch all resolve through dns.lookup.
import dns from 'node:dns';
import net from 'node:net';

dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options !== null && options.all === true;
  process.nextTick(() => {
    const family = net.isIP(hostname);
    const address = hostname === 'localhost' ? '127.0.0.1' : family !== 0 ? hostname : undefined;
    if (address !== undefined) {
      if (all) cb(null, [{ address, family: net.isIP(address) }]);
      else cb(null, address, net.isIP(address));
      return;
    }
    const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
    cb(err);
  });
  return {};
};
