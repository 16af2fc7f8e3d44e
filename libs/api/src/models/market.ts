import { Type } from '@sinclair/typebox';
import { dateTime, discriminated, named, stringEnum, type Static } from '../schema/types';
import { BlockLabel } from './common';
import { HISTORY_ENTRY_FIELDS } from './record-fields';
import { fieldProps } from './token';

const str = () => Type.String();

export const HistoryEntry = named('HistoryEntry', Type.Object({ ...fieldProps(HISTORY_ENTRY_FIELDS), block: BlockLabel }));
export type HistoryEntry = Static<typeof HistoryEntry>;

const SwapActivity = named(
  'SwapActivity',
  Type.Object({
    type: stringEnum(['swap']),
    inputAmount: str(),
    inputToken: str(),
    inputTokenAmountUsd: str(),
    outputAmount: str(),
    outputToken: str(),
    outputTokenAmountUsd: str(),
    transactionHash: str(),
    time: dateTime(),
    direction: Type.Number(),
  }),
);

const FlowActivity = named(
  'FlowActivity',
  Type.Object({
    type: stringEnum(['withdraw', 'deposit']),
    amounts: Type.Array(Type.Object({ key: str(), symbol: str(), amount: str(), amountUsd: str() })),
    transactionHash: str(),
    time: dateTime(),
  }),
);

const PositionActivity = named(
  'PositionActivity',
  Type.Object({
    type: stringEnum(['borrow', 'repay']),
    amounts: Type.Array(Type.Object({ key: str(), symbol: str(), amount: str(), amountUsd: str(), account: str() })),
    transactionHash: str(),
    time: dateTime(),
  }),
);

export const Activity = discriminated([SwapActivity, FlowActivity, PositionActivity], 'type');
export type Activity = Static<typeof Activity>;

export const DailyVolume = named('DailyVolume', Type.Object({ grossVolumeRaw: str(), grossVolumeUsd: str(), eventCount: Type.Number() }));
export const DailyDebtFlow = named(
  'DailyDebtFlow',
  Type.Object({ grossDebtFlowRaw: str(), grossDebtFlowUsd: str(), debtEventCount: Type.Number() }),
);

export const IntervalVolumeMetrics = named(
  'IntervalVolumeMetrics',
  Type.Object({
    netVolumeUsd: str(),
    grossVolumeUsd: str(),
    depositVolumeUsd: str(),
    withdrawVolumeUsd: str(),
    swapVolumeUsd: str(),
    swapBuyVolumeUsd: str(),
    grossVolumeUsdChange: Type.Number(),
    swapVolumeUsdChange: Type.Number(),
    eventCount: Type.Number(),
    swapCount: Type.Number(),
    swapBuyCount: Type.Number(),
    swapSellCount: Type.Number(),
    depositCount: Type.Number(),
    withdrawCount: Type.Number(),
  }),
);

/** The eight windows of GET /v3/tokens/metrics, all required. */
export const METRIC_WINDOWS = ['15m', '30m', '1h', '2h', '4h', '8h', '1d', '2d'] as const;

export const Holder = named(
  'Holder',
  Type.Object({ address: str(), balance: Type.Number(), rawBalance: str(), balanceUsd: Type.Number(), percentage: Type.Number() }),
);
export type Holder = Static<typeof Holder>;
