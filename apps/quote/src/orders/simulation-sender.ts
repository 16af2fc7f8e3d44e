import { getAddress, id } from 'ethers';

/** The address estimates simulate from: nobody's key, given balances by state overrides only. */
export const SIMULATION_SENDER = getAddress(`0x${id('tokensvc/quote/simulation-sender').slice(-40)}`).toLowerCase();
