/**
 * Thrown when a store opens a file as its single gateway while another live process on this host
 * has it open that way. `pid` is that process, so that a host can word the conflict in its own
 * settings (the example server names its data folder variable).
 */
export class SingleGatewayInUseError extends Error {
  constructor(readonly pid: number) {
    super(
      `Another gateway (process ${pid}) has this SQLite file open as its single gateway; stop it first, or open both without singleGateway so their holds are shared in the file.`,
    );
    this.name = 'SingleGatewayInUseError';
  }
}
