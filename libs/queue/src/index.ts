export * from './bull-options';
export * from './swept-queue';
