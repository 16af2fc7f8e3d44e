import { routeHash, transferAllCall } from '@tokensvc/contracts';
import { ErrorCode } from '@tokensvc/messages';
import { signedOrderOf } from './signed-order-value';

const RELAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x0000000000000000000000000000000000000001';
const calls = [transferAllCall(TOKEN, RELAYER)];
const value = (o: Record<string, string | number> = {}): Record<string, string | number> => ({
  sender: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  inputToken: TOKEN,
  inputAmount: '1000000',
  outputToken: '0x0000000000000000000000000000000000000002',
  minOutputAmount: '5',
  recipient: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  partner: '0x0000000000000000000000000000000000000000',
  feeBps: 0,
  relayerFee: '100',
  submitter: RELAYER.toLowerCase(),
  routeHash: routeHash(calls),
  nonce: '42',
  deadline: '2000000000',
  ...o,
});

function refusal(f: () => unknown): { code: unknown; message: string } {
  try {
    f();
  } catch (e) {
    return { code: (e as { code: unknown }).code, message: (e as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('signedOrderOf', () => {
  it('returns the Router struct when the stored calls and this relayer are the signed ones', () => {
    expect(signedOrderOf(value(), calls, RELAYER)).toMatchObject({
      inputAmount: 1_000_000n,
      relayerFee: 100n,
      nonce: 42n,
      submitter: RELAYER.toLowerCase(),
      routeHash: routeHash(calls),
    });
    // The zero submitter lets any relayer send it.
    expect(signedOrderOf(value({ submitter: '0x0000000000000000000000000000000000000000' }), calls, TOKEN).submitter).toBe(
      '0x0000000000000000000000000000000000000000',
    );
  });

  it('refuses (400) other calls than the signed route, another relayer, and an order quoted without the binding', () => {
    expect(refusal(() => signedOrderOf(value(), [transferAllCall(TOKEN, TOKEN)], RELAYER))).toEqual({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
      message: expect.stringMatching(/signed routeHash 0x[0-9a-f]{64} is not the hash of its stored calls/),
    });
    expect(refusal(() => signedOrderOf(value(), calls, TOKEN))).toEqual({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
      message: expect.stringMatching(/may only be submitted by 0x70997970c51812dc3a010c7d01b50e0d17dc79c8, not by this relayer/),
    });
    const legacy = value();
    delete legacy['routeHash'];
    delete legacy['submitter'];
    expect(refusal(() => signedOrderOf(legacy, calls, RELAYER))).toEqual({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
      message: expect.stringMatching(/quoted before signed orders bound their route/),
    });
  });
});
