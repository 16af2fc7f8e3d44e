/** One measured target of an HTTP benchmark (autocannon figures). */
export interface BenchRow {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}
