export { Deriver } from './deriver';
export { DERIVE_OPTIONS, DEFAULT_DERIVE_OPTIONS, type DeriveOptions } from './derive-options';
