// What a handler sees: validated input, the caller's sandbox and a domain context whose clock is
// that sandbox's. Handlers are thin: input → domain/engine call → reply. No HTTP objects leak in.

import type { Clock, Context, Ids } from '../domain/context.ts';
import { notFound } from '../domain/errors.ts';
import type { Input, Resource } from '../domain/types.ts';
import type { Sandbox, Store } from '../store/store.ts';
import type { TokenService } from './auth.ts';
import type { Background, SandboxSerial } from '../engine/background.ts';

export interface Services {
  store: Store;
  /** Wall time; each sandbox's clock derives from it. */
  clock: Clock;
  ids: Ids;
  tokens: TokenService;
  /** One sandbox's requests and background work, one at a time. */
  serial: SandboxSerial;
  background: Background;
  /** The default sandbox, whose token the server printed at start; undefined for a bare app. */
  defaultSandboxId?: string;
}

export interface PublicCall {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Input;
  /** The request's absolute URL without its query string, for pagination links. */
  url: string;
  /** The origin the client called (`http://127.0.0.1:4010`), for absolute URLs in bodies. */
  origin: string;
  /** The caller's address (`127.0.0.1`), as a purchase's `created_from_ip` shows it. */
  ip: string;
  services: Services;
  /** The Authorization header, if any: an operation without a token may still take one (a fork names its sandbox by it). */
  authorization?: string | undefined;
}

export interface SandboxCall extends PublicCall {
  sandbox: Sandbox;
  ctx: Context;
}

export interface Reply {
  status: number;
  body?: unknown;
  /**
   * Instead of `body`: the body's JSON text in pieces, written as the client takes them, between
   * other requests. For a body that can pass the longest string V8 makes (a snapshot: store/snapshot.ts).
   */
  text?: Iterable<string>;
}

export type PublicHandler = (call: PublicCall) => Reply | Promise<Reply>;
export type SandboxHandler = (call: SandboxCall) => Reply | Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const okText = (text: Iterable<string>): Reply => ({ status: 200, text });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });

/** The object with this id in the sandbox's collection, or the 404 an unknown or foreign id gets. */
export function find<T extends Resource>(collection: Map<string, T>, id: string | undefined): T {
  const found = id === undefined ? undefined : collection.get(id);
  if (!found) throw notFound();
  return found;
}
