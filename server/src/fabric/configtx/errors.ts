/**
 * Thrown by the channel-config library when an input can't become a channel config Fabric
 * would accept. `field` names the offending input (a path such as `consensus.consenters[1]`)
 * so a service can map it to a named 400 without parsing the message.
 */
export class ConfigtxInputError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "ConfigtxInputError";
  }
}
