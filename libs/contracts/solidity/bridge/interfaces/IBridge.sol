// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A cross-chain request as the depositor makes it on the origin network.
/// `inputToken`/`outputToken` address(0) = the native token of their network.
struct Deposit {
    address inputToken;
    uint256 inputAmount;
    uint256 destinationChainId;
    /// token address on the destination network
    address outputToken;
    /// what `recipient` must receive on the destination
    uint256 outputAmount;
    address recipient;
    /// unix seconds; no fill counts after it, and the deposit is refundable from `fillDeadline + REFUND_GRACE`
    uint256 fillDeadline;
    /// who gets the input back when nobody fills (the user, also when a contract deposited for them)
    address refundTo;
}

/// @notice What a filler delivers on the destination network for one deposit.
struct Fill {
    uint256 originChainId;
    bytes32 requestId;
    address outputToken;
    uint256 outputAmount;
    address recipient;
    uint256 fillDeadline;
}

/// None = no such request id.
enum DepositStatus {
    None,
    Open,
    Settled,
    Refunded
}

struct DepositRecord {
    Deposit deposit;
    address depositor;
    DepositStatus status;
}

/// @notice Origin side: holds deposits until the attester confirms a fill (repays the filler) or the
/// deadline plus a grace period passes (anyone refunds the depositor's `refundTo`).
interface IBridgeEscrow {
    event DepositCreated(
        bytes32 indexed requestId,
        address indexed depositor,
        address inputToken,
        uint256 inputAmount,
        uint256 indexed destinationChainId,
        address outputToken,
        uint256 outputAmount,
        address recipient,
        uint256 fillDeadline,
        address refundTo
    );
    event DepositSettled(bytes32 indexed requestId, address indexed filler, bytes32 fillTxHash);
    event DepositRefunded(bytes32 indexed requestId, address indexed refundTo, address token, uint256 amount);
    event AttesterChanged(address indexed previousAttester, address indexed newAttester);

    error ZeroAmount();
    error DeadlinePassed();
    error DeadlineTooFar();
    error SameChain();
    error InvalidRecipient();
    error InvalidRefundTo();
    error BadNativeValue();
    /// the escrow received a different amount than `inputAmount` (fee-on-transfer or rebasing token)
    error UnsupportedToken();
    error NotAttester();
    error InvalidAttester();
    error InvalidFiller();
    error UnknownDeposit();
    error AlreadySettled();
    error AlreadyRefunded();
    error RefundTooEarly(uint256 refundableAt);
    error NativeTransferFailed();

    function deposit(Deposit calldata d) external payable returns (bytes32 requestId);

    function settle(bytes32 requestId, address filler, bytes32 fillTxHash) external;

    function refund(bytes32 requestId) external;

    function deposits(bytes32 requestId) external view returns (DepositRecord memory);
}

/// @notice Destination side: a filler pays the recipient from its own inventory, once per request.
interface IBridgeSettler {
    event Filled(
        uint256 indexed originChainId,
        bytes32 indexed requestId,
        address indexed filler,
        address recipient,
        address outputToken,
        uint256 outputAmount
    );

    error ZeroAmount();
    error FillExpired();
    error SameChain();
    error InvalidRecipient();
    error BadNativeValue();
    error AlreadyFilled(address filler);
    /// the recipient's balance grew by less than `outputAmount` (fee-on-transfer or rebasing token)
    error UnsupportedToken();
    error NativeTransferFailed();

    function fill(Fill calldata f) external payable;

    function filledBy(uint256 originChainId, bytes32 requestId) external view returns (address);
}
