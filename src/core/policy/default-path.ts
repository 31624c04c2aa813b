import { packageFile } from '../package-root.js';

/** The shipped `policy/default.yaml`, wherever the package is (sources, build, bundles, installed). */
export function defaultPolicyPath(): string {
  return packageFile('policy', 'default.yaml');
}
