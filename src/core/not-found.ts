/**
 * A "not found" that names where bankops looked (`no approval apr_… in the SQLite file …/bankops.db`,
 * `… in PostgreSQL at db.internal:5432/bankops`, never a password): a terminal without a replica's
 * variables uses a local file, and the person must see which. Every front end's words come from here.
 */
export const notFoundIn = (notFound: string, store: string | undefined): string =>
  store === undefined ? notFound : `${notFound} in ${store}`;
