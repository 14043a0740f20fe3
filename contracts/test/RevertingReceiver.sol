// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Test only: a recipient that refuses every native payment (a payout leg to it fails).
contract RevertingReceiver {
    error NotAccepted();

    receive() external payable {
        revert NotAccepted();
    }
}
