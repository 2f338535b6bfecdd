// Response schemas for the OpenAPI document: every call answers { code, msg, data }.
import { z } from 'zod';

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}

export const emptyEnvelope = envelope(z.null());
