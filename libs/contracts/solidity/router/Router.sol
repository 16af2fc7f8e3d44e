// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Executor} from "./Executor.sol";
import {Call} from "./interfaces/IExecutor.sol";
import {IRouter, MultiOrder, Order, PermitParams, SignedOrder} from "./interfaces/IRouter.sol";

/// @notice Entry point of every order. Pulls the input once (approval, EIP-2612 permit or EIP-712
/// signed order), pays the partner fee out of the input, hands the rest to its Executor, and
/// reverts unless the recipient's balance of the output grew by at least `minOutputAmount`.
/// @dev The constructor takes no argument and the contract holds no chain-specific address (no
/// WETH): deployed through the deterministic deployment proxy (CREATE2), it has one address on
/// every chain. Native input is handed to the Executor as native; wrapping it (and unwrapping a
/// native output) is part of the route's calls, which the quote service builds from each network's
/// wrapped native token.
contract Router is IRouter, EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;

    address public constant NATIVE = address(0);
    /// 1 %: the public interface caps feePercentage at 1.
    uint16 public constant MAX_FEE_BPS = 100;
    /// The public interface takes at most 10 inputs in a multi-input order.
    uint256 public constant MAX_INPUTS = 10;
    bytes32 public constant SIGNED_ORDER_TYPEHASH = keccak256(
        "SignedOrder(address sender,address inputToken,uint256 inputAmount,address outputToken,uint256 minOutputAmount,address recipient,address partner,uint16 feeBps,uint256 relayerFee,address submitter,bytes32 routeHash,uint256 nonce,uint256 deadline)"
    );

    Executor public immutable executor;

    /// owner => word (nonce >> 8) => bit (nonce & 255) set when used
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    constructor() EIP712("TokensvcRouter", "1") {
        executor = new Executor();
    }

    function execute(Order calldata order, Call[] calldata calls) external payable nonReentrant returns (uint256) {
        _checkDeadline(order.deadline);
        if (order.inputToken == NATIVE) {
            if (msg.value != order.inputAmount) revert BadNativeValue();
        } else {
            if (msg.value != 0) revert BadNativeValue();
            _pull(order.inputToken, msg.sender, order.inputAmount);
        }
        return _settle(msg.sender, order, 0, calls);
    }

    /// @notice A cross-chain order's origin leg: the calls end with a bridge deposit, so the output
    /// leaves this chain. `order.recipient` is the bridge contract the calls deposit into, and its
    /// balance of `order.outputToken` (the bridged asset) must grow by at least `minOutputAmount`;
    /// whatever the calls leave of it goes back to the caller.
    function executeBridge(Order calldata order, Call[] calldata calls) external payable nonReentrant returns (uint256 deposited) {
        _checkDeadline(order.deadline);
        if (order.inputAmount == 0) revert ZeroAmount();
        if (order.recipient.code.length == 0) revert InvalidRecipient();
        if (order.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        if (order.feeBps > 0 && order.partner == address(0)) revert FeeWithoutPartner();
        if (order.inputToken == NATIVE) {
            if (msg.value != order.inputAmount) revert BadNativeValue();
        } else {
            if (msg.value != 0) revert BadNativeValue();
            _pull(order.inputToken, msg.sender, order.inputAmount);
        }
        uint256 fee = (order.inputAmount * order.feeBps) / 10_000;
        if (fee > 0) {
            _send(order.inputToken, order.partner, fee);
            emit PartnerFeePaid(order.partner, order.inputToken, fee);
        }
        _fundExecutor(order.inputToken, order.inputAmount - fee);
        uint256 before = _balanceOf(order.outputToken, order.recipient);
        executor.run(calls, order.outputToken, msg.sender);
        uint256 afterwards = _balanceOf(order.outputToken, order.recipient);
        deposited = afterwards > before ? afterwards - before : 0;
        if (deposited < order.minOutputAmount) revert InsufficientOutput(deposited, order.minOutputAmount);
        emit OrderExecuted(
            msg.sender, order.inputToken, order.inputAmount, order.outputToken, deposited, order.recipient, fee, keccak256(abi.encode(calls))
        );
    }

    function executeWithPermit(Order calldata order, PermitParams calldata permit, Call[] calldata calls)
        external
        nonReentrant
        returns (uint256)
    {
        _checkDeadline(order.deadline);
        if (order.inputToken == NATIVE) revert NativeNotSupported();
        // A permit seen in the mempool can be submitted by someone else first; the allowance it set
        // is then already there, so only a missing allowance is an error.
        try IERC20Permit(order.inputToken).permit(msg.sender, address(this), permit.value, permit.deadline, permit.v, permit.r, permit.s) {}
        catch {
            if (IERC20(order.inputToken).allowance(msg.sender, address(this)) < order.inputAmount) revert PermitFailed();
        }
        _pull(order.inputToken, msg.sender, order.inputAmount);
        return _settle(msg.sender, order, 0, calls);
    }

    function executeSignedOrder(SignedOrder calldata order, bytes calldata signature, Call[] calldata calls)
        external
        nonReentrant
        returns (uint256 outputAmount)
    {
        _checkDeadline(order.deadline);
        if (order.inputToken == NATIVE) revert NativeNotSupported();
        if (order.submitter != address(0) && msg.sender != order.submitter) revert SubmitterNotAllowed(msg.sender, order.submitter);
        // The calls are part of what was signed: another route for the same terms is refused.
        bytes32 route = keccak256(abi.encode(calls));
        if (route != order.routeHash) revert RouteMismatch(order.routeHash, route);
        // OpenZeppelin's recover rejects high-s (malleable) signatures and the zero address.
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(hashSignedOrder(order), signature);
        if (err != ECDSA.RecoverError.NoError || signer != order.sender) revert InvalidSignature();
        _useNonce(order.sender, order.nonce);
        _pull(order.inputToken, order.sender, order.inputAmount);
        Order memory o = Order({
            inputToken: order.inputToken,
            inputAmount: order.inputAmount,
            outputToken: order.outputToken,
            minOutputAmount: order.minOutputAmount,
            recipient: order.recipient,
            partner: order.partner,
            feeBps: order.feeBps,
            deadline: order.deadline
        });
        outputAmount = _settle(order.sender, o, order.relayerFee, calls);
        emit SignedOrderExecuted(order.sender, order.nonce, msg.sender, order.relayerFee);
    }

    function executeMulti(MultiOrder calldata order, Call[] calldata calls) external payable nonReentrant returns (uint256) {
        _checkMulti(order);
        uint256 native;
        for (uint256 i = 0; i < order.inputTokens.length; i++) {
            if (order.inputTokens[i] == NATIVE) native = order.inputAmounts[i];
            else _pull(order.inputTokens[i], msg.sender, order.inputAmounts[i]);
        }
        if (msg.value != native) revert BadNativeValue();
        return _settleMulti(order, calls);
    }

    function executeMultiWithPermits(MultiOrder calldata order, PermitParams[] calldata permits, Call[] calldata calls)
        external
        nonReentrant
        returns (uint256)
    {
        _checkMulti(order);
        if (permits.length != order.inputTokens.length) revert BadInputList();
        for (uint256 i = 0; i < order.inputTokens.length; i++) {
            address token = order.inputTokens[i];
            if (token == NATIVE) revert NativeNotSupported();
            PermitParams calldata p = permits[i];
            // As in executeWithPermit: a permit front-run by someone else already set the allowance.
            if (p.v != 0) {
                try IERC20Permit(token).permit(msg.sender, address(this), p.value, p.deadline, p.v, p.r, p.s) {}
                catch {
                    if (IERC20(token).allowance(msg.sender, address(this)) < order.inputAmounts[i]) revert PermitFailed();
                }
            }
            _pull(token, msg.sender, order.inputAmounts[i]);
        }
        return _settleMulti(order, calls);
    }

    /// @notice Cancels an open signed order of the caller.
    function invalidateNonce(uint256 nonce) external {
        _useNonce(msg.sender, nonce);
        emit NonceInvalidated(msg.sender, nonce);
    }

    function isNonceUsed(address owner, uint256 nonce) public view returns (bool) {
        return nonceBitmap[owner][nonce >> 8] & (1 << (nonce & 0xff)) != 0;
    }

    /// @notice EIP-712 digest (domain: this chain id and this router) that `order.sender` signs.
    function hashSignedOrder(SignedOrder calldata order) public view returns (bytes32) {
        // All fields are static, so abi.encode of the struct is exactly EIP-712 encodeData.
        return _hashTypedDataV4(keccak256(abi.encode(SIGNED_ORDER_TYPEHASH, order)));
    }

    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function _settle(address sender, Order memory order, uint256 relayerFee, Call[] calldata calls) private returns (uint256 outputAmount) {
        _checkOrder(order);
        uint256 fee = (order.inputAmount * order.feeBps) / 10_000;
        if (fee + relayerFee >= order.inputAmount) revert FeesExceedInput();
        if (fee > 0) {
            _send(order.inputToken, order.partner, fee);
            emit PartnerFeePaid(order.partner, order.inputToken, fee);
        }
        if (relayerFee > 0) _send(order.inputToken, msg.sender, relayerFee);
        _fundExecutor(order.inputToken, order.inputAmount - fee - relayerFee);

        uint256 before = _balanceOf(order.outputToken, order.recipient);
        executor.run(calls, order.outputToken, order.recipient);
        uint256 afterwards = _balanceOf(order.outputToken, order.recipient);
        outputAmount = afterwards > before ? afterwards - before : 0;
        if (outputAmount < order.minOutputAmount) revert InsufficientOutput(outputAmount, order.minOutputAmount);
        emit OrderExecuted(
            sender, order.inputToken, order.inputAmount, order.outputToken, outputAmount, order.recipient, fee, keccak256(abi.encode(calls))
        );
    }

    function _checkMulti(MultiOrder calldata order) private view {
        _checkDeadline(order.deadline);
        uint256 n = order.inputTokens.length;
        if (n == 0 || n > MAX_INPUTS || order.inputAmounts.length != n) revert BadInputList();
        for (uint256 i = 0; i < n; i++) {
            address token = order.inputTokens[i];
            if (order.inputAmounts[i] == 0) revert ZeroAmount();
            if (token == order.outputToken) revert SameToken();
            for (uint256 j = 0; j < i; j++) {
                if (order.inputTokens[j] == token) revert DuplicateInput(token);
            }
        }
        if (order.recipient == address(0) || order.recipient == address(this) || order.recipient == address(executor)) {
            revert InvalidRecipient();
        }
        if (order.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        if (order.feeBps > 0 && order.partner == address(0)) revert FeeWithoutPartner();
    }

    /// @dev The inputs are held by the router: fees out, the rest to the executor, then the route.
    function _settleMulti(MultiOrder calldata order, Call[] calldata calls) private returns (uint256 outputAmount) {
        for (uint256 i = 0; i < order.inputTokens.length; i++) {
            address token = order.inputTokens[i];
            uint256 fee = (order.inputAmounts[i] * order.feeBps) / 10_000;
            if (fee > 0) {
                _send(token, order.partner, fee);
                emit PartnerFeePaid(order.partner, token, fee);
            }
            _fundExecutor(token, order.inputAmounts[i] - fee);
        }
        uint256 before = _balanceOf(order.outputToken, order.recipient);
        executor.run(calls, order.outputToken, order.recipient);
        uint256 afterwards = _balanceOf(order.outputToken, order.recipient);
        outputAmount = afterwards > before ? afterwards - before : 0;
        if (outputAmount < order.minOutputAmount) revert InsufficientOutput(outputAmount, order.minOutputAmount);
        emit MultiOrderExecuted(
            msg.sender, order.inputTokens, order.inputAmounts, order.outputToken, outputAmount, order.recipient, keccak256(abi.encode(calls))
        );
    }

    function _checkOrder(Order memory order) private view {
        if (order.inputAmount == 0) revert ZeroAmount();
        if (order.inputToken == order.outputToken) revert SameToken();
        if (order.recipient == address(0) || order.recipient == address(this) || order.recipient == address(executor)) {
            revert InvalidRecipient();
        }
        if (order.feeBps > MAX_FEE_BPS) revert FeeTooHigh();
        if (order.feeBps > 0 && order.partner == address(0)) revert FeeWithoutPartner();
    }

    function _checkDeadline(uint256 deadline) private view {
        if (block.timestamp > deadline) revert Expired();
    }

    function _pull(address token, address from, uint256 amount) private {
        IERC20(token).safeTransferFrom(from, address(this), amount);
    }

    /// @dev Native input reaches the executor as native (no WETH here: see the contract's @dev);
    /// the route's first call wraps it when the route needs WETH.
    function _fundExecutor(address token, uint256 amount) private {
        _send(token, address(executor), amount);
    }

    function _send(address token, address to, uint256 amount) private {
        if (token == NATIVE) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed();
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    function _balanceOf(address token, address owner) private view returns (uint256) {
        return token == NATIVE ? owner.balance : IERC20(token).balanceOf(owner);
    }

    function _useNonce(address owner, uint256 nonce) private {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 word = nonceBitmap[owner][nonce >> 8];
        if (word & bit != 0) revert NonceUsed();
        nonceBitmap[owner][nonce >> 8] = word | bit;
    }
}
