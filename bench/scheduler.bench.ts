// The scheduler's cost while idle (issue 16, target ≤ 1 % of one core): two serve-like processes
// side by side for 60 s, Slack on in both, one with the scheduler's jobs as serve registers them
// (reminders every 30 s, the morning digest), one without (its scheduler stopped); each measures
// its own CPU time with process.cpuUsage. The difference is what the jobs cost when nothing is due.
// Run: npx tsx bench/scheduler.bench.ts [seconds]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const SECONDS = Number(process.argv[2] ?? 60);

interface Figures {
  mode: string;
  jobs: string[];
  wallMs: number;
  cpuMs: number;
  percent: number;
  roundMs?: number;
  posted: number;
}

function measure(mode: 'jobs' | 'baseline'): Promise<Figures> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'scheduler-idle-child.ts'), mode, String(SECONDS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || line === '') reject(new Error(`the ${mode} process ended with ${code}: ${out}`));
      else resolve(JSON.parse(line) as Figures);
    });
  });
}

console.log(`\nscheduler idle cost: two serve-like processes, ${SECONDS} s idle each, side by side`);
const [jobs, baseline] = await Promise.all([measure('jobs'), measure('baseline')]);
const row = (f: Figures) =>
  `  ${f.mode.padEnd(9)} jobs [${f.jobs.join(', ') || 'none'}]: ${f.cpuMs.toFixed(0)} ms CPU in ${(f.wallMs / 1000).toFixed(1)} s = ${f.percent.toFixed(3)} % of one core`;
console.log(row(jobs));
console.log(row(baseline));
const extra = jobs.percent - baseline.percent;
console.log(
  `  the jobs' own cost: ${extra.toFixed(3)} % of one core (target ≤ 1 %: ${extra <= 1 ? 'met' : 'MISSED'}); whole process with jobs ${jobs.percent.toFixed(3)} %`,
);
if (jobs.roundMs !== undefined)
  console.log(
    `  one round of the jobs with nothing due (10,000 approvals, 1 waiting): ${jobs.roundMs.toFixed(3)} ms CPU; at one round per 30 s that is ${((jobs.roundMs / 30_000) * 100).toFixed(4)} % of one core`,
  );
console.log(
  `  Slack messages posted over each process's life (the waiting approval's own post): ${jobs.posted} with jobs, ${baseline.posted} without`,
);
console.log(
  `  load average now ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} (2 cores shared)`,
);
