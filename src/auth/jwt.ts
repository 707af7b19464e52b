import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../core/config';
import { devSecret } from '../crypto/dev-secrets';

/** Our own tokens: HMAC with JWT_SECRET, nothing else. */
const SECRET_ALGORITHMS = ['HS256'];
/** Tokens from the JWKS: asymmetric only, so a published public key can never serve as an HMAC secret. */
const JWKS_ALGORITHMS = ['RS256', 'ES256'];
const MAX_TOKEN_LENGTH = 8192;
const CLOCK_TOLERANCE_SECONDS = 5;

/** Why a token was refused: a stable reason and a message safe to show the caller (no token contents). */
export class JwtRefused extends Error {
  constructor(
    readonly reason: 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims' | 'jwks_unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'JwtRefused';
  }
}

/** A verified token: the user it speaks for and which key vouched for it. */
export interface VerifiedToken {
  userId: string;
  source: 'secret' | 'jwks';
  expiresAt: Date;
}

export type JwtConfig = Pick<
  Config,
  'NODE_ENV' | 'SWITCHBOARD_DATA_DIR' | 'JWT_SECRET' | 'JWT_JWKS_URL' | 'JWT_ISSUER' | 'JWT_JWKS_ISSUER' | 'JWT_AUDIENCE' | 'JWT_TTL_SECONDS'
>;

/**
 * Issues and verifies user JWTs. Issued tokens are HS256 with JWT_SECRET (or, outside production, a secret generated
 * once into the data dir); verified tokens are those, or RS256/ES256 tokens signed by a key of JWT_JWKS_URL. The
 * header's alg only picks which of the two verifiers runs; each pins its algorithms, and iss, aud, exp and sub are
 * required.
 */
export class JwtAuthority {
  private readonly secret: Uint8Array;
  private readonly jwks?: JWTVerifyGetKey;

  constructor(private readonly config: JwtConfig) {
    if (!config.JWT_SECRET && config.NODE_ENV === 'production') throw new Error('JWT_SECRET: required in production (at least 32 random characters)');
    this.secret = config.JWT_SECRET ? new TextEncoder().encode(config.JWT_SECRET) : new Uint8Array(devSecret(config, 'jwt-secret'));
    if (config.JWT_JWKS_URL) this.jwks = createRemoteJWKSet(new URL(config.JWT_JWKS_URL), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
  }

  /** A token for a user (sub = user id), valid for JWT_TTL_SECONDS. */
  async issue(userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.config.JWT_TTL_SECONDS;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(this.config.JWT_ISSUER)
      .setAudience(this.config.JWT_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The user a token speaks for; throws JwtRefused for anything not fully valid. */
  async verify(token: string): Promise<VerifiedToken> {
    if (token.length > MAX_TOKEN_LENGTH) throw new JwtRefused('malformed', 'token too long');
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new JwtRefused('malformed', 'not a JWT');
    }
    const common = { audience: this.config.JWT_AUDIENCE, requiredClaims: ['exp', 'sub'], clockTolerance: CLOCK_TOLERANCE_SECONDS };
    try {
      if (alg && SECRET_ALGORITHMS.includes(alg)) {
        const { payload } = await jwtVerify(token, this.secret, { ...common, algorithms: SECRET_ALGORITHMS, issuer: this.config.JWT_ISSUER });
        return { userId: payload.sub!, source: 'secret', expiresAt: new Date(payload.exp! * 1000) };
      }
      if (alg && this.jwks && JWKS_ALGORITHMS.includes(alg)) {
        const issuer = this.config.JWT_JWKS_ISSUER ?? this.config.JWT_ISSUER;
        const { payload } = await jwtVerify(token, this.jwks, { ...common, algorithms: JWKS_ALGORITHMS, issuer });
        return { userId: payload.sub!, source: 'jwks', expiresAt: new Date(payload.exp! * 1000) };
      }
    } catch (err) {
      throw refusal(err);
    }
    throw new JwtRefused('algorithm', `token algorithm ${JSON.stringify(alg ?? null).slice(0, 20)} is not accepted`);
  }
}

function refusal(err: unknown): JwtRefused {
  if (err instanceof errors.JWTExpired) return new JwtRefused('expired', 'token expired');
  if (err instanceof errors.JWTClaimValidationFailed) return new JwtRefused('claims', `token claim "${err.claim}" is missing or wrong`);
  if (err instanceof errors.JWSSignatureVerificationFailed) return new JwtRefused('signature', 'token signature does not verify');
  if (err instanceof errors.JOSEAlgNotAllowed) return new JwtRefused('algorithm', 'token algorithm not accepted');
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys)
    return new JwtRefused('signature', 'no key of the key set matches the token');
  if (err instanceof errors.JOSENotSupported) return new JwtRefused('algorithm', 'token uses an unsupported feature');
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) {
    return new JwtRefused('jwks_unavailable', 'the key set to verify this token is unavailable');
  }
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid) return new JwtRefused('malformed', 'not a valid JWT');
  // jose's remote key set reports a failed fetch (connection refused, non-200) as a plain Error.
  if (err instanceof errors.JOSEError) return new JwtRefused('malformed', 'not a valid JWT');
  return new JwtRefused('jwks_unavailable', 'the key set to verify this token is unavailable');
}

/** Builds the authority from configuration (the dev secret is read or generated here). */
export const createJwtAuthority = (config: JwtConfig) => new JwtAuthority(config);
