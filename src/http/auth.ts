// Bearer tokens: HS256 JWTs whose subject is the sandbox id. A token carries no expiry of its
// own (a local simulator's token should survive a long debugging session), but one that does is
// checked against the wall clock like any JWT.

// jose's subpaths: its main entry loads JWE, JWKS and the rest too (about 35 ms of every start).
import * as joseErrors from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import type { Clock } from '../domain/context.ts';
import { ALL, ApiError, errors } from '../domain/errors.ts';

export const DEFAULT_SECRET = 'billing-sim-local-development-secret';
const ISSUER = 'billing-sim';

/** Tokens already verified: their subject and expiry. A client sends the same token on every request. */
interface Verified {
  sub: string;
  exp?: number;
}

const CACHE_BOUND = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * jose verifies through WebCrypto, importing the key each time: most of the cost of a small GET.
   * A token verified once is remembered (its expiry is still checked on every use).
   */
  private readonly verified = new Map<string, Verified>();

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

  /** The sandbox of a token verified before and not expired since; undefined for any other header. */
  known(header: string | undefined): string | undefined {
    return header?.startsWith('Bearer ') ? this.remembered(header.slice(7)) : undefined;
  }

  /** The subject of a token in the cache of verified ones, unless it has expired since. */
  private remembered(token: string): string | undefined {
    const known = this.verified.get(token);
    return known && (known.exp === undefined || known.exp * 1000 > this.wall.now()) ? known.sub : undefined;
  }

  /** The sandbox id of a valid token; 401 with the reason otherwise. */
  async verify(header: string | undefined): Promise<string> {
    if (!header) throw unauthorized(errors.notAuthenticated());
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw unauthorized(errors.authenticationFailed('Use the header "Authorization: Bearer <token>".'));
    const token = match[1]!;
    const known = this.remembered(token);
    if (known !== undefined) return known;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(this.wall.now()),
      });
      if (typeof payload.sub !== 'string') throw new Error('no subject');
      if (this.verified.size >= CACHE_BOUND) this.verified.clear();
      this.verified.set(token, { sub: payload.sub, exp: payload.exp });
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

/** A valid token of a sandbox that is gone (deleted, or of another server's data). */
export const sandboxGone = (): ApiError => unauthorized(errors.authenticationFailed('The token names a sandbox this simulator does not have.'));
