/** The seeding price maths now lives with the protocol modules (libs/protocols/src/devnet-math.ts). */
export * from '@tokensvc/protocols/devnet';
