import { randomInt } from 'node:crypto';
import { normalizePhone } from '../../src/core/phone';

/**
 * A valid US number drawn from about a billion, so tests that add numbers (which belong to one workspace across the
 * whole database, kept between runs) do not collide with each other or with earlier runs.
 */
export function uniquePhone(): string {
  for (;;) {
    const digits = `1${randomInt(201, 990)}${randomInt(201, 990)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    const phone = normalizePhone(digits, 'US');
    if (phone) return phone;
  }
}
