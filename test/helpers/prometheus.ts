/** One sample of a Prometheus text scrape. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scraped {
  /** `# TYPE` of every metric family. */
  types: Map<string, string>;
  samples: Sample[];
  /** The sum of the samples of `name` whose labels include `labels`. */
  value(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text format (version 0.0.4) as prom-client writes it. */
export function parseScrape(text: string): Scraped {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) types.set(type[1] ?? '', type[2] ?? '');
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key ?? ''] = value ?? '';
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  const value = (name: string, labels: Record<string, string> = {}): number =>
    samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  return { types, samples, value };
}

/** GET `/metrics` of a running serve and parses it, failing on anything but 200. */
export async function scrape(url: string, key?: string): Promise<Scraped> {
  const res = await fetch(`${url}/metrics`, {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${await res.text()}`);
  return parseScrape(await res.text());
}
