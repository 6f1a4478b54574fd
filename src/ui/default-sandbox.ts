// The dashboard's one-click start: `POST /ui/default-sandbox` answers the default sandbox's token to
// the dashboard page of this very server, opened on this machine — and to nothing else. The token is
// what `serve` prints in the terminal; a QA user on the machine could copy it from there, so handing
// it to a page that only that user can have opened gives nothing away. Every condition must hold:
// - the request comes from a loopback address (the browser runs on this machine, not on the LAN or
//   behind a container's port mapping, where the peer is the bridge's address);
// - its Host is a loopback name (`localhost`, 127.x.x.x, `[::1]`): a page on a rebound name
//   (`evil.example` pointed at 127.0.0.1) says `Host: evil.example`, even when --allowed-host admits it;
// - its Origin is the page's own, `http://{Host}`, and Sec-Fetch-Site (when sent) `same-origin`: a
//   browser always sends Origin on a POST, so a page of any other origin, a localhost app on another
//   port included, is refused; a client sending no Origin is no dashboard page, and is refused too.
// The answer never carries Access-Control-Allow-Origin (corsPolicy has set one for localhost origins
// and --cors-origin ones just before): the only page that may read it is same-origin and needs none.
// It is a POST so that the browser sends Origin; it changes nothing.

import express, { type Request, type Response, type Router } from 'express';
import { isIP } from 'node:net';
import type { Services } from '../http/handler.ts';

export const DEFAULT_SANDBOX_PATH = '/ui/default-sandbox';

/** Headers a proxy adds to say whom it forwards for. */
const RELAY_HEADERS = ['forwarded', 'x-forwarded-for', 'via'] as const;

/** What the refusal check reads of a request: the peer's address and its headers. */
export interface OneClickRequest {
  peer: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  /** Whether it came through a proxy that says so (Forwarded, X-Forwarded-For, Via). */
  relayed?: boolean;
}

/** `127.0.0.1`, `::1`, or an IPv4 loopback address mapped into IPv6 (`::ffff:127.0.0.1`), as Node reports a peer. */
function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/** A Host header as browsers write it: a name or IPv4 address, or a bracketed IPv6 address, then maybe a port. */
const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin of a page served under this Host header (`http://127.0.0.1:4010`), when the Host is a
 * loopback name: `localhost`, 127.x.x.x or `[::1]` (not a subdomain of localhost, which a browser
 * resolves itself but a Host header cannot vouch for). The URL parser writes it as browsers write
 * an Origin: lowercase, `[0:0:0:0:0:0:0:1]` as `[::1]`, no `:80`.
 */
function loopbackOrigin(host: string): string | undefined {
  if (!HOST_HEADER.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    const name = url.hostname;
    return name === 'localhost' || name === '[::1]' || (isIP(name) === 4 && name.startsWith('127.')) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Why this request gets no token, as a sentence for the page; undefined when it may have it. */
export function oneClickRefusal({ peer, host, origin, fetchSite, relayed = false }: OneClickRequest): string | undefined {
  // A reverse proxy on this machine (nginx, Caddy) makes every client a loopback peer with a loopback
  // Host: the headers it adds say the request came from elsewhere. (A raw TCP relay adds none:
  // docs/browser.md says so.)
  if (relayed) return 'The request came through a proxy, not from a browser on this machine: copy the token that the simulator printed in its terminal.';
  if (!isLoopbackPeer(peer)) {
    return `The request came from ${peer?.slice(0, 64) ?? 'an unknown address'}, not from this machine: copy the token that the simulator printed in its terminal.`;
  }
  const own = host === undefined ? undefined : loopbackOrigin(host);
  if (!own) {
    return `This page was opened as ${host?.slice(0, 256) ?? 'an unnamed host'}, not as localhost, 127.0.0.1 or [::1]: copy the token that the simulator printed in its terminal.`;
  }
  if (origin !== own || (fetchSite !== undefined && fetchSite !== 'same-origin')) {
    return `Only the dashboard page of this server may ask for the default sandbox's token, not ${origin?.slice(0, 256) ?? 'a request without an Origin'}.`;
  }
  return undefined;
}

function refuse(res: Response, status: number, code: string, message: string): void {
  res.locals.errorSummary = `__all__: ${code}`;
  res.status(status).json({ __all__: [{ message, code }] });
}

export function defaultSandboxRouter(services: Services): Router {
  const router = express.Router();
  router.post(DEFAULT_SANDBOX_PATH, async (req: Request, res: Response) => {
    res.removeHeader('Access-Control-Allow-Origin');
    res.removeHeader('Access-Control-Expose-Headers');
    res.setHeader('Cache-Control', 'no-store');
    const refusal = oneClickRefusal({
      peer: req.socket.remoteAddress,
      host: req.headers.host,
      origin: req.headers.origin,
      fetchSite: req.get('sec-fetch-site'),
      relayed: RELAY_HEADERS.some((name) => req.headers[name] !== undefined),
    });
    if (refusal) return refuse(res, 403, 'forbidden', refusal);
    // The one whose token the server printed at start (index.ts); none for an app made without it, or once deleted.
    const found = services.defaultSandboxId === undefined ? undefined : services.store.get(services.defaultSandboxId);
    if (!found) return refuse(res, 404, 'not_found', 'This server has no default sandbox: create one with "New sandbox with fixtures".');
    res.json({ token: await services.tokens.sign(found.id), sandbox_id: found.id, brand_id: found.brands[0]!.id });
  });
  return router;
}
