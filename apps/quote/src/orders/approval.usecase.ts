/**
 * GET /v2/approval: the Router's allowance from the sender, the approve transaction when it is
 * short, and EIP-2612 permit typed data when the token supports it (sign it and pass it to
 * /v2/portal as permitSignature instead of sending the approve transaction).
 */
import { Interface } from 'ethers';
import { decodeUintResult, multicall } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { ApprovalReply, ApprovalRequest } from '@tokensvc/messages';
import type { ChainClients } from '../chain/chain-clients';
import { PERMIT_TYPES, detectPermit } from '../chain/permit';
import type { LiquidityGraphs } from '../graph/liquidity-graphs';
import { timedBuild } from '../metrics';
import type { QuoteEngine } from './quote-engine';
import { isCrossChainRequest } from './request-parsing';
import { badRequest, parseAddress, parseKey, parsePair, parsePermitDeadline, parsePositiveAmount } from './request-parsing';

const ERC20 = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);

export class ApprovalUseCase {
  constructor(
    private readonly engine: QuoteEngine,
    private readonly graphs: LiquidityGraphs,
    private readonly chains: ChainClients,
  ) {}

  execute(req: ApprovalRequest): Promise<ApprovalReply> {
    return timedBuild('approval', () => this.approval(req));
  }

  private async approval(req: ApprovalRequest): Promise<ApprovalReply> {
    const sender = parseAddress(req.sender, 'sender', { allowZero: false });
    const input = parseKey(req.inputToken, 'inputToken');
    // outputToken selects the spender: the Router either way (cross-chain orders run its
    // executeBridge), but a cross-chain order takes no permit.
    const crossChain = req.outputToken !== undefined && isCrossChainRequest(req.inputToken, req.outputToken);
    if (req.outputToken !== undefined && !crossChain) parsePair(req.inputToken, req.outputToken);
    if (input.address === ZERO_ADDRESS) throw badRequest('inputToken is the native token, which needs no approval');
    const amount = parsePositiveAmount(req.inputAmount, 'inputAmount');
    const deadline = await parsePermitDeadline(req.permitDeadline, () => this.chains.now(input.network));
    const deployment = this.engine.deployment(input.network);
    this.engine.token(this.graphs.get(input.network), input.address, 'inputToken');
    const client = this.chains.get(input.network);
    const spender = deployment.router;

    const [[allowanceRet], permit] = await Promise.all([
      multicall(client, [{ target: input.address, data: ERC20.encodeFunctionData('allowance', [sender, spender]) }]),
      detectPermit(client, deployment.chainId, input.address, sender),
    ]);
    const allowance = decodeUintResult(allowanceRet);
    if (allowance === undefined)
      throw badRequest(`inputToken ${input.network}:${input.address} does not answer allowance(): not an ERC-20`);
    const shouldApprove = allowance < amount;
    const permitApplies = permit !== undefined && !crossChain;
    return {
      context: {
        network: input.network,
        allowance: allowance.toString(),
        approvalAmount: amount.toString(),
        shouldApprove,
        canPermit: permitApplies,
        spender,
        target: input.address,
      },
      approve: shouldApprove
        ? { to: input.address, from: sender, data: ERC20.encodeFunctionData('approve', [spender, amount]), value: '0' }
        : undefined,
      permit:
        shouldApprove && permit && permitApplies
          ? {
              types: PERMIT_TYPES,
              domain: { ...permit.domain },
              value: { owner: sender, spender, value: amount.toString(), nonce: permit.nonce.toString(), deadline: deadline.toString() },
            }
          : undefined,
    };
  }
}
