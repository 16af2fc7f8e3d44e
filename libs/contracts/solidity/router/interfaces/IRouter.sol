// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Call} from "./IExecutor.sol";

/// @notice What the caller trades. `inputToken`/`outputToken` address(0) = the native token.
/// The partner fee is `feeBps` of `inputAmount`, taken from the input before the route runs.
struct Order {
    address inputToken;
    uint256 inputAmount;
    address outputToken;
    uint256 minOutputAmount;
    address recipient;
    address partner;
    uint16 feeBps;
    uint256 deadline;
}

/// @notice EIP-712 order signed by `sender` and submitted by a relayer.
/// `relayerFee` (input token units) is paid to the submitter for the gas; `nonce` is single-use per
/// sender (unordered, like Permit2), so several orders can be open at once.
/// The signature also binds the route: `routeHash` is keccak256(abi.encode(calls)) of the only calls
/// the order may run, so whoever sees the order cannot run it through calls of their own that pay
/// the recipient just `minOutputAmount` and keep the rest. `submitter` is the only account that may
/// submit it (and so take `relayerFee`); address(0) lets anyone.
struct SignedOrder {
    address sender;
    address inputToken;
    uint256 inputAmount;
    address outputToken;
    uint256 minOutputAmount;
    address recipient;
    address partner;
    uint16 feeBps;
    uint256 relayerFee;
    address submitter;
    bytes32 routeHash;
    uint256 nonce;
    uint256 deadline;
}

/// @notice Several inputs of one network into one output (a multi-input zap): each input is pulled
/// from the caller, `feeBps` of each goes to the partner, the rest funds the route. At most
/// MAX_INPUTS inputs, each distinct, none the output; address(0) (native, paid as msg.value) at most once.
struct MultiOrder {
    address[] inputTokens;
    uint256[] inputAmounts;
    address outputToken;
    uint256 minOutputAmount;
    address recipient;
    address partner;
    uint16 feeBps;
    uint256 deadline;
}

/// @notice EIP-2612 permit of the input token for the router, signed by the caller.
struct PermitParams {
    uint256 value;
    uint256 deadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
}

interface IRouter {
    event OrderExecuted(
        address indexed sender,
        address indexed inputToken,
        uint256 inputAmount,
        address indexed outputToken,
        uint256 outputAmount,
        address recipient,
        uint256 fee,
        bytes32 routeHash
    );
    event PartnerFeePaid(address indexed partner, address indexed token, uint256 amount);
    event MultiOrderExecuted(
        address indexed sender,
        address[] inputTokens,
        uint256[] inputAmounts,
        address indexed outputToken,
        uint256 outputAmount,
        address recipient,
        bytes32 routeHash
    );
    event SignedOrderExecuted(address indexed sender, uint256 indexed nonce, address relayer, uint256 relayerFee);
    event NonceInvalidated(address indexed owner, uint256 indexed nonce);

    error Expired();
    error InsufficientOutput(uint256 received, uint256 minimum);
    error InvalidRecipient();
    error SameToken();
    error FeeTooHigh();
    error FeeWithoutPartner();
    error FeesExceedInput();
    error ZeroAmount();
    error BadNativeValue();
    error NativeTransferFailed();
    error NativeNotSupported();
    error PermitFailed();
    error InvalidSignature();
    error NonceUsed();
    /// the calls submitted with a signed order are not the ones its signature covers
    error RouteMismatch(bytes32 signed, bytes32 submitted);
    /// a signed order bound to one submitter was sent by another account
    error SubmitterNotAllowed(address caller, address allowed);
    /// a multi-input order: the lists differ in length, are empty or longer than MAX_INPUTS
    error BadInputList();
    /// a multi-input order names the same input twice
    error DuplicateInput(address token);

    function execute(Order calldata order, Call[] calldata calls) external payable returns (uint256 outputAmount);

    function executeBridge(Order calldata order, Call[] calldata calls) external payable returns (uint256 deposited);

    function executeWithPermit(Order calldata order, PermitParams calldata permit, Call[] calldata calls) external returns (uint256 outputAmount);

    function executeSignedOrder(SignedOrder calldata order, bytes calldata signature, Call[] calldata calls) external returns (uint256 outputAmount);

    function executeMulti(MultiOrder calldata order, Call[] calldata calls) external payable returns (uint256 outputAmount);

    /// @notice `permits[i]` for `inputTokens[i]`; a permit with v == 0 means "already approved".
    function executeMultiWithPermits(MultiOrder calldata order, PermitParams[] calldata permits, Call[] calldata calls)
        external
        returns (uint256 outputAmount);

    function invalidateNonce(uint256 nonce) external;

    function isNonceUsed(address owner, uint256 nonce) external view returns (bool);
}
