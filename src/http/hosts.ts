// What a browser may reach (DESIGN.md §6 "Browsers"). The simulator runs on a developer's machine
// with a token that is the same on every install, and its webhooks make that machine POST wherever
// a sandbox says: a web page the developer happens to visit must not drive it. Two checks:
// - Host: a page at http://evil.example:4010/ whose name is re-pointed at 127.0.0.1 (DNS rebinding)
//   is same-origin with the simulator as far as the browser knows, so CORS does not stop it; its
//   requests still say `Host: evil.example:4010`, and only names the developer chose are served
//   (loopback names, the --host value, --allowed-host names). Vite's `server.allowedHosts` works so.
// - Origin: only pages on localhost origins (any port, http or https, `*.localhost` too, as Vite's
//   default) get Access-Control-Allow-Origin, plus the origins of --cors-origin (or `*`).

import cors from 'cors';
import { isIP } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ALL, ApiError, errors } from '../domain/errors.ts';

/** `http(s)://` + localhost, a subdomain of it, 127.0.0.1 or [::1], with or without a port. */
const LOCAL_ORIGIN = /^https?:\/\/(?:(?:[^:/]+\.)?localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

/** A Host header as browsers write it: a name or IPv4 address, or a bracketed IPv6 address, then maybe a port. */
const HOST_HEADER = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** A --cors-origin entry: scheme, host and port, with nothing after them but a slash. */
const ORIGIN_ENTRY = /^https?:\/\/[^/?#@\s]+\/?$/i;

/** Host headers remembered as admitted; a client that varies it endlessly only empties the set now and then. */
const ADMITTED_BOUND = 256;

/** Bind addresses meaning "every interface": the machine's own addresses are unknown here. */
const ALL_INTERFACES = new Set(['0.0.0.0', '[::]']);

/**
 * The canonical hostname (lowercase, IPv6 bracketed and compressed, no trailing dot) and port of a
 * Host header or host name, or undefined when it is not one. The URL parser canonicalises
 * addresses as browsers do, so `[0:0:0:0:0:0:0:1]` is `[::1]`.
 */
function parseHost(value: string): { hostname: string; port: boolean } | undefined {
  const bracketed = unbracketedIpv6(value) ? `[${value}]` : value;
  const match = HOST_HEADER.exec(bracketed);
  if (!match) return undefined;
  try {
    return { hostname: new URL(`http://${bracketed}`).hostname.replace(/\.$/, ''), port: match[1] !== undefined };
  } catch {
    return undefined;
  }
}

/**
 * An IPv6 address without brackets (`::1`). It has two colons or more, and only then is node:net
 * asked: its IPv6 pattern compiles on first use, 7 ms of the first request after a start, when a
 * Host header is `127.0.0.1:4010`.
 */
const unbracketedIpv6 = (value: string): boolean => value.indexOf(':') !== value.lastIndexOf(':') && isIP(value) === 6;

const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  (isIP(hostname) === 4 && hostname.startsWith('127.'));

const isIpLiteral = (hostname: string): boolean => isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;

/** An --allowed-host entry as the policy keeps it: `*`, `.example.com` (that name and every subdomain) or a host name. */
export function parseAllowedHost(entry: string): string {
  if (entry === '*') return entry;
  const suffix = entry.startsWith('.');
  const host = parseHost(suffix ? entry.slice(1) : entry);
  if (!host || host.port) {
    throw new Error(`allowed host "${entry}" is not a host name (e.g. mybox.local, .example.test or *, without a port)`);
  }
  return suffix ? `.${host.hostname}` : host.hostname;
}

/** A --cors-origin entry as the policy keeps it: `*` or an origin (`https://app.example.test:8443`). */
export function parseCorsOrigin(entry: string): string {
  if (entry === '*') return entry;
  // Written in full: `new URL('https://a.test/app').origin` is 'https://a.test', which would let in
  // an origin other than the one the developer meant.
  if (ORIGIN_ENTRY.test(entry)) {
    try {
      return new URL(entry).origin;
    } catch {
      // not an origin after all, e.g. port 99999
    }
  }
  throw new Error(`CORS origin "${entry}" is not an origin (scheme://host[:port], e.g. https://app.example.test, or *)`);
}

/**
 * Refuses (403 `forbidden_host`) a request whose Host header is not a loopback name or an allowed
 * one. `allowed` holds --allowed-host entries and the --host value; a --host of 0.0.0.0 or :: also
 * admits every IP address, since the machine's addresses are unknown and an address in the Host
 * header is never the sign of a rebinding (that needs a name). A request without Host (HTTP/1.0
 * probes) passes: no browser sends one.
 */
export function hostCheck(allowed: readonly string[] = []): RequestHandler {
  const entries = allowed.map(parseAllowedHost);
  const any = entries.includes('*');
  const ipLiterals = entries.some((entry) => ALL_INTERFACES.has(entry));
  const names = new Set(entries.filter((entry) => !entry.startsWith('.')));
  const suffixes = entries.filter((entry) => entry.startsWith('.'));
  const admits = (hostname: string): boolean =>
    isLoopback(hostname) ||
    names.has(hostname) ||
    suffixes.some((suffix) => hostname === suffix.slice(1) || hostname.endsWith(suffix)) ||
    (ipLiterals && isIpLiteral(hostname));
  // A client sends the same Host on every request (`127.0.0.1:4010`); parsing it with the URL
  // parser each time was 1.4% of the CPU of a `POST /api/v1/clients/`.
  const admitted = new Set<string>();
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.headers.host;
    if (any || header === undefined || admitted.has(header)) return next();
    const host = parseHost(header);
    if (host && admits(host.hostname)) {
      if (admitted.size >= ADMITTED_BOUND) admitted.clear();
      admitted.add(header);
      return next();
    }
    next(new ApiError(403, { [ALL]: [errors.forbiddenHost(header.slice(0, 256))] }));
  };
}

const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * CORS for localhost origins and `extra` (parsed --cors-origin entries; `*` allows every origin).
 * A request from another origin is served without Access-Control-Allow-Origin, so the browser keeps
 * the answer from the page; its preflight is refused with 403 `forbidden_origin`, which the request
 * log shows, so the developer learns which flag to pass.
 */
export function corsPolicy(extra: readonly string[] = []): RequestHandler {
  const origins = new Set(extra.map(parseCorsOrigin));
  const anyOrigin = origins.has('*');
  const allows = (origin: string): boolean => anyOrigin || LOCAL_ORIGIN.test(origin) || origins.has(origin);
  const headers = cors({
    // An array: the origin is reflected when it matches, and an OPTIONS without Origin is still a 204.
    origin: anyOrigin ? '*' : [LOCAL_ORIGIN, ...origins],
    methods: CORS_METHODS,
    allowedHeaders: ['Authorization', 'Content-Type'],
    maxAge: 600,
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    // No Origin and no preflight (an API client that is no browser): the one header cors would add.
    if (origin === undefined && !anyOrigin && req.method !== 'OPTIONS' && !res.hasHeader('Vary')) {
      res.setHeader('Vary', 'Origin');
      return next();
    }
    const preflight = req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
    if (preflight && !allows(origin)) return next(new ApiError(403, { [ALL]: [errors.forbiddenOrigin(origin.slice(0, 256))] }));
    headers(req, res, next);
  };
}
