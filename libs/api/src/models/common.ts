import { s, type Static } from '../schema/shape';

/** Every error answer: `{ statusCode, error, message }`. */
export const ErrorBody = s.named(
  'Error',
  s.object({
    statusCode: s.integer({ example: 400 }),
    error: s.string({ example: 'Bad Request' }),
    message: s.string({ description: 'what went wrong, naming the parameter and what is accepted', example: 'invalid limit "500": must be an integer from 1 to 250' }),
  }),
);
export type ErrorBody = Static<typeof ErrorBody>;

export const Health = s.named('Health', s.object({ status: s.string({ example: 'ok' }), timestamp: s.dateTime() }));
export type Health = Static<typeof Health>;

/** Page fields shared by the paged list responses. */
export const PAGE_PROPS = {
  totalItems: s.number({ description: 'a client should accept a number or a numeric string' }),
  pageItems: s.number(),
  more: s.boolean(),
  page: s.number(),
};
