import { z } from 'zod';

const uuid = z.uuid();

/** Whether a path parameter is a UUID: anything else cannot name a row, and is a 404 without a query. */
export const isUuid = (id: string) => uuid.safeParse(id).success;
