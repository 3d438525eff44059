// A mounted server that wants its user to sign in: never a generic HTTP error, always the command
// that fixes it. Its text names no token, only the server and why.
export class SignInRequiredError extends Error {
  readonly server: string;
  constructor(server: string, why: string) {
    super(`${why}: run \`mcphost auth ${server}\` to sign in`);
    this.name = 'SignInRequiredError';
    this.server = server;
  }
}

/** The command that signs in to `server`, as messages print it. */
export const signInCommand = (server: string) => `mcphost auth ${server}`;
