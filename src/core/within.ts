/**
 * `work`'s value when it settles within `ms`, undefined when it does not (it goes on unheard); a
 * rejection within `ms` rejects. For checks that must answer while the database does not.
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  if (!Number.isFinite(ms)) return { value: await work };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  // Heard even when late, so a rejection after the deadline is not an unhandled one.
  const settled = work.then((value) => ({ value }));
  settled.catch(() => undefined);
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
