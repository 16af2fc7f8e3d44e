// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Deposit, DepositRecord, DepositStatus, IBridgeEscrow} from "./interfaces/IBridge.sol";

/// @notice Origin side of the devnet bridge. A deposit locks the input here; the attester (the
/// devnet provider's key) settles it to the filler once the fill happened on the destination, or,
/// when nobody filled, anyone refunds it to `refundTo` after `fillDeadline + REFUND_GRACE`.
/// The owner can only change the attester: there is no function that moves escrowed funds
/// anywhere but to a filler named by the attester or to the deposit's `refundTo`.
contract BridgeEscrow is IBridgeEscrow, Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    address public constant NATIVE = address(0);
    /// Time the attester has after the deadline to settle a fill made just before it.
    uint256 public constant REFUND_GRACE = 10 minutes;
    /// Keeps `fillDeadline + REFUND_GRACE` meaningful: a deposit is never locked for longer than this.
    uint256 public constant MAX_FILL_WINDOW = 1 days;

    address public attester;
    /// Number of deposits made; the next one's request id is derived from it.
    uint256 public nonce;

    mapping(bytes32 => DepositRecord) private _deposits;

    constructor(address attester_) Ownable(msg.sender) {
        _setAttester(attester_);
    }

    /// @notice Locks `d.inputAmount` of `d.inputToken` (approved to this contract, or `msg.value`
    /// for the native token) and announces the request to fillers.
    /// @return requestId keccak256(abi.encode(block.chainid, address(this), nonce))
    function deposit(Deposit calldata d) external payable nonReentrant returns (bytes32 requestId) {
        if (d.inputAmount == 0 || d.outputAmount == 0) revert ZeroAmount();
        if (d.fillDeadline <= block.timestamp) revert DeadlinePassed();
        if (d.fillDeadline > block.timestamp + MAX_FILL_WINDOW) revert DeadlineTooFar();
        if (d.destinationChainId == block.chainid) revert SameChain();
        if (d.recipient == address(0)) revert InvalidRecipient();
        if (d.refundTo == address(0) || d.refundTo == address(this)) revert InvalidRefundTo();

        if (d.inputToken == NATIVE) {
            if (msg.value != d.inputAmount) revert BadNativeValue();
        } else {
            if (msg.value != 0) revert BadNativeValue();
            IERC20 token = IERC20(d.inputToken);
            uint256 before = token.balanceOf(address(this));
            token.safeTransferFrom(msg.sender, address(this), d.inputAmount);
            // Paying out more than arrived would spend other deposits.
            if (token.balanceOf(address(this)) - before != d.inputAmount) revert UnsupportedToken();
        }

        requestId = keccak256(abi.encode(block.chainid, address(this), nonce++));
        _deposits[requestId] = DepositRecord({deposit: d, depositor: msg.sender, status: DepositStatus.Open});
        emit DepositCreated(
            requestId,
            msg.sender,
            d.inputToken,
            d.inputAmount,
            d.destinationChainId,
            d.outputToken,
            d.outputAmount,
            d.recipient,
            d.fillDeadline,
            d.refundTo
        );
    }

    /// @notice Repays `filler` with the escrowed input. Only the attester, which calls this after it
    /// saw a matching `Filled` event (`fillTxHash`) on the destination; once per deposit.
    function settle(bytes32 requestId, address filler, bytes32 fillTxHash) external nonReentrant {
        if (msg.sender != attester) revert NotAttester();
        if (filler == address(0)) revert InvalidFiller();
        DepositRecord storage record = _open(requestId);
        record.status = DepositStatus.Settled;
        emit DepositSettled(requestId, filler, fillTxHash);
        _send(record.deposit.inputToken, filler, record.deposit.inputAmount);
    }

    /// @notice Returns the input to `refundTo` when the deposit was not settled in time. Anyone may
    /// call it (the depositor, a keeper, the status tracker) from `fillDeadline + REFUND_GRACE` on.
    function refund(bytes32 requestId) external nonReentrant {
        DepositRecord storage record = _open(requestId);
        uint256 from = record.deposit.fillDeadline + REFUND_GRACE;
        if (block.timestamp < from) revert RefundTooEarly(from);
        record.status = DepositStatus.Refunded;
        Deposit storage d = record.deposit;
        emit DepositRefunded(requestId, d.refundTo, d.inputToken, d.inputAmount);
        _send(d.inputToken, d.refundTo, d.inputAmount);
    }

    /// @notice The stored deposit, who made it and its state (`None` for an unknown id).
    function deposits(bytes32 requestId) external view returns (DepositRecord memory) {
        return _deposits[requestId];
    }

    /// @notice First moment `refund(requestId)` succeeds (0 for an unknown id).
    function refundableAt(bytes32 requestId) external view returns (uint256) {
        DepositRecord storage record = _deposits[requestId];
        return record.status == DepositStatus.None ? 0 : record.deposit.fillDeadline + REFUND_GRACE;
    }

    /// @notice Replaces the key that confirms fills (e.g. after rotating the provider's key).
    function setAttester(address attester_) external onlyOwner {
        _setAttester(attester_);
    }

    function _setAttester(address attester_) private {
        if (attester_ == address(0)) revert InvalidAttester();
        emit AttesterChanged(attester, attester_);
        attester = attester_;
    }

    /// @dev Settled and refunded are final and exclusive: both go through here.
    function _open(bytes32 requestId) private view returns (DepositRecord storage record) {
        record = _deposits[requestId];
        DepositStatus status = record.status;
        if (status == DepositStatus.None) revert UnknownDeposit();
        if (status == DepositStatus.Settled) revert AlreadySettled();
        if (status == DepositStatus.Refunded) revert AlreadyRefunded();
    }

    function _send(address token, address to, uint256 amount) private {
        if (token == NATIVE) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed();
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
