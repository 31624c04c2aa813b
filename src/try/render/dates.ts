/**
 * `<!date^<seconds>^<format>|<fallback>>` as Slack shows it: the tokens of its format, in the
 * reader's time zone (here: the machine's, where both the page and `bankops serve` run).
 */

const DAY_MS = 86_400_000;

const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

const part = (date: Date, options: Intl.DateTimeFormatOptions): string =>
  new Intl.DateTimeFormat('en-US', options).format(date);

const startOfDay = (ms: number): number => {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
};

function pretty(date: Date, now: number, otherwise: string): string {
  const days = Math.round((startOfDay(date.getTime()) - startOfDay(now)) / DAY_MS);
  if (days === 0) return 'today';
  if (days === -1) return 'yesterday';
  if (days === 1) return 'tomorrow';
  return otherwise;
}

function ago(date: Date, now: number): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.round(abs / 60), 'minute']
        : abs < 86_400
          ? [Math.round(abs / 3600), 'hour']
          : [Math.round(abs / 86_400), 'day'];
  const words = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${words}` : `${words} ago`;
}

/** One format token's text, or undefined for a token Slack does not have. */
function token(name: string, date: Date, now: number): string | undefined {
  const month = part(date, { month: 'long' });
  const short = part(date, { month: 'short' });
  const day = ordinal(date.getDate());
  const year = date.getFullYear();
  const long = `${part(date, { weekday: 'long' })}, ${month} ${day}, ${year}`;
  const dateWords = `${month} ${day}, ${year}`;
  const dateShort = `${short} ${date.getDate()}, ${year}`;
  switch (name) {
    case 'date_num':
      return `${year}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    case 'date':
      return dateWords;
    case 'date_short':
      return dateShort;
    case 'date_long':
      return long;
    case 'date_pretty':
      return pretty(date, now, dateWords);
    case 'date_short_pretty':
      return pretty(date, now, dateShort);
    case 'date_long_pretty':
      return pretty(date, now, long);
    case 'time':
      return part(date, { hour: 'numeric', minute: '2-digit' });
    case 'time_secs':
      return part(date, { hour: 'numeric', minute: '2-digit', second: '2-digit' });
    case 'ago':
      return ago(date, now);
    default:
      return undefined;
  }
}

/** The date's text, or undefined when the token cannot be read (its fallback is shown then). */
export function slackDate(seconds: string, format: string, now: number): string | undefined {
  const date = new Date(Number(seconds) * 1000);
  if (!/^\d+$/.test(seconds) || Number.isNaN(date.getTime())) return undefined;
  let failed = false;
  const text = format.replace(/\{([a-z_]+)\}/g, (_whole, name: string) => {
    const value = token(name, date, now);
    if (value === undefined) failed = true;
    return value ?? '';
  });
  return failed ? undefined : text;
}
