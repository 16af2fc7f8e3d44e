// solc-js ships no type declarations; this covers the two calls the build uses.
declare module 'solc' {
  interface ImportResult {
    contents?: string;
    error?: string;
  }
  interface CompileCallbacks {
    import?: (path: string) => ImportResult;
  }
  export function compile(input: string, callbacks?: CompileCallbacks): string;
  export function version(): string;
}
