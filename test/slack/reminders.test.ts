import { describe } from 'vitest';
import { remindersScenario } from '../helpers/reminders-scenario.js';

/** Reminders and the morning digest, two replicas on one SQLite file (test/helpers/reminders-scenario.ts). */
describe('reminders and the digest on SQLite', () => {
  remindersScenario();
});
