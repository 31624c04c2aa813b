/**
 * What a typed name or value most likely meant, among the known ones: every "did you mean" of
 * every front end comes from here, through the executor's words for fields and values
 * (`unknown-fields.ts`, `input-words.ts`) and `present/suggest.ts` for commands, tools and payees.
 *
 * In order: the same but for case and `_`/`-` (`accountid` → `accountId`); else those holding every
 * word typed, in any order (`balances get` → `get_balances`, `purchased goods` → `GOODS_PURCHASED`,
 * `payout` → the payout tools, `account` → `sourceAccountId`); else one a typo away (two edits:
 * `creat_payout`); else those sharing the most words with it, a known word also matching when it
 * contains a typed one of three letters or more (`purchase` → `GOODS_PURCHASED`). At most three,
 * best first; none when nothing is close.
 */
export function meant(typed: string, known: readonly string[], limit = 3): string[] {
  const same = known.find((candidate) => loose(candidate) === loose(typed));
  if (same !== undefined) return [same];
  const sharing = sharingWords(typed, known);
  // A name holding every word typed beats a typo's neighbour (`account`: sourceAccountId, not amount).
  if (sharing.whole.length > 0) return sharing.whole.slice(0, limit);
  const near = typoAway(typed, known);
  if (near !== undefined) return [near];
  return sharing.best.slice(0, limit);
}

/** Words every tool name shares, which say nothing about which one was meant (`get`, the family `b`). */
const COMMON = new Set(['get', 'list', 'create', 'update', 'delete', 'a', 'b']);

const loose = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/** `get_card_b` → get, card, b; `sourceAccountId` → source, account, id; `GOODS PURCHASED` → goods, purchased. */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The known name two edits away at most (the nearest), compared loosely. */
function typoAway(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(loose(typed), loose(candidate));
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

/**
 * The known names sharing the best-scored words with the typed ones (`best`), and among them those
 * holding every telling word whole (`whole`): a telling word of the typed ones found whole counts 2,
 * found inside a known word 1, a common word found whole 1 more. Ties go to the name with fewer
 * words besides, then the shorter, then the first listed.
 */
function sharingWords(typed: string, known: readonly string[]): { best: string[]; whole: string[] } {
  const words = wordsOf(typed);
  const telling = words.filter((w) => !COMMON.has(w));
  if (telling.length === 0) return { best: [], whole: [] };
  const scored = known.map((candidate, order) => {
    const parts = wordsOf(candidate);
    const found = telling.map((w) =>
      parts.includes(w) ? 2 : w.length >= 3 && parts.some((p) => p.includes(w)) ? 1 : 0,
    );
    const telltale = found.reduce((sum: number, n) => sum + n, 0);
    const common = words.filter((w) => COMMON.has(w) && parts.includes(w)).length;
    const matched = found.filter((n) => n > 0).length + common;
    const whole = found.every((n) => n === 2);
    return { candidate, order, telltale, whole, score: telltale * 2 + common, extra: parts.length - matched };
  });
  const best = Math.max(0, ...scored.filter((s) => s.telltale > 0).map((s) => s.score));
  const ranked = scored
    .filter((s) => s.telltale > 0 && s.score === best)
    .sort((a, b) => a.extra - b.extra || a.candidate.length - b.candidate.length || a.order - b.order);
  return {
    best: ranked.map((s) => s.candidate),
    whole: ranked.filter((s) => s.whole).map((s) => s.candidate),
  };
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
