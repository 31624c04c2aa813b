import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it when missing); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Without the background-networking flags the closed network refuses many connections. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

/**
 * A page with a CDP virtual authenticator: a platform passkey (ctap2, internal) with resident keys
 * and user verification that always succeeds, so WebAuthn runs without a device.
 */
export async function pageWithPasskey(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  // An approver in Berlin: the pages show times in the reader's zone (CET in November).
  const context = await browser.newContext({
    viewport: { width: 860, height: 640 },
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page };
}
