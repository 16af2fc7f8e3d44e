import { s, type Static } from '../schema/shape';
import { BlockLabel } from './common';
import { HISTORY_ENTRY_FIELDS } from './record-fields';
import { fieldProps } from './token';

const str = (): ReturnType<typeof s.string> => s.string();

export const HistoryEntry = s.named('HistoryEntry', s.object({ ...fieldProps(HISTORY_ENTRY_FIELDS), block: BlockLabel }));
export type HistoryEntry = Static<typeof HistoryEntry>;

const SwapActivity = s.named(
  'SwapActivity',
  s.object({
    type: s.literal(['swap']),
    inputAmount: str(), inputToken: str(), inputTokenAmountUsd: str(),
    outputAmount: str(), outputToken: str(), outputTokenAmountUsd: str(),
    transactionHash: str(),
    time: s.dateTime(),
    direction: s.number(),
  }),
);

const FlowActivity = s.named(
  'FlowActivity',
  s.object({
    type: s.literal(['withdraw', 'deposit']),
    amounts: s.array(s.object({ key: str(), symbol: str(), amount: str(), amountUsd: str() })),
    transactionHash: str(),
    time: s.dateTime(),
  }),
);

const PositionActivity = s.named(
  'PositionActivity',
  s.object({
    type: s.literal(['borrow', 'repay']),
    amounts: s.array(s.object({ key: str(), symbol: str(), amount: str(), amountUsd: str(), account: str() })),
    transactionHash: str(),
    time: s.dateTime(),
  }),
);

export const Activity = s.union([SwapActivity, FlowActivity, PositionActivity], 'type');
export type Activity = Static<typeof Activity>;

export const DailyVolume = s.named('DailyVolume', s.object({ grossVolumeRaw: str(), grossVolumeUsd: str(), eventCount: s.number() }));
export const DailyDebtFlow = s.named('DailyDebtFlow', s.object({ grossDebtFlowRaw: str(), grossDebtFlowUsd: str(), debtEventCount: s.number() }));

export const IntervalVolumeMetrics = s.named(
  'IntervalVolumeMetrics',
  s.object({
    netVolumeUsd: str(), grossVolumeUsd: str(), depositVolumeUsd: str(), withdrawVolumeUsd: str(), swapVolumeUsd: str(), swapBuyVolumeUsd: str(),
    grossVolumeUsdChange: s.number(), swapVolumeUsdChange: s.number(),
    eventCount: s.number(), swapCount: s.number(), swapBuyCount: s.number(), swapSellCount: s.number(), depositCount: s.number(), withdrawCount: s.number(),
  }),
);

/** The eight windows of GET /v3/tokens/metrics, all required. */
export const METRIC_WINDOWS = ['15m', '30m', '1h', '2h', '4h', '8h', '1d', '2d'] as const;

export const Holder = s.named(
  'Holder',
  s.object({ address: str(), balance: s.number(), rawBalance: str(), balanceUsd: s.number(), percentage: s.number() }),
);
export type Holder = Static<typeof Holder>;
