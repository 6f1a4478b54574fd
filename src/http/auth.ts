// Bearer tokens: HS256 JWTs whose subject is the sandbox id. A token carries no expiry of its
// own (a local simulator's token should survive a long debugging session), but one that does is
// checked against the wall clock like any JWT.

import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../domain/context.ts';
import { ALL, ApiError, errors } from '../domain/errors.ts';

export const DEFAULT_SECRET = 'billing-sim-local-development-secret';
const ISSUER = 'billing-sim';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly wall: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** The same sandbox and secret always give the same token: nothing time-dependent is signed. */
  sign(sandboxId: string): Promise<string> {
    return new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer(ISSUER).setSubject(sandboxId).sign(this.key);
  }

  /** The sandbox id of a valid token; 401 with the reason otherwise. */
  async verify(header: string | undefined): Promise<string> {
    if (!header) throw unauthorized(errors.notAuthenticated());
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw unauthorized(errors.authenticationFailed('Use the header "Authorization: Bearer <token>".'));
    try {
      const { payload } = await jwtVerify(match[1]!, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(this.wall.now()),
      });
      if (typeof payload.sub !== 'string') throw new Error('no subject');
      return payload.sub;
    } catch (error) {
      const why =
        error instanceof joseErrors.JWTExpired
          ? 'The token has expired.'
          : error instanceof joseErrors.JWSSignatureVerificationFailed
            ? 'The token signature is invalid.'
            : 'The token is malformed or not issued by this simulator.';
      throw unauthorized(errors.authenticationFailed(why));
    }
  }
}

export function unauthorized(detail: ReturnType<typeof errors.notAuthenticated>): ApiError {
  return new ApiError(401, { [ALL]: [detail] });
}
