import { z } from 'zod';

/** A Close object id (`lead_…`, `cont_…`, `user_…`). */
export const closeId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), `a Close id starting ${prefix}_`);
