import { z } from 'zod';

/** An ActiveCampaign object id (numeric, sent as a string). */
export const acId = z.union([z.string().regex(/^\d+$/), z.number().int().positive()]).transform(String);
