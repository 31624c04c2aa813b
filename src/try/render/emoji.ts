/** The emoji bankops writes (and a few common ones), by Slack's short name. */
const EMOJI: Record<string, string> = {
  '+1': '👍',
  anchor: '⚓',
  arrows_counterclockwise: '🔄',
  bell: '🔔',
  calendar: '📆',
  clock1: '🕐',
  eyes: '👀',
  gear: '⚙️',
  grey_question: '❔',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  inbox_tray: '📥',
  information_source: 'ℹ️',
  key: '🔑',
  leftwards_arrow_with_hook: '↩️',
  lock: '🔒',
  moneybag: '💰',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  rotating_light: '🚨',
  sunrise: '🌅',
  tada: '🎉',
  warning: '⚠️',
  wastebasket: '🗑️',
  wave: '👋',
  white_check_mark: '✅',
  wrench: '🔧',
  x: '❌',
};

/** `:name:` as its emoji; a name Slack would know and this table does not stays as typed. */
export const emojify = (html: string): string =>
  html.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => EMOJI[name] ?? whole);
