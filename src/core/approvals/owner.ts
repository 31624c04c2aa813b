import { hostname } from 'node:os';

/**
 * Who executes approvals in this process: `${hostname}:${pid}`, for people reading the row. Only
 * the lease says whether the holder still works on it: it renews the lease while it runs, and
 * another process takes the approval over once the lease has run out.
 */
export const defaultOwner = (): string => `${hostname()}:${process.pid}`;
