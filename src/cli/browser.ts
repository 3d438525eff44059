// Opening the sign-in link for the user, where a browser can open: never in CI (`CI` set), never
// over a bare SSH session or a Linux console without a display, never when MCPHOST_NO_BROWSER is set.
// The link is printed either way; opening it is a convenience.

export function browserAvailable(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  const set = (name: string) => env[name] !== undefined && env[name] !== '' && env[name] !== '0' && env[name] !== 'false';
  if (set('CI') || set('MCPHOST_NO_BROWSER')) return false;
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return set('DISPLAY') || set('WAYLAND_DISPLAY');
  return !set('SSH_CONNECTION') || set('DISPLAY');
}

/** Asks the system to open `url` (the `open` package: xdg-open, open, start); false when that failed. */
export async function openBrowser(url: URL): Promise<boolean> {
  try {
    const { default: open } = await import('open');
    const child = await open(url.href);
    child.once('error', () => undefined); // A spawn that failed has no pid; its error event must not go unhandled.
    return child.pid !== undefined;
  } catch {
    return false;
  }
}
