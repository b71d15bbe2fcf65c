// The subset of better-sqlite3's API the sandbox store uses (the package ships no types and
// @types/better-sqlite3 is not a dependency).
declare module "better-sqlite3" {
  interface RunResult {
    changes: number;
    lastInsertRowid: number | bigint;
  }
  interface Statement<Row = unknown> {
    run(...params: unknown[]): RunResult;
    get(...params: unknown[]): Row | undefined;
    all(...params: unknown[]): Row[];
  }
  interface Transaction<F extends (...args: never[]) => unknown> {
    (...args: Parameters<F>): ReturnType<F>;
    immediate(...args: Parameters<F>): ReturnType<F>;
  }
  interface Database {
    prepare<Row = unknown>(sql: string): Statement<Row>;
    exec(sql: string): this;
    pragma(source: string, options?: { simple?: boolean }): unknown;
    transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
    close(): this;
    readonly open: boolean;
  }
  interface DatabaseConstructor {
    new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean; timeout?: number }): Database;
  }
  const Database: DatabaseConstructor;
  export default Database;
}
