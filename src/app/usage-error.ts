// A command used wrongly (a bad flag or argument, an unknown name): exit 1, with the message alone.
export class UsageError extends Error {
  /** Set when the problem is a flag the tool does not have (the caller may know what was meant). */
  readonly unknownFlag?: string;
  constructor(message: string, options: { unknownFlag?: string } = {}) {
    super(message);
    this.name = 'UsageError';
    this.unknownFlag = options.unknownFlag;
  }
}
