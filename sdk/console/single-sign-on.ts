import type { SsoRefusal } from '../types.js';

/** What a person is told when a single sign-on was refused: a title and what to do. */
export interface SsoRefusalText {
  title: string;
  explanation: string;
}

/**
 * The words for each refusal the return address can carry (`?error=`, and `?detail=` with the provider's error
 * code or the refused domain), for the dashboard's page and the CLI alike. An unknown value (a newer server's)
 * reads as a generic refusal.
 */
export function describeSsoRefusal(reason: string, detail?: string | null, provider = 'the provider'): SsoRefusalText {
  const texts: Record<SsoRefusal, SsoRefusalText> = {
    expired: {
      title: 'This sign-in expired',
      explanation:
        'The sign-in took longer than ten minutes, or it was finished in another browser than the one that ' +
        'started it. Start again.',
    },
    'state-mismatch': {
      title: 'This sign-in could not be verified',
      explanation:
        `The answer from ${provider} does not belong to the sign-in this browser started (its state or nonce ` +
        'did not match), so it was refused. Start again; if it keeps happening, tell whoever runs this server.',
    },
    'email-unverified': {
      title: 'Your email address is not verified',
      explanation:
        `${provider} did not confirm a verified email address for your account, and Switchboard accounts are ` +
        `email addresses. Verify your address with ${provider}, then sign in again.`,
    },
    'domain-not-allowed': {
      title: 'This address may not sign in here',
      explanation:
        `This server accepts addresses of certain domains only${detail ? `, and not of ${detail}` : ''}. Sign in ` +
        `to ${provider} with your work account, or ask whoever runs this server.`,
    },
    'provider-refused': {
      title: `${provider} refused the sign-in`,
      explanation: `${provider} did not sign you in${detail ? ` (${detail})` : ''}. Start again, or ask whoever runs this server.`,
    },
    'provider-unreachable': {
      title: `${provider} could not be reached`,
      explanation: `The server could not reach ${provider} to sign you in. Try again in a moment.`,
    },
  };
  return (
    texts[reason as SsoRefusal] ?? {
      title: 'The sign-in was refused',
      explanation: `The server refused the sign-in (${reason}). Start again.`,
    }
  );
}
