/** Why no order can be built; mapped to a 400 with the message by the use cases. */
export type PlanFailure = 'no-route' | 'too-small' | 'too-large' | 'unsupported';

export class PlanError extends Error {
  constructor(
    readonly failure: PlanFailure,
    message: string,
  ) {
    super(message);
  }
}
